import { expect, test } from '@playwright/test';
import { activateMember, registerCompany, tenantCalls } from '../fixtures/api.ts';
import { cardIdOnceApplied, customerWrites, type BoardAnswer } from '../fixtures/tenant-api.ts';
import { BoardPage } from '../pages/board-page.ts';
import { LoginPage } from '../pages/login-page.ts';
import { Shell } from '../pages/shell.ts';
import { TeamDialog } from '../pages/team-dialog.ts';

interface Funnel {
  id: string;
  name: string;
}
interface Board {
  columns: Array<{ id: string; cards: Array<{ id: string; phone: string | null }> }>;
}

test('the owner invites an agent with one funnel; the agent replaces the temporary password, sees only that funnel and only its live events', async ({
  page,
  request,
}) => {
  const owner = await registerCompany(request);
  const ownerApi = tenantCalls(request, owner);
  const [sales] = await ownerApi.get<Funnel[]>('/funnels/summary');
  const afterSales = await ownerApi.post<Funnel>('/funnels', { name: 'Postventa' });
  const afterSalesInbox = await ownerApi.post<{ id: string }>('/columns', { funnelId: afterSales.id, title: 'Entrada' });
  const salesCustomer = { phone: '5215511110001', name: 'Cliente Ventas' };
  const afterSalesCustomer = { phone: '5215511110002', name: 'Cliente Postventa' };
  await customerWrites(request, owner, salesCustomer, 'Hola, quiero comprar');
  await customerWrites(request, owner, afterSalesCustomer, 'Hola, tengo una garantía');
  const afterSalesCardId = await cardIdOnceApplied(async () => [await ownerApi.get<BoardAnswer>(`/funnels/${sales!.id}/board`)], afterSalesCustomer);
  await ownerApi.post('/card/move', { cardId: afterSalesCardId, targetColumnId: afterSalesInbox.id });

  // Every frame the browser's socket receives, to prove what never reaches the agent.
  const frames: string[] = [];
  page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => frames.push(String(payload))));

  const login = new LoginPage(page);
  await login.goto();
  await login.signIn({ email: owner.user.email, password: owner.password, tenantSlug: owner.tenant.slug });
  await login.expectOnBoard(owner.tenant.slug);
  const team = new TeamDialog(page);
  await team.open();
  await expect(team.row(owner.user.email).getByRole('switch')).toBeDisabled();
  const agentEmail = `agente@${owner.tenant.slug}.test`;
  const tempPassword = await team.invite({ name: 'Laura Agente', email: agentEmail, funnels: ['Sales Funnel'] });
  await expect(team.row(agentEmail)).toContainText('Agente');
  await expect(team.row(agentEmail)).toContainText('Nunca');
  await team.dialog().getByRole('button', { name: 'Cerrar', exact: true }).click();
  await new Shell(page).logout();

  // The agent signs in with the temporary password and is made to replace it.
  await login.signIn({ email: agentEmail, password: tempPassword, tenantSlug: owner.tenant.slug });
  await expect(page).toHaveURL(new RegExp(`/t/${owner.tenant.slug}/force-password-change$`));
  await page.getByLabel('Nueva contraseña').fill('AgenteNueva1');
  await page.getByLabel('Confirmar contraseña').fill('AgenteNueva1');
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await login.expectOnBoard(owner.tenant.slug);
  await new Shell(page).expectConnected();

  // Only the ticked funnel, and no owner tools.
  const board = new BoardPage(page);
  await board.expectFunnels(['Sales Funnel']);
  await expect(board.card('Cliente Ventas')).toBeVisible();
  await expect(page.getByRole('button', { name: '+ Nuevo Funnel' })).toHaveCount(0);
  await new Shell(page).openUserMenu();
  await expect(page.getByRole('menuitem', { name: 'Administrar Equipo' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  const agentToken = await page.evaluate(() => localStorage.getItem('auth_token'));
  const hidden = await request.get(`/t/${owner.tenant.slug}/api/funnels/${afterSales.id}/board`, { headers: { authorization: `Bearer ${agentToken}` } });
  expect(hidden.status()).toBe(404);

  // Live events: the other funnel's message is sent first, yet only the agent's funnel arrives.
  frames.length = 0;
  await customerWrites(request, owner, afterSalesCustomer, 'Mensaje secreto de postventa');
  await customerWrites(request, owner, salesCustomer, 'Segundo mensaje de ventas');
  await expect(board.card('Cliente Ventas').getByTestId('card-preview')).toHaveText('Segundo mensaje de ventas');
  expect(frames.some((frame) => frame.includes('Segundo mensaje de ventas'))).toBe(true);
  expect(frames.filter((frame) => frame.includes('Mensaje secreto de postventa') || frame.includes(afterSalesCardId))).toEqual([]);
});

test('a viewer sees the board but cannot move a card', async ({ page, request }) => {
  const owner = await registerCompany(request);
  const ownerApi = tenantCalls(request, owner);
  const [sales] = await ownerApi.get<Funnel[]>('/funnels/summary');
  const customer = { phone: '5215522220001', name: 'Cliente Mirado' };
  await customerWrites(request, owner, customer, 'Hola');
  const viewerEmail = `visor@${owner.tenant.slug}.test`;
  const invited = await ownerApi.post<{ tempPassword: string }>('/users/invite', {
    name: 'Vera Visor',
    email: viewerEmail,
    role: 'viewer',
    funnelIds: [sales!.id],
  });
  const viewerToken = await activateMember(request, owner.tenant.slug, viewerEmail, invited.tempPassword, 'VisorClave1');

  const login = new LoginPage(page);
  await login.goto();
  await login.signIn({ email: viewerEmail, password: 'VisorClave1', tenantSlug: owner.tenant.slug });
  await login.expectOnBoard(owner.tenant.slug);
  const board = new BoardPage(page);
  const card = board.card('Cliente Mirado');
  await expect(board.column('Nuevos').getByTestId('board-card')).toHaveCount(1);
  await expect(card).toHaveAttribute('draggable', 'false');
  await expect(page.getByRole('button', { name: '+ Nueva Columna' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Opciones del chat' })).toHaveCount(0);

  const moveCalls: string[] = [];
  page.on('request', (sent) => {
    if (sent.url().includes('/card/move')) moveCalls.push(sent.url());
  });
  await card.dragTo(board.column('Ganados'));
  // A refresh round-trip after the drop: any move the drop had started would have been sent before it.
  const refreshed = page.waitForResponse((response) => response.url().includes(`/funnels/${sales!.id}/board`));
  await page.getByRole('button', { name: 'Actualizar' }).click();
  await refreshed;
  expect(moveCalls).toEqual([]);
  await expect(board.column('Nuevos').getByTestId('board-card')).toHaveCount(1);
  await expect(board.column('Ganados').getByTestId('board-card')).toHaveCount(0);

  // The chat is read-only too, and the server refuses the move whatever the client does.
  await card.click();
  await expect(page.getByTestId('read-only-note')).toHaveText('Tu rol de Visualizador solo permite consultar este chat.');
  const boardNow = await ownerApi.get<Board>(`/funnels/${sales!.id}/board`);
  const cardId = boardNow.columns.flatMap((column) => column.cards)[0]!.id;
  const refused = await request.post(`/t/${owner.tenant.slug}/api/card/move`, {
    headers: { authorization: `Bearer ${viewerToken}` },
    data: { cardId, targetColumnId: boardNow.columns[3]!.id },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { message: string }).message).toBe('Tu rol de Visualizador solo permite consultar, no hacer cambios.');
});
