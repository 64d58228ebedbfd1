import { expect, test, type Page } from '@playwright/test';
import { registerCompany, type ApiSession } from '../fixtures/api.ts';
import { solidPng } from '../fixtures/png.ts';
import { customerSendsImage, customerWrites, phoneConversation, tenantApi, type Customer } from '../fixtures/tenant-api.ts';
import { BoardPage } from '../pages/board-page.ts';
import { ChatPanel } from '../pages/chat-panel.ts';
import { SandboxPhonePage } from '../pages/sandbox-phone-page.ts';
import config from '../playwright.config.ts';

// Chromium's fake microphone, granted without a prompt, for the voice note (STACK.md gotcha 8).
test.use({
  launchOptions: {
    ...config.use?.launchOptions,
    args: [...(config.use?.launchOptions?.args ?? []), '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'],
  },
});

async function openChatWith(page: Page, owner: ApiSession & { password: string }, customer: Customer) {
  const board = new BoardPage(page);
  await board.signIn({ email: owner.user.email, password: owner.password, tenantSlug: owner.tenant.slug });
  await board.card(customer.name).click();
  const chat = new ChatPanel(page);
  await expect(chat.root).toBeVisible();
  return { board, chat };
}

test('a customer writes from the sandbox phone, the card appears live, the agent reads and answers, and the phone sees it read', async ({
  browser,
  request,
}) => {
  const owner = await registerCompany(request);
  const customer = { phone: '5215522220001', name: 'Cliente E2E' };
  const context = await browser.newContext();
  try {
    const agentPage = await context.newPage();
    const phonePage = await context.newPage();
    const board = new BoardPage(agentPage);
    await board.signIn({ email: owner.user.email, password: owner.password, tenantSlug: owner.tenant.slug });
    await expect(agentPage.getByTestId('counter-individual')).toHaveText('0');

    const phone = new SandboxPhonePage(phonePage);
    await phone.goto();
    await phone.playCustomer(customer);
    await phone.sendText('Hola, ¿tienen taladros?');
    // Delivered to the business, not read yet: nobody opened the chat.
    const asked = phone.customerMessage('Hola, ¿tienen taladros?');
    await expect(asked.getByTestId('ticks')).toHaveAttribute('data-status', 'delivered');

    // The card arrives on the open board with its unread badge, no reload.
    await expect(board.cardIn('Nuevos', 'Cliente E2E')).toBeVisible();
    await expect(board.unreadBadge('Cliente E2E')).toHaveText('1');
    await expect(agentPage.getByTestId('counter-individual')).toHaveText('1');
    await expect(board.card('Cliente E2E').getByTestId('card-preview')).toHaveText('Hola, ¿tienen taladros?');

    await board.card('Cliente E2E').click();
    const chat = new ChatPanel(agentPage);
    await expect(chat.message('Hola, ¿tienen taladros?')).toBeVisible();
    await expect(board.unreadBadge('Cliente E2E')).toHaveCount(0);
    await expect(agentPage.getByTestId('window-indicator')).toHaveText(/^Ventana: 23h \d+m restantes$/);
    // Opening the chat sends WhatsApp's read receipt: the customer's ticks turn blue.
    await expect(asked.getByTestId('ticks')).toHaveAttribute('data-status', 'read', { timeout: 15_000 });
    await expect(asked.getByRole('img', { name: 'Leído' })).toBeVisible();
    // Read on the server too: a reload shows no badge.
    await agentPage.reload();
    await expect(board.card('Cliente E2E')).toBeVisible();
    await expect(board.unreadBadge('Cliente E2E')).toHaveCount(0);

    await board.card('Cliente E2E').click();
    await chat.send('¡Hola! Sí, tenemos varios modelos.');
    const answer = chat.message('¡Hola! Sí, tenemos varios modelos.');
    await expect(answer).toHaveAttribute('data-sender', 'user');
    await expect(answer).toHaveAttribute('data-ack', '3', { timeout: 15_000 });

    const onPhone = phone.businessMessage('¡Hola! Sí, tenemos varios modelos.');
    await expect(onPhone).toHaveCount(1);
    await expect(onPhone.getByTestId('ticks')).toHaveAttribute('data-status', 'read', { timeout: 15_000 });

    // A new message while the chat is open is read at once: no badge appears.
    await phone.sendText('Perfecto, paso mañana');
    await expect(chat.message('Perfecto, paso mañana')).toBeVisible();
    await expect(board.unreadBadge('Cliente E2E')).toHaveCount(0);
    await expect(phone.customerMessage('Perfecto, paso mañana').getByTestId('ticks')).toHaveAttribute('data-status', 'read', { timeout: 15_000 });
  } finally {
    await context.close();
  }
});

