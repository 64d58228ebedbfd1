import { expect, test } from '@playwright/test';
import { registerCompany } from '../fixtures/api.ts';
import { BoardPage } from '../pages/board-page.ts';
import { BotEditorPage } from '../pages/bot-editor-page.ts';
import { SandboxPhonePage } from '../pages/sandbox-phone-page.ts';
import { Shell } from '../pages/shell.ts';

test.use({ viewport: { width: 1600, height: 1100 } });

test('the owner builds a bot with options in the editor, tries it in the Playground and a customer on the sandbox phone gets its answers', async ({
  page,
  context,
  request,
}) => {
  const owner = await registerCompany(request);
  const board = new BoardPage(page);
  await board.signIn({ email: owner.user.email, password: owner.password, tenantSlug: owner.tenant.slug });

  // Bots Studio from the user menu; a new bot asks for a name and a type.
  await new Shell(page).openUserMenu();
  await page.getByRole('menuitem', { name: 'Bots Studio' }).click();
  await expect(page).toHaveURL(new RegExp(`/t/${owner.tenant.slug}/bots$`));
  await page.getByRole('button', { name: 'Crear Nuevo Bot' }).click();
  const create = page.getByRole('dialog', { name: 'Crear nuevo bot' });
  await create.getByRole('button', { name: 'Crear Bot' }).click();
  await expect(create.getByText('El nombre del bot es requerido.')).toBeVisible();
  await create.getByLabel('Nombre del bot').fill('Recepción');
  await create.getByLabel('Tipo de bot').selectOption('scheduling');
  await create.getByRole('button', { name: 'Crear Bot' }).click();
  await expect(page.getByText('¡Bot creado exitosamente!')).toBeVisible();
  await expect(page).toHaveURL(/\/bots\/[0-9a-f-]{36}$/);

  // trigger → options → one message per option, dragged from the palette and connected by their handles.
  const editor = new BotEditorPage(page);
  await expect(page.getByTestId('node-count')).toHaveText('0 nodos');
  const trigger = await editor.dropNode('trigger', { x: 30, y: 30 });
  const options = await editor.dropNode('sendMessageWithOptions', { x: 360, y: 30 });
  const citas = await editor.dropNode('sendMessage', { x: 720, y: 30 });
  const ventas = await editor.dropNode('sendMessage', { x: 1040, y: 30 });
  await expect(page.getByTestId('node-count')).toHaveText('4 nodos');
  // Only one trigger per flow.
  await page.getByTestId('palette-trigger').dragTo(editor.canvas(), { targetPosition: { x: 30, y: 500 } });
  await expect(editor.toast('Solo puede haber un nodo disparador por flujo.')).toBeVisible();
  await expect(editor.nodes('trigger')).toHaveCount(1);

  await options.getByRole('textbox', { name: 'Mensaje', exact: true }).fill('¿Qué necesitas?');
  await options.getByRole('textbox', { name: 'Opción 1', exact: true }).fill('Agendar cita');
  await options.getByRole('textbox', { name: 'Opción 2', exact: true }).fill('Hablar con ventas');
  await citas.getByRole('textbox', { name: 'Mensaje', exact: true }).fill('Perfecto, agendemos tu cita.');
  await ventas.getByRole('textbox', { name: 'Mensaje', exact: true }).fill('Te paso con ventas.');

  await editor.connect(editor.output(trigger), options);
  await editor.connect(editor.optionOutput(options, 0), citas);
  await editor.connect(editor.optionOutput(options, 1), ventas);
  await expect(editor.edges()).toHaveCount(3);
  // Dropping a connection on the node it starts from cancels it.
  await editor.connect(editor.output(citas), citas);
  await expect(editor.edges()).toHaveCount(3);

  await page.getByRole('button', { name: 'Ver JSON' }).click();
  const json = page.getByRole('dialog', { name: 'JSON del flujo' });
  await expect(json.getByTestId('flow-json')).toContainText('"sendMessageWithOptions"');
  await json.getByRole('button', { name: 'Cerrar', exact: true }).click();

  // Unsaved work is marked beside Guardar Flujo, and reloading the tab would ask the browser's leave-page question.
  await expect(page.getByTestId('unsaved-mark')).toHaveText('Cambios sin guardar');
  await page.getByRole('button', { name: 'Guardar Flujo' }).click();
  await expect(editor.toast('Bot guardado exitosamente!')).toBeVisible();
  await expect(page.getByTestId('unsaved-mark')).toHaveCount(0);

  // The Playground runs the flow: the menu, the chosen branch's reply, then a reset.
  await page.getByRole('button', { name: 'Playground' }).click();
  const playground = page.getByRole('dialog', { name: 'Playground' });
  const input = playground.getByPlaceholder('Escribe un mensaje...');
  await input.fill('   ');
  await expect(playground.getByRole('button', { name: 'Enviar' })).toBeDisabled();
  await input.fill('Hola');
  await input.press('Enter');
  await expect(playground.getByTestId('playground-user-message')).toHaveText(['Hola']);
  await expect(playground.getByTestId('playground-bot-message').last()).toContainText('¿Qué necesitas?');
  await playground.getByRole('button', { name: 'Hablar con ventas' }).click();
  await expect(playground.getByTestId('playground-bot-message').last()).toHaveText('Te paso con ventas.');
  await playground.getByRole('button', { name: 'Reiniciar Conversación' }).click();
  await expect(playground.getByTestId('playground-bot-message')).toHaveCount(0);
  await expect(playground.getByTestId('playground-user-message')).toHaveCount(0);
  await playground.getByRole('button', { name: 'Cerrar', exact: true }).click();

  // The column Nuevos runs the bot ('Configurar Bot Gemini').
  await page.getByRole('link', { name: 'Volver a Bots Studio' }).click();
  await expect(page.getByRole('article', { name: 'Recepción' })).toBeVisible();
  await page.goto(`/t/${owner.tenant.slug}`);
  await board.columnMenu('Nuevos', 'Configurar Bot Gemini');
  const columnBot = page.getByRole('dialog', { name: 'Configurar Bot Gemini' });
  const botSelect = columnBot.getByLabel('Bot de la columna');
  await expect(botSelect.locator('option', { hasText: 'Recepción' })).toHaveCount(1);
  const saved = page.waitForResponse((response) => response.request().method() === 'PUT' && /\/api\/columns\//.test(response.url()));
  await botSelect.selectOption({ label: 'Recepción' });
  expect((await saved).status()).toBe(200);
  await columnBot.getByRole('button', { name: 'Cerrar', exact: true }).click();

  // A customer writes from the sandbox phone: the bot asks, the customer presses a button, the bot answers.
  const phonePage = await context.newPage();
  const phone = new SandboxPhonePage(phonePage);
  await phone.goto();
  await phone.playCustomer({ phone: '5215544440001', name: 'Lucía Cliente' });
  await phone.sendText('Hola, buenas');
  const menu = phone.businessMessage('¿Qué necesitas?');
  await expect(menu).toHaveCount(1, { timeout: 15_000 });
  await expect(menu.getByRole('button', { name: 'Agendar cita', exact: true })).toBeVisible();
  await phone.pressReply('Agendar cita');
  await expect(phone.businessMessage('Perfecto, agendemos tu cita.')).toHaveCount(1, { timeout: 15_000 });
});
