import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { boardColumns, cards, funnels, tenants } from '../../../db/schema/index.ts';
import { useListeningSandboxApp } from '../../../test/support/listening-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { nextEvent } from '../../../test/support/realtime-client.ts';
import { sandboxAppName } from '../tenants/index.ts';

const app = useListeningSandboxApp();

type Owner = Awaited<ReturnType<typeof registerTenant>>;
const call = (owner: Owner, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown) =>
  app.t.app.inject({ method, url: `/t/${owner.tenant.slug}/api${path}`, headers: bearer(owner.token), payload: payload as object });

async function setup() {
  const owner = await registerTenant(app.t.app);
  await app.t.app.sandboxPhone!.customerSends({ appName: sandboxAppName(owner.tenant), phone: '5215599999999', name: 'Lola', kind: 'text', text: 'hola' });
  const [funnel] = (await call(owner, 'GET', '/funnels/summary')).json();
  const board = (await call(owner, 'GET', `/funnels/${funnel.id}/board`)).json();
  return { owner, funnel, board, card: board.columns[0].cards[0], columns: board.columns };
}

async function memberWith(owner: Owner, role: 'agent' | 'viewer', funnelIds: string[]) {
  await app.t.database.db.update(tenants).set({ subscriptionPlan: 'enterprise' }).where(eq(tenants.id, owner.tenant.id));
  const email = `${role}-${Date.now()}@x.test`;
  const invited = (await call(owner, 'POST', '/users/invite', { name: role, email, role, funnelIds })).json();
  const login = await app.t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: invited.tempPassword, tenantSlug: owner.tenant.slug },
  });
  const token = (
    await app.t.app.inject({ method: 'PUT', url: '/api/auth/change-password', headers: bearer(login.json().token), payload: { newPassword: 'Miembro123' } })
  ).json().token;
  return { ...owner, token };
}

