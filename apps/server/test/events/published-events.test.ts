import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { DomainEvent, DomainEventType } from '@embudo/contracts/events/index';
import { domainEventTypes } from '@embudo/contracts/events/index';
import { cards } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { bearer, registerTenant } from '../support/factories.ts';
import { signedInMember } from '../support/members.ts';
import { listenOnRandomPort } from '../support/realtime-client.ts';
import { sandboxAppName } from '../../src/modules/tenants/index.ts';
import { defineListener } from '../../src/platform/events/index.ts';

/** Every event the app publishes, recorded by one listener per type registered on the app's bus. */
let t: TestApp;
const heard: DomainEvent[] = [];
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
  await listenOnRandomPort(t.app);
  for (const type of domainEventTypes) {
    t.app.domainEvents.register(defineListener({ name: `test.record-${type}`, event: type, handle: async (event) => void heard.push(event) }));
  }
});
afterAll(async () => t.close());

const ofType = <T extends DomainEventType>(type: T, tenantId: string) =>
  heard.filter((event): event is DomainEvent<T> => event.type === type && event.tenantId === tenantId);

describe('events published where the change happens', () => {
  it("a customer message, its card moved and archived, a reply with its statuses, a member's access and sessions", async () => {
    const owner = await registerTenant(t.app);
    const tenantId = owner.tenant.id;
    const call = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
      t.app.inject({ method, url: `/api${url}`, headers: bearer(token), payload: payload as object });
    const [funnel] = (await call(owner.token, 'GET', '/funnels/summary')).json();
    const columns = (await call(owner.token, 'GET', `/funnels/${funnel.id}/columns`)).json() as { id: string }[];

    const phone = '5215587650001';
    await t.app.sandboxPhone!.customerSends({ appName: sandboxAppName(owner.tenant), phone, name: 'Rosa', kind: 'text', text: 'Hola' });
    const [card] = await t.database.db
      .select()
      .from(cards)
      .where(and(eq(cards.tenantId, tenantId), eq(cards.phone, phone)));
    expect((await call(owner.token, 'POST', '/card/move', { cardId: card!.id, targetColumnId: columns[1]!.id })).statusCode).toBe(200);
    expect((await call(owner.token, 'POST', '/message', { cardId: card!.id, text: 'Hola Rosa' })).statusCode).toBeLessThan(300);
    expect((await call(owner.token, 'POST', `/cards/${card!.id}/archive`)).statusCode).toBe(200);
    const member = await signedInMember(t.app, t.database.db, owner.tenant, 'agent');
    expect((await call(owner.token, 'PUT', `/users/${member.user.id}`, { role: 'viewer' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(member.token) })).statusCode).toBe(204);
    // Nothing has been delivered while the requests ran: the listeners wait for the queue.
    expect(heard.filter((event) => event.tenantId === tenantId)).toEqual([]);
    await t.app.queue.drain();

    const [stored] = ofType('customer-message.stored', tenantId);
    expect(stored?.payload).toMatchObject({ cardId: card!.id, columnId: columns[0]!.id, cardCreated: true });
    expect(ofType('card.moved', tenantId).map((event) => event.payload)).toEqual([
      { cardId: card!.id, fromColumnId: columns[0]!.id, toColumnId: columns[1]!.id, fromFunnelId: funnel.id, toFunnelId: funnel.id, movedBy: 'user' },
    ]);
    expect(ofType('card.entered-column', tenantId).map((event) => event.payload)).toEqual([
      { cardId: card!.id, columnId: columns[1]!.id, funnelId: funnel.id, chainDepth: 0 },
    ]);
    expect(ofType('card.archived', tenantId).map((event) => event.payload)).toEqual([{ cardId: card!.id, columnId: columns[1]!.id, funnelId: funnel.id }]);
    // The send job's acceptance by the provider (ack 0), then the fake's sent/delivered/read callbacks.
    expect(ofType('message.status-changed', tenantId).map((event) => event.payload.ack)).toContain(0);
    expect(ofType('user.access-changed', tenantId).map((event) => event.payload)).toEqual([{ userId: member.user.id, deactivated: false }]);
    expect(ofType('session.ended', tenantId).map((event) => event.payload)).toMatchObject([{ userId: member.user.id, reason: 'logout' }]);
    for (const event of heard) expect(event).toMatchObject({ id: expect.any(String), occurredAt: expect.any(String) });
  });
});
