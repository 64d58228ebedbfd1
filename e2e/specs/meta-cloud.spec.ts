import ExcelJS from 'exceljs';
import { expect, test } from '@playwright/test';
import { registerCompany, tenantCalls } from '../fixtures/api.ts';
import { BatchesPage } from '../pages/batches-page.ts';
import { BoardPage } from '../pages/board-page.ts';
import { ChatPanel } from '../pages/chat-panel.ts';
import { SandboxPhonePage } from '../pages/sandbox-phone-page.ts';
import { Shell } from '../pages/shell.ts';

// Issue 18: a company connects WhatsApp straight to Meta's Cloud API (the sandbox's fake Cloud API plays Meta with
// what the company saves), chats through it, and reads why a bulk send's row failed.
test('a company switches to Meta Cloud API, chats through it with ticks, and sees why a bulk-send row failed', async ({ page, context, request }) => {
  const owner = await registerCompany(request);
  const slug = owner.tenant.slug;
  const customer = { phone: '5215561230000', name: 'Cliente Meta' };
  const board = new BoardPage(page);
  await board.signIn({ email: owner.user.email, password: owner.password, tenantSlug: slug });

  // Conexión WhatsApp: Meta Cloud API with the number's ids, the token and the app secret.
  const shell = new Shell(page);
  await shell.openUserMenu();
  await page.getByRole('menuitem', { name: 'Conexión WhatsApp' }).click();
  const dialog = page.getByRole('dialog', { name: 'Conexión WhatsApp' });
  await dialog.getByRole('radio', { name: /Meta Cloud API/ }).check();
  await expect(dialog.getByTestId('meta-webhook-url')).toContainText(`/webhooks/meta/${owner.tenant.id}/`);
  await expect(dialog.getByTestId('meta-verify-token')).not.toBeEmpty();
  await dialog.getByLabel('Phone number id').fill('109876543210987');
  await dialog.getByLabel('WABA id').fill('204567890123456');
  await dialog.getByLabel('Token de acceso permanente').fill('EAAG-token-de-prueba');
  await dialog.getByLabel('Secreto de la app (app secret)').fill('secreto-de-la-app');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Conexión WhatsApp guardada.')).toBeVisible();

  // Probar conexión asks "Meta" with the saved secrets (left blank in the dialog).
  await shell.openUserMenu();
  await page.getByRole('menuitem', { name: 'Conexión WhatsApp' }).click();
  await expect(dialog.getByLabel('Phone number id')).toHaveValue('109876543210987');
  await dialog.getByRole('button', { name: 'Probar conexión' }).click();
  await expect(dialog.getByTestId('connection-test')).toContainText('Conexión correcta.');
  await dialog.getByRole('button', { name: 'Cancelar' }).click();

  // The customer writes from the sandbox phone: the fake Cloud API signs the webhook, the company's chat appears.
  const phonePage = await context.newPage();
  const phone = new SandboxPhonePage(phonePage);
  await phone.goto();
  await phone.playCustomer(customer);
  await phone.sendText('Hola, ¿hacen envíos?');
  await expect(page.getByRole('button', { name: `Abrir chat ${customer.name}` })).toBeVisible({ timeout: 15_000 });

  // The agent replies in the chat and sees the ticks go to read as the customer's phone reads it.
  const chat = new ChatPanel(page);
  await chat.open(customer.name);
  await chat.send('Sí, a todo el país');
  await expect(chat.message('Sí, a todo el país').getByTestId('ack-ticks')).toHaveAttribute('data-ack', '3', { timeout: 15_000 });
  await expect(phone.businessMessage('Sí, a todo el país')).toHaveCount(1);

  // A bulk send with a number that is not on WhatsApp: its row says why on the dashboard.
  const api = tenantCalls(request, owner);
  const template = await api.post<{ id: string }>('/templates', { name: 'novedades_meta', category: 'UTILITY', language_code: 'es', body_text: 'Hola {{1}}' });
  await expect.poll(async () => (await api.get<{ status: string }>(`/templates/${template.id}`)).status, { timeout: 15_000 }).toBe('APPROVED');
  const [funnel] = await api.get<Array<{ id: string }>>('/funnels/summary');
  const [firstColumn] = await api.get<Array<{ id: string }>>(`/funnels/${funnel!.id}/columns`);
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Clientes');
  sheet.addRows([
    ['telefono', 'Variable 1'],
    ['+000521550000000', 'Nadie'],
  ]);
  const batch = await request.post(`/t/${slug}/api/funnels/${funnel!.id}/batches`, {
    headers: { authorization: `Bearer ${owner.token}` },
    multipart: {
      file: {
        name: 'clientes.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: Buffer.from(await workbook.xlsx.writeBuffer()),
      },
      templateId: template.id,
      targetColumnId: firstColumn!.id,
      phoneColumn: 'telefono',
    },
  });
  expect(batch.status(), await batch.text()).toBe(201);

  const batches = new BatchesPage(page);
  await batches.openFromNavigation();
  await expect(batches.count('novedades_meta', 'failed')).toHaveText('1', { timeout: 20_000 });
  await batches.row('novedades_meta').getByRole('button', { name: 'Ver fallidos' }).click();
  const failed = page.getByTestId('batch-failure-row');
  await expect(failed.getByTestId('batch-failure-phone')).toHaveText('000521550000000');
  await expect(failed.getByTestId('batch-failure-reason')).toHaveText(
    'WhatsApp no pudo entregarlo: el número no tiene WhatsApp, o el cliente debe actualizar la app o aceptar sus términos (código 131026)',
  );
});