describe('funnels and columns', () => {
  it('creates and renames funnels and columns, with realtime notices', async () => {
    const { owner, funnel } = await setup();
    const socket = await app.joinedSocket(owner);

    const funnelsUpdated = nextEvent(socket, 'funnels_updated');
    const created = await call(owner, 'POST', '/funnels', { name: '  Postventa ' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Postventa' });
    await funnelsUpdated;
    expect((await call(owner, 'PUT', `/funnels/${funnel.id}`, { name: 'Ventas' })).json().name).toBe('Ventas');
    expect((await call(owner, 'PUT', `/funnels/${funnel.id}`, { name: 123 })).statusCode).toBe(400);

    const boardUpdated = nextEvent(socket, 'board_updated');
    const column = (await call(owner, 'POST', '/columns', { funnelId: funnel.id, title: 'Seguimiento' })).json();
    expect(await boardUpdated).toEqual({ funnelId: funnel.id });
    expect(column).toMatchObject({ title: 'Seguimiento', color: 'blue', funnelId: funnel.id });
    expect((await call(owner, 'PUT', `/columns/${column.id}`, { color: 'purple', title: 'Seguimiento 2' })).json()).toMatchObject({
      color: 'purple',
      title: 'Seguimiento 2',
    });
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
    expect(await app.t.database.db.select().from(boardColumns).where(eq(boardColumns.id, columns[1].id))).toHaveLength(0);
  });
});

describe('renames (spec 01 §5: kept only when the trimmed value is non-empty and changed)', () => {
  it('ignores blank or unchanged names of funnels, columns and cards: nothing written, no notice', async () => {
    const { owner, funnel, card, columns } = await setup();
    // The AI switches below need the Pro plan (a Starter company is refused with 403 and no notice).
    await app.t.database.db.update(tenants).set({ subscriptionPlan: 'professional' }).where(eq(tenants.id, owner.tenant.id));
    const socket = await app.joinedSocket(owner);
    const seen: string[] = [];
    for (const event of ['funnels_updated', 'board_updated', 'card_updated'] as const) socket.on(event, () => seen.push(event));

    for (const name of ['   ', ' Sales Funnel ']) {
      const answer = await call(owner, 'PUT', `/funnels/${funnel.id}`, { name });
      expect(answer.statusCode).toBe(200);
      expect(answer.json().name).toBe('Sales Funnel');
    }
    for (const title of ['', `  ${columns[0].title}  `]) {
      expect((await call(owner, 'PUT', `/columns/${columns[0].id}`, { title })).json().title).toBe(columns[0].title);
    }
    for (const title of [' ', 'Lola']) {
      expect((await call(owner, 'PUT', `/cards/${card.id}`, { title })).json().title).toBe('Lola');
    }

    // Events arrive in order: the first one seen is the real rename's, so the ignored ones sent none.
    const renamed = nextEvent(socket, 'funnels_updated');
    expect((await call(owner, 'PUT', `/funnels/${funnel.id}`, { name: '  Ventas  ' })).json().name).toBe('Ventas');
    await renamed;
    expect(seen).toEqual(['funnels_updated']);
    const [row] = await app.t.database.db.select().from(cards).where(eq(cards.id, card.id));
    expect(row!.title).toBe('Lola');
    const [column] = await app.t.database.db.select().from(boardColumns).where(eq(boardColumns.id, columns[0].id));
    expect(column!.title).toBe(columns[0].title);
  });
});

describe('realtime notices', () => {
  it("tells the tenant's room about every change of the board", async () => {
    const { owner, funnel, card, columns } = await setup();
    // The AI switches below need the Pro plan (a Starter company is refused with 403 and no notice).
    await app.t.database.db.update(tenants).set({ subscriptionPlan: 'professional' }).where(eq(tenants.id, owner.tenant.id));
    const socket = await app.joinedSocket(owner);
    const expectEvent = async <E extends 'funnels_updated' | 'board_updated' | 'card_updated'>(event: E, change: () => Promise<unknown>) => {
      const received = nextEvent(socket, event);
      await change();
      return received;
    };

    expect(await expectEvent('card_updated', () => call(owner, 'POST', '/card/move', { cardId: card.id, targetColumnId: columns[1].id }))).toMatchObject({
      id: card.id,
      columnId: columns[1].id,
    });
    // A move carries the card in its new place, so a board patches it instead of reading itself again.
    const moved = await expectEvent('board_updated', () => call(owner, 'POST', '/card/move', { cardId: card.id, targetColumnId: columns[2].id }));
    expect(moved).toMatchObject({ funnelId: funnel.id, card: { id: card.id, funnelId: funnel.id, columnId: columns[2].id } });
    expect(await expectEvent('card_updated', () => call(owner, 'PUT', `/cards/${card.id}`, { title: 'Lola García' }))).toMatchObject({
      id: card.id,
      title: 'Lola García',
    });
    expect(await expectEvent('card_updated', () => call(owner, 'PUT', `/cards/${card.id}/toggle-ai`, { enabled: true }))).toMatchObject({
      id: card.id,
      aiEnabled: true,
    });
    expect(await expectEvent('board_updated', () => call(owner, 'POST', `/columns/${columns[2].id}/toggle-cards-ai`, { enabled: false }))).toEqual({
      funnelId: funnel.id,
    });
    expect(await expectEvent('card_updated', () => call(owner, 'POST', `/cards/${card.id}/archive`))).toMatchObject({ id: card.id });
    const created = await expectEvent('board_updated', () => call(owner, 'POST', '/columns', { funnelId: funnel.id, title: 'Nueva' }));
    expect(created).toEqual({ funnelId: funnel.id });
    const column = (await call(owner, 'GET', `/funnels/${funnel.id}/columns`)).json().at(-1);
    expect(await expectEvent('board_updated', () => call(owner, 'PUT', `/columns/${column.id}`, { color: 'green' }))).toEqual({ funnelId: funnel.id });
    expect(
      await expectEvent('board_updated', () =>
        call(owner, 'PUT', `/columns/${column.id}`, { gemini_config: { isEnabled: true, systemPrompt: 'Hola', tools: [] } }),
      ),
    ).toEqual({ funnelId: funnel.id });
    expect(await expectEvent('board_updated', () => call(owner, 'DELETE', `/columns/${column.id}`))).toEqual({ funnelId: funnel.id });
    await expectEvent('funnels_updated', () => call(owner, 'POST', '/funnels', { name: 'Postventa' }));
    await expectEvent('funnels_updated', () => call(owner, 'PUT', `/funnels/${funnel.id}`, { name: 'Ventas 2' }));
  });

  it('tells both boards when a card moves to another funnel: the one it left and the one it entered', async () => {
    const { owner, funnel, card } = await setup();
    const other = (await call(owner, 'POST', '/funnels', { name: 'Otro' })).json();
    const otherColumn = (await call(owner, 'POST', '/columns', { funnelId: other.id, title: 'Entrada' })).json();
    const socket = await app.joinedSocket(owner);
    const boards: Array<{ funnelId: string; card?: { funnelId: string; columnId: string } }> = [];
    socket.on('board_updated', (payload) => boards.push(payload));
    const cardUpdated = nextEvent(socket, 'card_updated');
    await call(owner, 'POST', '/card/move', { cardId: card.id, targetColumnId: otherColumn.id });
    expect(await cardUpdated).toMatchObject({ id: card.id, funnelId: other.id, columnId: otherColumn.id });
    const inNewPlace = { funnelId: other.id, columnId: otherColumn.id };
    expect(boards).toEqual([
      { funnelId: funnel.id, card: expect.objectContaining(inNewPlace) },
      { funnelId: other.id, card: expect.objectContaining(inNewPlace) },
    ]);
  });
});

describe('cards', () => {
  it('moves a card between columns and to another funnel, renames it and toggles AI per card and per column', async () => {
    const { owner, card, columns } = await setup();
    const moved = await call(owner, 'POST', '/card/move', { cardId: card.id, targetColumnId: columns[2].id });
    expect(moved.json()).toMatchObject({ id: card.id, columnId: columns[2].id });

    const other = (await call(owner, 'POST', '/funnels', { name: 'Otro' })).json();
    const otherColumn = (await call(owner, 'POST', '/columns', { funnelId: other.id, title: 'Entrada' })).json();
    expect((await call(owner, 'POST', '/card/move', { cardId: card.id, targetColumnId: otherColumn.id })).json()).toMatchObject({
      funnelId: other.id,
      columnId: otherColumn.id,
    });

    expect((await call(owner, 'PUT', `/cards/${card.id}`, { title: 'Lola VIP' })).json().title).toBe('Lola VIP');
    await app.t.database.db.update(tenants).set({ subscriptionPlan: 'professional' }).where(eq(tenants.id, owner.tenant.id));
    expect((await call(owner, 'PUT', `/cards/${card.id}/toggle-ai`, { enabled: true })).json().aiEnabled).toBe(true);
    expect((await call(owner, 'POST', `/columns/${otherColumn.id}/toggle-cards-ai`, { enabled: false })).json()).toEqual({ updated: 1, enabled: false });
    const [row] = await app.t.database.db.select().from(cards).where(eq(cards.id, card.id));
    expect(row!.aiEnabled).toBe(false);

    const archived = await call(owner, 'POST', `/cards/${card.id}/archive`);
    expect(archived.statusCode).toBe(200);
    const [after] = await app.t.database.db.select().from(cards).where(eq(cards.id, card.id));
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
    const [row] = await app.t.database.db.select().from(cards).where(eq(cards.id, card.id));
    expect(row!.aiEnabled).toBe(false);
    expect((await call(owner, 'PUT', `/cards/${card.id}/toggle-ai`, { enabled: false })).statusCode).toBe(200);
    expect((await call(owner, 'POST', `/columns/${columns[0].id}/toggle-cards-ai`, { enabled: false })).statusCode).toBe(200);
  });

  it("answers 404 for another tenant's card or column, and 403 for a viewer", async () => {
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
    expect(await app.t.database.db.select().from(funnels).where(eq(funnels.tenantId, a.owner.tenant.id))).toHaveLength(1);
  });
});
