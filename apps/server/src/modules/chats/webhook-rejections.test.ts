import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { cards, contacts, messages, webhookRejections } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { TRUNCATED_NOTE } from '../../messaging-providers/gupshup/gupshup-webhook.parser.ts';
import { REJECTED_BODY_KEPT } from './webhook-activity.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
});
afterAll(async () => t.close());

type Owner = Awaited<ReturnType<typeof registerTenant>>;

async function webhookPath(owner: Owner) {
  const settings = await t.app.inject({ method: 'GET', url: '/api/gupshup/settings', headers: bearer(owner.token) });
  return new URL(settings.json().webhookUrl as string).pathname;
}

const deliver = (path: string, body: string, contentType = 'application/json') =>
  t.app.inject({ method: 'POST', url: path, headers: { 'content-type': contentType }, body });

const textMessage = (overrides: { id?: string; source?: string; text?: string; name?: string; timestamp?: unknown; type?: string; inner?: unknown } = {}) =>
  JSON.stringify({
    app: 'Demo',
    timestamp: overrides.timestamp ?? Date.now(),
    version: 2,
    type: 'message',
    payload: {
      id: overrides.id ?? `wamid.${crypto.randomUUID()}`,
      source: overrides.source ?? '5215511112222',
      type: overrides.type ?? 'text',
      payload: overrides.inner ?? { text: overrides.text ?? 'Hola' },
      sender: { phone: '5215511112222', name: overrides.name ?? 'Ana' },
    },
  });

const rejectionsOf = (tenantId: string) => t.database.db.select().from(webhookRejections).where(eq(webhookRejections.tenantId, tenantId));
const messagesOf = (tenantId: string) => t.database.db.select().from(messages).where(eq(messages.tenantId, tenantId));

