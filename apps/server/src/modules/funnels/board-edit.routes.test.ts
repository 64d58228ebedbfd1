import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { boardColumns, cards, funnels, tenants } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { connectClient, joinTenant, listenOnRandomPort, nextEvent, type TestSocket } from '../../../test/support/realtime-client.ts';
import { sandboxAppName } from '../chats/provider-settings.service.ts';

let t: TestApp;
let baseUrl: string;
const sockets: TestSocket[] = [];
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
  baseUrl = await listenOnRandomPort(t.app);
});
afterAll(async () => {
  sockets.forEach((socket) => socket.disconnect());
  await t.close();
});

type Owner = Awaited<ReturnType<typeof registerTenant>>;
const call = (owner: Owner, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown) =>
  t.app.inject({ method, url: `/t/${owner.tenant.slug}/api${path}`, headers: bearer(owner.token), payload: payload as object });

async function setup() {
  const owner = await registerTenant(t.app);
  await t.app.sandboxPhone!.customerSends({ appName: sandboxAppName(owner.tenant.slug), phone: '5215599999999', name: 'Lola', kind: 'text', text: 'hola' });
  const [funnel] = (await call(owner, 'GET', '/funnels/summary')).json();
  const board = (await call(owner, 'GET', `/funnels/${funnel.id}/board`)).json();
  return { owner, funnel, board, card: board.columns[0].cards[0], columns: board.columns };
}

async function memberWith(owner: Owner, role: 'agent' | 'viewer', funnelIds: string[]) {
  await t.database.db.update(tenants).set({ subscriptionPlan: 'enterprise' }).where(eq(tenants.id, owner.tenant.id));
  const email = `${role}-${Date.now()}@x.test`;
  const invited = (await call(owner, 'POST', '/users/invite', { name: role, email, role, funnelIds })).json();
  const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: invited.tempPassword, tenantSlug: owner.tenant.slug } });
  const token = (await t.app.inject({ method: 'PUT', url: '/api/auth/change-password', headers: bearer(login.json().token), payload: { newPassword: 'Miembro123' } })).json().token;
  return { ...owner, token };
}

