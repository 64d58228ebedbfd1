import ExcelJS from 'exceljs';
import { expect, test } from '@playwright/test';
import { registerCompany, tenantCalls } from '../fixtures/api.ts';
import { phoneConversation } from '../fixtures/tenant-api.ts';
import { BatchesPage } from '../pages/batches-page.ts';
import { BoardPage } from '../pages/board-page.ts';
import { BulkSendWizard } from '../pages/bulk-send-wizard.ts';
import { SandboxPhonePage } from '../pages/sandbox-phone-page.ts';
import { TemplatesPage } from '../pages/templates-page.ts';

const TEMPLATE = 'oferta_semana';

async function excelFile(rows: unknown[][]) {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Clientes');
  rows.forEach((row) => sheet.addRow(row));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

test("a bulk send from an Excel file reaches the customers' phones and its counts go live on the dashboard", async ({ page, context, request }) => {
  const owner = await registerCompany(request);
  const slug = owner.tenant.slug;
  const customers = [
    { phone: '5215561110001', name: 'Lucía' },
    { phone: '5215561110002', name: 'Tomás' },
  ];
  await tenantCalls(request, owner).post('/templates', { name: TEMPLATE, body_text: 'Hola {{1}}, esta semana tienes 20% de descuento.' });

  const board = new BoardPage(page);
  await board.signIn({ email: owner.user.email, password: owner.password, tenantSlug: slug });

  // The template is approved by the sandbox's review: Sincronizar con Meta brings the verdict.
  const templates = new TemplatesPage(page);
  await templates.goto(slug);
  await templates.syncUntil(TEMPLATE, 'APPROVED');
  await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Sales Funnel' }).click();
  await expect(page.getByTestId('board-column').first()).toBeVisible();

  // Step 1: the file (three rows, one phone that is not a phone) and the approved template.
  const wizard = new BulkSendWizard(page);
  await wizard.open();
  await expect(wizard.next()).toBeDisabled();
  await wizard.upload(
    'clientes.xlsx',
    await excelFile([
      ['Nombre', 'Teléfono', 'Variable 1'],
      [customers[0]!.name, customers[0]!.phone, customers[0]!.name],
      [customers[1]!.name, Number(customers[1]!.phone), customers[1]!.name],
      ['Sin número', '12345', 'Nadie'],
    ]),
  );
  await expect(wizard.next()).toBeDisabled();
  await wizard.field('Plantilla aprobada').selectOption({ label: `${TEMPLATE} (UTILITY)` });
  await expect(wizard.next()).toBeEnabled();
  await wizard.next().click();

  // Step 2: the phone and name columns are found by their names, the variable by its label.
  await expect(wizard.dialog.getByText('Paso 2 de 3: columnas')).toBeVisible();
  await expect(wizard.field('Columna de teléfono')).toHaveValue('Teléfono');
  await expect(wizard.field('Columna de nombre (opcional)')).toHaveValue('Nombre');
  await expect(wizard.field('Columna para Variable 1 ({{1}})')).toHaveValue('Variable 1');
  await wizard.next().click();

  // Step 3: the destination column of this funnel.
  await wizard.field('Columna de destino').selectOption({ label: 'En conversación' });
  await wizard.submit();
  await expect(page.getByText('¡Lote encolado! El envío se está procesando en segundo plano.')).toBeVisible();
  await expect(wizard.dialog).toBeHidden();
  // The new chats are titled with the file's names, not their phones.
  await expect(board.cardIn('En conversación', customers[0]!.name)).toBeVisible({ timeout: 15_000 });

  // The dashboard follows the batch live: sent, delivered and read for both customers, the bad row failed.
  const batches = new BatchesPage(page);
  await batches.openFromNavigation();
  await expect(batches.count(TEMPLATE, 'total')).toHaveText('3');
  await expect(batches.count(TEMPLATE, 'failed')).toHaveText('1');
  await expect(batches.count(TEMPLATE, 'failed')).toHaveAttribute('data-highlighted', 'true');
  await expect(batches.row(TEMPLATE)).toContainText(owner.user.name);
  await expect(batches.count(TEMPLATE, 'sent')).toHaveText('2', { timeout: 15_000 });
  await expect(batches.count(TEMPLATE, 'delivered')).toHaveText('2', { timeout: 15_000 });
  await expect(batches.count(TEMPLATE, 'read')).toHaveText('2', { timeout: 15_000 });
  await expect(batches.count(TEMPLATE, 'status')).toHaveText('Completado');
  await expect(batches.row(TEMPLATE).getByTestId('batch-sent-percent')).toHaveText('67%');
  await expect(batches.row(TEMPLATE).getByTestId('batch-read-percent')).toHaveText('100%');

  // Each customer's phone got the template once, filled with their name.
  const phonePage = await context.newPage();
  const phone = new SandboxPhonePage(phonePage);
  await phone.goto();
  await phone.playCustomer(customers[0]!);
  await expect(phone.businessMessage('Hola Lucía, esta semana tienes 20% de descuento.')).toHaveCount(1);
  const second = await phoneConversation(request, owner, customers[1]!);
  expect(second.filter((message) => message.direction === 'to_customer')).toHaveLength(1);

  // A customer's answer counts as replied, live.
  await phone.sendText('¡Me interesa!');
  await expect(batches.count(TEMPLATE, 'replied')).toHaveText('1', { timeout: 15_000 });
  await expect(batches.row(TEMPLATE).getByTestId('batch-replied-percent')).toHaveText('50%');
});
