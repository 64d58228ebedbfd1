import { expect, test } from '@playwright/test';
import { DEMO, registerCompany, setPlan, tenantCalls } from '../fixtures/api.ts';
import { BoardPage } from '../pages/board-page.ts';
import { LoginPage } from '../pages/login-page.ts';
import { SandboxPhonePage } from '../pages/sandbox-phone-page.ts';
import { Shell } from '../pages/shell.ts';

interface Funnel {
  id: string;
}
interface Board {
  columns: Array<{ title: string; cards: Array<{ phone: string | null }> }>;
}

const WELCOME = '¡Hola! Soy el asistente de la ferretería. ¿Con quién quieres hablar?';

test('the owner sets up the auto-bot; a new contact on the sandbox phone gets the menu and their choice moves the card', async ({ page, context, request }) => {
  const owner = await registerCompany(request);
  await setPlan(request, owner.tenant.id, 'professional');
  const ownerApi = tenantCalls(request, owner);
  const [funnel] = await ownerApi.get<Funnel[]>('/funnels/summary');
  for (const title of ['Ventas', 'Soporte']) await ownerApi.post('/columns', { funnelId: funnel!.id, title });

  const login = new LoginPage(page);
  await login.goto();
  await login.signIn({ email: owner.user.email, password: owner.password, tenantSlug: owner.tenant.slug });
  await login.expectOnBoard(owner.tenant.slug);
  await new Shell(page).expectConnected();

  await new Shell(page).openUserMenu();
  await page.getByRole('menuitem', { name: 'Configurar Bot Auto' }).click();
  const dialog = page.getByRole('dialog', { name: 'Configurar Bot Auto' });
  const save = dialog.getByRole('button', { name: 'Guardar' });
  await dialog.getByRole('switch', { name: 'Activar bot automático' }).click();
  await expect(save).toBeDisabled();
  await dialog.getByLabel('Mensaje de bienvenida').fill(WELCOME);
  await dialog.getByRole('checkbox', { name: 'Ventas' }).check();
  await dialog.getByRole('checkbox', { name: 'Soporte' }).check();
  await expect(save).toBeDisabled();
  await dialog.getByRole('radiogroup', { name: 'Columna de espera' }).getByRole('radio', { name: 'Nuevos' }).check();
  await save.click();
  await expect(page.getByText('Configuración del bot guardada.')).toBeVisible();

  // A new contact writes from the sandbox phone.
  const phonePage = await context.newPage();
  const phone = new SandboxPhonePage(phonePage);
  await phone.goto();
  await phone.playCustomer({ phone: '5215533330001', name: 'Cliente Nuevo' });
  await phone.sendText('Hola, buenas tardes');
  const welcome = phone.businessMessage(WELCOME);
  await expect(welcome).toHaveCount(1, { timeout: 15_000 });
  await expect(welcome.getByRole('button', { name: 'Ventas', exact: true })).toBeVisible();
  await expect(welcome.getByRole('button', { name: 'Soporte', exact: true })).toBeVisible();

  // The card waits in Nuevos on the owner's board, live.
  const board = new BoardPage(page);
  await expect(board.column('Nuevos').getByTestId('board-card').filter({ hasText: 'Cliente Nuevo' })).toBeVisible();

  await phone.pressReply('Soporte');
  await expect(phone.businessMessage('Listo, te comunicamos con Soporte. En breve te atenderemos.')).toHaveCount(1, { timeout: 15_000 });
  await expect(board.column('Soporte').getByTestId('board-card').filter({ hasText: 'Cliente Nuevo' })).toBeVisible();
  await expect(board.column('Nuevos').getByTestId('board-card').filter({ hasText: 'Cliente Nuevo' })).toHaveCount(0);
});

test('in the embedded demo the auto-bot answers a new contact with nothing configured', async ({ page, request }) => {
  const phone = new SandboxPhonePage(page);
  await phone.signInAndGoto(DEMO);
  await expect(phone.company()).toContainText('+15550001000');
  await phone.playCustomer({ phone: '5215544440001', name: 'Visitante Demo' });
  await phone.sendText('Hola');
  const menu = phone.messages('to_customer').filter({ has: page.getByRole('button', { name: 'Ventas', exact: true }) });
  await expect(menu).toHaveCount(1, { timeout: 15_000 });
  await phone.sendText('no sé');
  await expect(phone.businessMessage('No reconocí tu respuesta. Elige una de estas opciones:')).toHaveCount(1, { timeout: 15_000 });
  await phone.pressReply('Ventas');
  await expect(phone.businessMessage('Listo, te comunicamos con Ventas. En breve te atenderemos.')).toHaveCount(1, { timeout: 15_000 });

  const login = await request.post('/api/auth/login', { data: DEMO });
  const demo = tenantCalls(request, (await login.json()) as { token: string; tenant: { id: string; slug: string } });
  const [funnel] = await demo.get<Funnel[]>('/funnels/summary');
  const board = await demo.get<Board>(`/funnels/${funnel!.id}/board`);
  const ventas = board.columns.find((column) => column.title === 'Ventas')!;
  expect(ventas.cards.map((card) => card.phone)).toContain('5215544440001');
});
