import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { tenants } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { sandboxAppName } from '../tenants/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
  await listenOnRandomPort(t.app);
});
afterAll(async () => t.close());

const get = (slug: string, token: string, path: string) => t.app.inject({ method: 'GET', url: `/t/${slug}/api${path}`, headers: bearer(token) });

describe('funnels summary and board', () => {
  it('lists the default funnel with its unread total and serves its board of card summaries', async () => {
    const owner = await registerTenant(t.app);
    const appName = sandboxAppName(owner.tenant);
    await t.app.sandboxPhone!.customerSends({ appName, phone: '5215510000001', name: 'Ana', kind: 'text', text: 'uno' });
    await t.app.sandboxPhone!.customerSends({ appName, phone: '5215510000001', name: 'Ana', kind: 'text', text: 'dos' });
    await t.app.sandboxPhone!.customerSends({ appName, phone: '5215510000002', group: { id: '120363111', name: 'Grupo' }, kind: 'text', text: 'hola' });

    const summary = (await get(owner.tenant.slug, owner.token, '/funnels/summary')).json();
    expect(summary).toEqual([{ id: expect.any(String), name: 'Sales Funnel', unreadCount: 3 }]);

    const board = (await get(owner.tenant.slug, owner.token, `/funnels/${summary[0].id}/board`)).json();
    expect(board.funnel.name).toBe('Sales Funnel');
    expect(board.columns.length).toBeGreaterThanOrEqual(3);
    const first = board.columns[0];
    expect(first.cards.map((card: { title: string }) => card.title).sort()).toEqual(['Ana', 'Grupo']);
    expect(first.cards.find((card: { title: string }) => card.title === 'Ana')).toMatchObject({
      unreadCount: 2,
      lastMessageText: 'dos',
      phone: '5215510000001',
    });
    expect(board.counters).toEqual({ unreadIndividual: 1, unreadGroup: 1, totalContacts: 2 });
    expect(JSON.stringify(board)).not.toContain('"messages"');

    const columns = (await get(owner.tenant.slug, owner.token, `/funnels/${summary[0].id}/columns`)).json();
    expect(columns.map((column: { id: string }) => column.id)).toEqual(board.columns.map((column: { id: string }) => column.id));
  });

  it('carries a two-line preview of a long last message, not the whole text', async () => {
    const owner = await registerTenant(t.app);
    const long = `Hola, ${'quisiera saber precios y disponibilidad '.repeat(20)}`;
    await t.app.sandboxPhone!.customerSends({ appName: sandboxAppName(owner.tenant), phone: '5215510000009', name: 'Larga', kind: 'text', text: long });
    const [funnel] = (await get(owner.tenant.slug, owner.token, '/funnels/summary')).json();
    const [card] = (await get(owner.tenant.slug, owner.token, `/funnels/${funnel.id}/board`)).json().columns[0].cards;
    expect(card.lastMessageText).toHaveLength(160);
    expect(card.lastMessageText).toBe(`${long.slice(0, 159)}…`);
  });

  it("answers 404 for another tenant's funnel and hides unticked funnels from an agent", async () => {
    const a = await registerTenant(t.app);
    const b = await registerTenant(t.app);
    const [funnelOfB] = (await get(b.tenant.slug, b.token, '/funnels/summary')).json();
    expect((await get(a.tenant.slug, a.token, `/funnels/${funnelOfB.id}/board`)).statusCode).toBe(404);

    await t.database.db.update(tenants).set({ subscriptionPlan: 'enterprise' }).where(eq(tenants.id, b.tenant.id));
    const invited = (
      await t.app.inject({
        method: 'POST',
        url: `/t/${b.tenant.slug}/api/users/invite`,
        headers: bearer(b.token),
        payload: { name: 'Sin acceso', email: 'sin@b.test', role: 'agent', funnelIds: [] },
      })
    ).json();
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'sin@b.test', password: invited.tempPassword, tenantSlug: b.tenant.slug },
    });
    const token = (
      await t.app.inject({ method: 'PUT', url: '/api/auth/change-password', headers: bearer(login.json().token), payload: { newPassword: 'SinAcceso1' } })
    ).json().token;
    expect((await get(b.tenant.slug, token, '/funnels/summary')).json()).toEqual([]);
    expect((await get(b.tenant.slug, token, `/funnels/${funnelOfB.id}/board`)).statusCode).toBe(404);
    expect((await get(b.tenant.slug, token, `/funnels/shown-board?selected=${funnelOfB.id}`)).json()).toEqual({ funnels: [], board: null });
  });

  it("opens the board in one read: the selector's funnels and the board of the chosen funnel while it is listed, else the first", async () => {
    const a = await registerTenant(t.app);
    const b = await registerTenant(t.app);
    await t.database.db.update(tenants).set({ subscriptionPlan: 'enterprise' }).where(eq(tenants.id, a.tenant.id));
    const second = (
      await t.app.inject({ method: 'POST', url: `/t/${a.tenant.slug}/api/funnels`, headers: bearer(a.token), payload: { name: 'Postventa' } })
    ).json();
    // Chats in both funnels and in the other company, so each count has something to get wrong.
    const send = (appName: string, phone: string, text: string) => t.app.sandboxPhone!.customerSends({ appName, phone, name: phone, kind: 'text', text });
    for (const text of ['uno', 'dos']) await send(sandboxAppName(a.tenant), '5215520000001', text);
    await send(sandboxAppName(a.tenant), '5215520000002', 'hola');
    await send(sandboxAppName(b.tenant), '5215520000003', 'hola');
    const post = (path: string, payload: object) => t.app.inject({ method: 'POST', url: `/t/${a.tenant.slug}/api${path}`, headers: bearer(a.token), payload });
    const column = (await post('/columns', { funnelId: second.id, title: 'Nuevos' })).json();
    const [firstFunnel] = (await get(a.tenant.slug, a.token, '/funnels/summary')).json();
    const moved = (await get(a.tenant.slug, a.token, `/funnels/${firstFunnel.id}/board`))
      .json()
      .columns[0].cards.find((card: { phone: string }) => card.phone === '5215520000002');
    expect((await post('/card/move', { cardId: moved.id, targetColumnId: column.id })).statusCode).toBe(200);
    const summary = (await get(a.tenant.slug, a.token, '/funnels/summary')).json();
    const [first] = summary;
    expect(summary.map((funnel: { unreadCount: number }) => funnel.unreadCount)).toEqual([2, 1]);
    const [funnelOfB] = (await get(b.tenant.slug, b.token, '/funnels/summary')).json();

    const opened = (await get(a.tenant.slug, a.token, '/funnels/shown-board')).json();
    expect(opened).toEqual({ funnels: summary, board: (await get(a.tenant.slug, a.token, `/funnels/${first.id}/board`)).json() });
    expect(opened.board.counters).toEqual({ unreadIndividual: 1, unreadGroup: 0, totalContacts: 1 });
    const chosen = (await get(a.tenant.slug, a.token, `/funnels/shown-board?selected=${second.id}`)).json();
    expect(chosen.board).toEqual((await get(a.tenant.slug, a.token, `/funnels/${second.id}/board`)).json());
    expect(chosen.board.columns[0].cardCount).toBe(1);
    // A choice the member no longer sees (another company's funnel, a deleted one) falls back to the first.
    for (const selected of [funnelOfB.id, 'borrado']) {
      expect((await get(a.tenant.slug, a.token, `/funnels/shown-board?selected=${selected}`)).json().board.funnel).toEqual({ id: first.id, name: first.name });
    }
    const tooLong = await get(a.tenant.slug, a.token, `/funnels/shown-board?selected=${'x'.repeat(201)}`);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toContain('Máximo 200 caracteres.');
  });
});