describe('funnels and columns', () => {
  it('creates and renames funnels and columns, with realtime notices', async () => {
    const { owner, funnel } = await setup();
    const socket = connectClient(baseUrl, owner.token, owner.tenant.slug);
    sockets.push(socket);
    await joinTenant(socket, owner.tenant.slug, owner.token);

    const funnelsUpdated = nextEvent(socket, 'funnels_updated');
    const created = await call(owner, 'POST', '/funnels', { name: '  Postventa ' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Postventa' });
    await funnelsUpdated;
    expect((await call(owner, 'PUT', `/funnels/${funnel.id}`, { name: 'Ventas' })).json().name).toBe('Ventas');
    expect((await call(owner, 'PUT', `/funnels/${funnel.id}`, { name: '  ' })).statusCode).toBe(400);

    const boardUpdated = nextEvent(socket, 'board_updated');
    const column = (await call(owner, 'POST', '/columns', { funnelId: funnel.id, title: 'Seguimiento' })).json();
    expect(await boardUpdated).toEqual({ funnelId: funnel.id });
    expect(column).toMatchObject({ title: 'Seguimiento', color: 'blue', funnelId: funnel.id });
    expect((await call(owner, 'PUT', `/columns/${column.id}`, { color: 'purple', title: 'Seguimiento 2' })).json()).toMatchObject({ color: 'purple', title: 'Seguimiento 2' });
    expect((await call(owner, 'PUT', `/columns/${column.id}`, { color: 'red' })).json().message).toBe('Color inválido: usa blue, orange, purple o green.');

    const all = (await call(owner, 'GET', '/columns/all')).json();
    expect(all.find((entry: { id: string }) => entry.id === column.id)).toMatchObject({ funnelName: 'Ventas', title: 'Seguimiento 2' });
  });

  it('refuses to delete a column with chats and deletes an empty one', async () => {
    const { owner, columns } = await setup();
    const refused = await call(owner, 'DELETE', `/columns/${columns[0].id}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('No se puede eliminar una columna con chats. Mueve los chats primero.');
    expect((await call(owner, 'DELETE', `/columns/${columns[1].id}`)).statusCode).toBe(204);
    expect(await t.database.db.select().from(boardColumns).where(eq(boardColumns.id, columns[1].id))).toHaveLength(0);
  });
});

describe('cards', () => {
  it('moves a card between columns and to another funnel, renames it and toggles AI per card and per column', async () => {
    const { owner, card, columns } = await setup();
    const moved = await call(owner, 'POST', '/card/move', { cardId: card.id, targetColumnId: columns[2].id });
    expect(moved.json()).toMatchObject({ id: card.id, columnId: columns[2].id });

    const other = (await call(owner, 'POST', '/funnels', { name: 'Otro' })).json();
    const otherColumn = (await call(owner, 'POST', '/columns', { funnelId: other.id, title: 'Entrada' })).json();
    expect((await call(owner, 'POST', '/card/move', { cardId: card.id, targetColumnId: otherColumn.id })).json()).toMatchObject({ funnelId: other.id, columnId: otherColumn.id });

    expect((await call(owner, 'PUT', `/cards/${card.id}`, { title: 'Lola VIP' })).json().title).toBe('Lola VIP');
    await t.database.db.update(tenants).set({ subscriptionPlan: 'professional' }).where(eq(tenants.id, owner.tenant.id));
    expect((await call(owner, 'PUT', `/cards/${card.id}/toggle-ai`, { enabled: true })).json().aiEnabled).toBe(true);
    expect((await call(owner, 'POST', `/columns/${otherColumn.id}/toggle-cards-ai`, { enabled: false })).json()).toEqual({ updated: 1, enabled: false });
    const [row] = await t.database.db.select().from(cards).where(eq(cards.id, card.id));
    expect(row!.aiEnabled).toBe(false);

    const archived = await call(owner, 'POST', `/cards/${card.id}/archive`);
    expect(archived.statusCode).toBe(200);
    const [after] = await t.database.db.select().from(cards).where(eq(cards.id, card.id));
    expect(after).toMatchObject({ archived: true, unreadCount: 0 });
  });

  it('refuses switching the AI assistant on under the Starter plan, per card and per column; switching off still works', async () => {
    const { owner, card, columns } = await setup();
    const message = 'El asistente de IA es una función del plan Pro. Tu plan Básico (Starter) no lo incluye.';
    const perCard = await call(owner, 'PUT', `/cards/${card.id}/toggle-ai`, { enabled: true });
    expect(perCard.statusCode).toBe(403);
    expect(perCard.json().message).toBe(message);
    const perColumn = await call(owner, 'POST', `/columns/${columns[0].id}/toggle-cards-ai`, { enabled: true });
    expect(perColumn.statusCode).toBe(403);
    expect(perColumn.json().message).toBe(message);
    const [row] = await t.database.db.select().from(cards).where(eq(cards.id, card.id));
    expect(row!.aiEnabled).toBe(false);
    expect((await call(owner, 'PUT', `/cards/${card.id}/toggle-ai`, { enabled: false })).statusCode).toBe(200);
    expect((await call(owner, 'POST', `/columns/${columns[0].id}/toggle-cards-ai`, { enabled: false })).statusCode).toBe(200);
  });

  it('answers 404 for another tenant\'s card or column, and 403 for a viewer', async () => {
    const a = await setup();
    const b = await setup();
    expect((await call(a.owner, 'POST', '/card/move', { cardId: b.card.id, targetColumnId: a.columns[1].id })).statusCode).toBe(404);
    expect((await call(a.owner, 'POST', '/card/move', { cardId: a.card.id, targetColumnId: b.columns[1].id })).statusCode).toBe(404);
    expect((await call(a.owner, 'PUT', `/cards/${b.card.id}`, { title: 'x' })).statusCode).toBe(404);
    const viewer = await memberWith(a.owner, 'viewer', [a.funnel.id]);
    const refused = await call(viewer, 'PUT', `/cards/${a.card.id}`, { title: 'x' });
    expect(refused.statusCode).toBe(403);
    expect((await call(viewer, 'POST', '/funnels', { name: 'x' })).statusCode).toBe(403);
    const agentWithout = await memberWith(a.owner, 'agent', []);
    expect((await call(agentWithout, 'POST', '/card/move', { cardId: a.card.id, targetColumnId: a.columns[1].id })).statusCode).toBe(404);
    expect(await t.database.db.select().from(funnels).where(eq(funnels.tenantId, a.owner.tenant.id))).toHaveLength(1);
  });
});