test('with the 24-hour window closed only a template can be sent', async ({ page, request }) => {
  const owner = await registerCompany(request);
  const customer = { phone: '5215522220002', name: 'Cliente Antiguo' };
  await tenantApi(request, owner).customerWroteHoursAgo(customer, 'Les escribí ayer', 25);

  const { chat } = await openChatWith(page, owner, customer);
  await expect(chat.message('Les escribí ayer')).toBeVisible();
  await expect(page.getByTestId('window-indicator')).toHaveText('Ventana cerrada');
  await expect(chat.root.getByText('La ventana de 24 horas está cerrada. Envía una plantilla para reiniciar la conversación.')).toBeVisible();
  await expect(chat.messageBox).toBeDisabled();
  await expect(chat.messageBox).toHaveAttribute('placeholder', 'Ventana cerrada: envía una plantilla');
  await page.setViewportSize({ width: 360, height: 740 });
  expect(await chat.placeholderFits()).toBe(true);
  await expect(chat.button('Adjuntar archivo')).toBeDisabled();
  await expect(chat.button('Grabar nota de voz')).toBeDisabled();
  await expect(chat.button('Respuestas rápidas')).toBeDisabled();
  await expect(chat.button('Enviar plantilla')).toBeEnabled();
  await chat.button('Enviar plantilla').click();
  await expect(page.getByRole('dialog', { name: 'Enviar plantilla' })).toBeVisible();
});