describe('webhook deliveries it cannot use', () => {
  it('acknowledges each (Gupshup would retry a non-2xx forever), records it with its reason and a cut raw body, and stores nothing else', async () => {
    const owner = await registerTenant(t.app);
    const path = await webhookPath(owner);
    const deep = `{"app":"Demo","timestamp":1,"version":2,"type":"message","payload":{"id":"wamid.deep","source":"5215511112222","type":"reaction","payload":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
    const cases: Array<{ body: string; reason: string; contentType?: string }> = [
      { body: '{"broken":', reason: 'El cuerpo no es JSON válido.' },
      { body: '', reason: 'Cuerpo vacío.' },
      { body: 'hola', reason: 'El cuerpo no es JSON válido.', contentType: 'text/plain' },
      { body: '[1,2]', reason: 'El cuerpo no es un objeto JSON.' },
      { body: deep, reason: 'JSON anidado a más de 64 niveles.' },
      { body: textMessage({ id: 'w'.repeat(500_000) }), reason: 'payload.id demasiado largo (500000 caracteres, máximo 256).' },
      { body: textMessage({ source: '5'.repeat(100_000) }), reason: 'payload.source demasiado largo (100000 caracteres, máximo 64).' },
      { body: textMessage({ id: 'wamid.\u0000x' }), reason: 'payload.id con caracteres no permitidos.' },
      { body: JSON.stringify({ type: 'message', payload: { type: 'text', payload: { text: 'sin id' } } }), reason: 'Mensaje sin payload.id.' },
    ];
    for (const { body, reason, contentType } of cases) {
      const response = await deliver(path, body, contentType);
      expect(response.statusCode, reason).toBe(200);
    }
    const recorded = await rejectionsOf(owner.tenant.id);
    expect(recorded.map((row) => row.reason).sort()).toEqual(cases.map((entry) => entry.reason).sort());
    for (const row of recorded) {
      expect(row.rawBody.length).toBeLessThanOrEqual(REJECTED_BODY_KEPT);
      expect(row.rawBody).not.toContain('\u0000');
      expect(row.receivedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    }
    expect(recorded.find((row) => row.reason.startsWith('payload.id demasiado'))!.rawBody).toHaveLength(REJECTED_BODY_KEPT);
    expect(await messagesOf(owner.tenant.id)).toEqual([]);
    expect(await t.database.db.select().from(contacts).where(eq(contacts.tenantId, owner.tenant.id))).toEqual([]);
  });

  it("refuses a delivery without the tenant's secret (401), recording it for an existing company only, and records nothing for kinds it does not use", async () => {
    const owner = await registerTenant(t.app);
    const path = await webhookPath(owner);
    const forged = await deliver(path.replace(/[^/]+$/, 'secreto-falso'), '{"broken":');
    expect(forged.statusCode).toBe(401);
    const unknownTenant = await deliver(`/webhooks/gupshup/${crypto.randomUUID()}/x`, 'x'.repeat(10_000));
    expect(unknownTenant.statusCode).toBe(401);
    const userEvent = await deliver(
      path,
      JSON.stringify({ app: 'Demo', timestamp: Date.now(), version: 2, type: 'user-event', payload: { phone: '52155', type: 'opted-in' } }),
    );
    expect(userEvent.statusCode).toBe(200);
    // A webhook URL copied wrong shows on the company's activity panel (issue 17), with Gupshup's advice since the
    // delivery came through Gupshup's URL (issue 43); nothing else was stored.
    expect(await rejectionsOf(owner.tenant.id)).toMatchObject([
      {
        kind: 'wrong_secret',
        reason: 'La URL del webhook no lleva el secreto de la empresa: copia otra vez en Gupshup la URL de webhook que muestra Conexión WhatsApp.',
        rawBody: '{"broken":',
      },
    ]);
    expect(await t.database.db.select().from(webhookRejections).where(eq(webhookRejections.kind, 'wrong_secret'))).toHaveLength(1);
    expect(await messagesOf(owner.tenant.id)).toEqual([]);
  });
});

describe('webhook deliveries with hostile values it can still use', () => {
  it('stores a text and sender name without their NUL bytes and lone surrogates', async () => {
    const owner = await registerTenant(t.app);
    const response = await deliver(await webhookPath(owner), textMessage({ text: 'Ho\u0000la\uD800 😀', name: 'Lu\u0000cía\uDC00' }));
    expect(response.statusCode).toBe(200);
    const [stored] = await messagesOf(owner.tenant.id);
    expect(stored?.text).toBe('Hola 😀');
    const [contact] = await t.database.db.select().from(contacts).where(eq(contacts.tenantId, owner.tenant.id));
    expect(contact?.name).toBe('Lucía');
  });

  it('stores a text past 4,096 characters cut, with a note', async () => {
    const owner = await registerTenant(t.app);
    expect((await deliver(await webhookPath(owner), textMessage({ text: 'é'.repeat(20_000) }))).statusCode).toBe(200);
    const [stored] = await messagesOf(owner.tenant.id);
    expect(stored?.text).toBe(`${'é'.repeat(4096)}${TRUNCATED_NOTE}`);
  });

  it('stores a message whose timestamp is out of range at the time it arrived', async () => {
    const owner = await registerTenant(t.app);
    const path = await webhookPath(owner);
    const before = Date.now();
    for (const timestamp of [1e20, -1, 'NaN', 2 ** 63]) expect((await deliver(path, textMessage({ timestamp }))).statusCode).toBe(200);
    const stored = await messagesOf(owner.tenant.id);
    expect(stored).toHaveLength(4);
    for (const message of stored) expect(message.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const [card] = await t.database.db
      .select()
      .from(cards)
      .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, '5215511112222')));
    expect(card?.lastActivityAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('stores an unknown message type with odd keys and values as unsupported', async () => {
    const owner = await registerTenant(t.app);
    const response = await deliver(
      await webhookPath(owner),
      textMessage({ type: 'reaction', inner: { 'em\u0000oji': '👍\uD800', nested: [[[{ a: 'b\u0000' }]]] } }),
    );
    expect(response.statusCode).toBe(200);
    const [stored] = await messagesOf(owner.tenant.id);
    expect(stored?.text).toBe('Unsupported media');
    expect(JSON.stringify(stored?.payload)).toContain('"emoji":"👍"');
  });
});
