import { expect, test } from '@playwright/test';
import { registerCompany } from '../fixtures/api.ts';
import { ChatPanel } from '../pages/chat-panel.ts';
import { LoginPage } from '../pages/login-page.ts';
import { SandboxPhonePage } from '../pages/sandbox-phone-page.ts';
import { TemplatesPage } from '../pages/templates-page.ts';

/** A 1×1 PNG: the header image's sample. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const BODY = 'Hola {{1}}, tu cupón {{2}} te espera.';

test("a template with an image header and two buttons is reviewed, then sent on a closed chat and reaches the customer's phone", async ({
  page,
  context,
  request,
}) => {
  const owner = await registerCompany(request);
  const slug = owner.tenant.slug;
  const customer = { phone: '5215512349876', name: 'Lucía' };

  const login = new LoginPage(page);
  await login.goto();
  await login.signIn({ email: owner.user.email, password: owner.password, tenantSlug: slug });
  await login.expectOnBoard(slug);

  // The list starts empty.
  const templates = new TemplatesPage(page);
  await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Plantillas' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Plantillas de Mensajes' })).toBeVisible();
  await expect(page.getByText('Aún no tienes plantillas.')).toBeVisible();

  // The editor: name normalised as typed, image header with its sample, body, footer, two buttons.
  await page.getByRole('button', { name: 'Crear Nueva Plantilla' }).click();
  await expect(page).toHaveURL(new RegExp(`/t/${slug}/templates/new$`));
  await templates.field('Nombre de la plantilla').fill('Promo Verano!');
  await expect(templates.field('Nombre de la plantilla')).toHaveValue('promoverano');
  await templates.field('Categoría').selectOption('MARKETING');
  await expect(templates.field('Idioma')).toHaveValue('es');
  await templates.field('Tipo de encabezado').selectOption('IMAGE');
  await templates.field('Archivo de ejemplo (imagen)').setInputFiles({ name: 'promo.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByText('Media sample uploaded successfully.')).toBeVisible();
  await expect(templates.preview().getByRole('img', { name: 'Encabezado de la plantilla' })).toBeVisible();
  await templates.field('Cuerpo del mensaje').fill(BODY);
  await templates.field('Pie de página (opcional)').fill('Ferretería Núñez');
  await page.getByRole('button', { name: '+ Respuesta rápida' }).click();
  await templates.field('Texto del botón 1').fill('Lo quiero');
  await page.getByRole('button', { name: '+ Enlace (URL)' }).click();
  const host = new URL(page.url()).host;
  await expect(templates.field('URL del botón 2')).toHaveValue(`https://${host}/`);
  await templates.field('Texto del botón 2').fill('Ver tienda');
  await templates.field('URL del botón 2').fill('https://tienda.example/promo');
  await expect(templates.preview().getByTestId('preview-body')).toHaveText(BODY);
  await expect(templates.preview().getByRole('list', { name: 'Botones de la plantilla' }).getByRole('listitem')).toHaveText(['Lo quiero', 'Ver tienda']);
  await templates.save();
  await expect(page.getByText('Template created and submitted.')).toBeVisible();

  // Back on the list: PENDING (shown as pending) until a sync brings Meta's review.
  await expect(page).toHaveURL(new RegExp(`/t/${slug}/templates$`));
  await expect(templates.status('promoverano')).toHaveAttribute('data-status', 'PENDING');
  await expect(templates.status('promoverano')).toHaveText('Pendiente');
  await page.getByRole('button', { name: 'Sincronizar con Meta' }).click();
  await expect(page.getByText('Syncing template statuses with Meta...')).toBeVisible();
  // The toast covers none of the controls it used to hide for its 5 seconds.
  const toastBox = (await page.getByRole('status').filter({ hasText: 'Syncing template statuses with Meta...' }).boundingBox())!;
  for (const control of [
    page.getByRole('button', { name: 'Sincronizar con Meta' }),
    page.getByRole('button', { name: 'Crear Nueva Plantilla' }),
    page.getByTestId('connection-status'),
    page.getByRole('button', { name: /^Menú de / }),
  ]) {
    const box = (await control.boundingBox())!;
    const overlaps =
      box.x < toastBox.x + toastBox.width && toastBox.x < box.x + box.width && box.y < toastBox.y + toastBox.height && toastBox.y < box.y + box.height;
    expect(overlaps, `the toast covers ${control}`).toBe(false);
  }
  await templates.syncUntil('promoverano', 'APPROVED');
  await expect(templates.status('promoverano')).toHaveText('Aprobada');

  // A conversation started with the template: the contact never wrote, so the chat's window is closed.
  await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Sales Funnel' }).click();
  await page.getByRole('button', { name: '+ Iniciar Conversación' }).first().click();
  const start = page.getByRole('dialog', { name: 'Iniciar Conversación' });
  await start.getByLabel('Teléfono').fill(customer.phone);
  await start.getByRole('button', { name: 'Siguiente' }).click();
  await start.getByLabel('Plantilla').selectOption({ label: 'promoverano' });
  await start.getByLabel('Variable 1', { exact: true }).fill('Lucía');
  await start.getByLabel('Variable 2', { exact: true }).fill('BIENVENIDA');
  await start.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByText('Conversación iniciada con éxito.')).toBeVisible();

  const chat = new ChatPanel(page);
  await chat.open(customer.phone);
  await expect(chat.windowIndicator()).toHaveAttribute('data-state', 'closed');
  await chat.sendTemplate('promoverano', { 'Variable 1': 'Lucía', 'Variable 2': 'VERANO24' });
  const sent = chat.messages().filter({ hasText: 'Hola Lucía, tu cupón VERANO24 te espera.' });
  await expect(sent).toHaveCount(1);
  await expect(sent.getByRole('list', { name: 'Botones de la plantilla' }).getByRole('listitem')).toHaveText(['Lo quiero', 'Ver tienda']);

  // The customer's phone shows it as WhatsApp would: the image, the filled body, the footer and the buttons.
  const phonePage = await context.newPage();
  const phone = new SandboxPhonePage(phonePage);
  await phone.goto();
  await phone.playCustomer(customer);
  const onPhone = phone.businessMessage('Hola Lucía, tu cupón VERANO24 te espera.');
  await expect(onPhone).toHaveCount(1, { timeout: 15_000 });
  await expect(onPhone.getByText('Ferretería Núñez')).toBeVisible();
  const header = onPhone.getByRole('img', { name: 'Encabezado de la plantilla' });
  await expect(header).toBeVisible();
  await expect.poll(() => header.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1);
  const buttons = onPhone.getByRole('group', { name: 'Botones de la plantilla' });
  await expect(buttons.getByRole('link', { name: 'Ver tienda' })).toHaveAttribute('href', 'https://tienda.example/promo');
  await expect(onPhone.getByTestId('ticks')).toHaveAttribute('data-status', 'read', { timeout: 15_000 });

  // The customer taps a button: the reply reaches the chat and reopens the window.
  await buttons.getByRole('button', { name: 'Lo quiero' }).click();
  await expect(chat.messages().and(page.locator('[data-sender="contact"]')).filter({ hasText: 'Lo quiero' })).toHaveCount(1, { timeout: 15_000 });
  await expect(chat.windowIndicator()).not.toHaveAttribute('data-state', 'closed', { timeout: 15_000 });

  // Mi Consumo counts both sends as marketing templates.
  await expect
    .poll(
      async () => {
        const usage = await request.get(`/t/${slug}/api/usage`, { headers: { authorization: `Bearer ${owner.token}` } });
        return (await usage.json()).marketingTemplateCount;
      },
      { timeout: 15_000 },
    )
    .toBe(2);
});