test('a scheduled message shows as scheduled, then is sent at its time', async ({ page, request }) => {
  const owner = await registerCompany(request);
  const customer = { phone: '5215522220003', name: 'Cliente Cita' };
  await customerWrites(request, owner, customer, 'Recuérdame la cita');
  const { chat } = await openChatWith(page, owner, customer);

  await chat.button('Programar mensaje').click();
  const dialog = page.getByRole('dialog', { name: 'Programar mensaje' });
  await dialog.getByLabel('Mensaje', { exact: true }).fill('Tu cita es mañana a las 10:00');
  await dialog
    .getByLabel('Fecha y hora')
    .fill(await page.evaluate(() => new Date(Date.now() - 60_000 - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 19)));
  await dialog.getByRole('button', { name: 'Programar' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('La fecha y hora deben ser en el futuro.');

  // A few seconds ahead (the picker takes seconds), in the browser's own time zone.
  const soon = await page.evaluate(() => new Date(Date.now() + 6_000 - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 19));
  await dialog.getByLabel('Fecha y hora').fill(soon);
  await dialog.getByRole('button', { name: 'Programar' }).click();
  await expect(page.getByText('Mensaje programado con éxito.')).toBeVisible();
  await expect(chat.root.getByTestId('chat-scheduled')).toContainText('Tu cita es mañana a las 10:00');

  const sent = chat.message('Tu cita es mañana a las 10:00');
  await expect(sent).toBeVisible({ timeout: 20_000 });
  await expect(chat.root.getByTestId('chat-scheduled')).toHaveCount(0);
  await expect(sent).toHaveAttribute('data-ack', '3', { timeout: 15_000 });
  await expect
    .poll(async () =>
      (await phoneConversation(request, owner, customer)).some(
        (message) => message.direction === 'to_customer' && JSON.stringify(message.body).includes('Tu cita es mañana'),
      ),
    )
    .toBe(true);
});

test('quick replies are kept per column and fill the message box', async ({ page, request }) => {
  const owner = await registerCompany(request);
  const customer = { phone: '5215522220004', name: 'Cliente Horario' };
  await customerWrites(request, owner, customer, '¿A qué hora abren?');
  const board = new BoardPage(page);
  await board.signIn({ email: owner.user.email, password: owner.password, tenantSlug: owner.tenant.slug });

  await board.columnMenu('Nuevos', 'Configuración de columna');
  const settings = page.getByRole('dialog', { name: 'Configuración de columna' });
  await expect(settings.getByRole('tab', { name: 'Respuestas Rápidas' })).toHaveAttribute('aria-selected', 'true');
  await settings.getByLabel('Título').fill('Horario');
  await settings.getByRole('button', { name: 'Guardar' }).click();
  await expect(settings.getByRole('alert')).toHaveText('El título y el texto son requeridos.');
  await settings.getByLabel('Texto').fill('Abrimos de lunes a sábado de 9 a 18 h.');
  await settings.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Respuesta rápida guardada.')).toBeVisible();
  await expect(settings.getByTestId('quick-reply-row')).toHaveCount(1);
  await settings.getByRole('button', { name: 'Salir del diálogo' }).click();

  await board.card(customer.name).click();
  const chat = new ChatPanel(page);
  await chat.button('Respuestas rápidas').click();
  await page.getByRole('menuitem', { name: /Horario/ }).click();
  await expect(chat.messageBox).toHaveValue('Abrimos de lunes a sábado de 9 a 18 h.');
  await chat.messageBox.press('Enter');
  await expect(chat.message('Abrimos de lunes a sábado de 9 a 18 h.')).toBeVisible();

  // Still there after a reload: stored on the server.
  await page.reload();
  await board.columnMenu('Nuevos', 'Configuración de columna');
  await expect(page.getByRole('dialog', { name: 'Configuración de columna' }).getByText('Horario', { exact: true })).toBeVisible();
});

test('internal notes stay inside the team and show in the timeline', async ({ page, request }) => {
  const owner = await registerCompany(request);
  const customer = { phone: '5215522220005', name: 'Cliente Notas' };
  await customerWrites(request, owner, customer, 'Necesito factura');
  const { chat } = await openChatWith(page, owner, customer);

  await chat.openTab('Notas Internas');
  await chat.root.getByLabel('Nota interna').fill('Pidió factura a nombre de la empresa');
  await chat.root.getByRole('button', { name: 'Agregar Nota' }).click();
  await expect(chat.root.getByTestId('chat-note')).toContainText('Pidió factura a nombre de la empresa');
  await chat.openTab('Mensajes');
  await expect(chat.root.getByTestId('chat-note')).toContainText('Pidió factura a nombre de la empresa');

  await page.reload();
  await new BoardPage(page).card(customer.name).click();
  await expect(chat.root.getByTestId('chat-note')).toContainText('Pidió factura a nombre de la empresa');
  const onPhone = await phoneConversation(request, owner, customer);
  expect(onPhone.some((message) => JSON.stringify(message.body).includes('Pidió factura'))).toBe(false);
});

test('the message box stays on screen on a 1280x800 laptop and on a phone, whatever the header needs', async ({ page, request }) => {
  // A long name and the wider "Conectando..." state once pushed the header onto a second row and the box below the fold.
  const owner = await registerCompany(request, { userName: 'Maximiliana Fernández de la Vega' });
  const customer = { phone: '5215522220009', name: 'Cliente Pantalla' };
  await customerWrites(request, owner, customer, 'Hola');
  // Tall pictures that load after the chat first scrolled down once left the newest message below the fold.
  for (const [index, colour] of (
    [
      [0, 128, 255],
      [255, 128, 0],
      [0, 160, 80],
    ] as const
  ).entries()) {
    await customerSendsImage(request, owner, customer, solidPng(600, 900, [...colour]), `Foto ${index + 1}`);
  }
  await customerWrites(request, owner, customer, 'Lo último que escribí');
  await page.setViewportSize({ width: 1280, height: 800 });
  const { chat } = await openChatWith(page, owner, customer);
  expect((await page.locator('header').first().boundingBox())!.height).toBeLessThanOrEqual(72);
  await expect(chat.messageBox).toBeInViewport({ ratio: 1 });
  const pictures = chat.root.getByRole('img', { name: /^Foto \d$/ });
  await expect(pictures).toHaveCount(3);
  await expect
    .poll(() =>
      pictures.evaluateAll((images) => images.filter((image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalHeight > 0).length),
    )
    .toBe(3);
  await expect(chat.message('Lo último que escribí')).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(800);

  await page.setViewportSize({ width: 360, height: 760 });
  await expect(chat.messageBox).toBeInViewport({ ratio: 1 });
  await expect(chat.messageBox).toHaveAttribute('placeholder', 'Escribe un mensaje…');
  expect(await chat.placeholderFits()).toBe(true);
  await chat.messageBox.fill('Desde el teléfono');
  await chat.button('Enviar').click();
  await expect(chat.message('Desde el teléfono')).toBeInViewport();
});

test('a voice note is recorded from the microphone and reaches the customer as ogg/opus', async ({ page, request }) => {
  const owner = await registerCompany(request);
  const customer = { phone: '5215522220006', name: 'Cliente Voz' };
  await customerWrites(request, owner, customer, 'Mándame un audio');
  const { chat } = await openChatWith(page, owner, customer);

  await chat.button('Grabar nota de voz').click();
  const recording = chat.root.getByTestId('voice-recording');
  await expect(recording).toHaveAttribute('data-state', 'recording');
  await expect(recording).toHaveText(/^Grabando… [1-9]\d*s$/);
  await chat.button('Detener grabación').click();
  await expect(recording).toHaveCount(0);

  const voice = chat.root.getByTestId('chat-message').filter({ has: page.getByTestId('audio-player') });
  await expect(voice).toHaveCount(1);
  // Its length, not 0:00: the stored ogg is served in byte ranges, so Chromium reads its last page.
  const player = voice.getByTestId('audio-player');
  await expect(player).toHaveAttribute('src', /^\/media\/.+\.ogg$/);
  await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => (Number.isFinite(audio.duration) ? audio.duration : -1))).toBeGreaterThan(0.5);
  await expect(voice).toHaveAttribute('data-ack', '3', { timeout: 20_000 });
  await expect
    .poll(
      async () =>
        (await phoneConversation(request, owner, customer)).filter((message) => message.direction === 'to_customer' && message.type === 'audio').length,
    )
    .toBe(1);
  const [sent] = (await phoneConversation(request, owner, customer)).filter((message) => message.direction === 'to_customer' && message.type === 'audio');
  // The file the provider was told to fetch, read from this server whatever host name it was given.
  const audio = await request.get(new URL(String(sent!.body.url)).pathname);
  expect(audio.status()).toBe(200);
  expect((await audio.body()).subarray(0, 4).toString()).toBe('OggS');
});
