import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { cards, contacts, messages, usageEvents } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { registerTenant } from '../../../test/support/factories.ts';
import { RATE_LIMIT_GAVE_UP, type DeliveryStatus, type InboundStatus } from '../../messaging-providers/provider.ts';
import { changeAndRecordUsage } from '../usage/index.ts';
import { applyStatusRun, THROUGHPUT_RESENDS, type PendingStatus } from './inbound-statuses.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const db = () => t.database.db;

/** A company with one chat and these sent messages (provider ids `gs-{name}`), at the acks given. */
async function sentMessages(acks: Record<string, number>) {
  const owner = await registerTenant(t.app);
  const tenantId = owner.tenant.id;
  const [contact] = await db().insert(contacts).values({ tenantId, phone: '5215512345678' }).returning();
  const [funnel] = await t.app
    .inject({ method: 'GET', url: `/t/${owner.tenant.slug}/api/funnels/summary`, headers: { authorization: `Bearer ${owner.token}` } })
    .then((r) => r.json() as Array<{ id: string }>);
  const columns = (
    await t.app.inject({ method: 'GET', url: `/t/${owner.tenant.slug}/api/funnels/${funnel!.id}/columns`, headers: { authorization: `Bearer ${owner.token}` } })
  ).json() as Array<{ id: string }>;
  const [card] = await db()
    .insert(cards)
    .values({ tenantId, funnelId: funnel!.id, columnId: columns[0]!.id, contactId: contact!.id, title: 'Ana', phone: contact!.phone })
    .returning();
  const rows = await db()
    .insert(messages)
    .values(
      Object.entries(acks).map(([name, ack]) => ({
        tenantId,
        cardId: card!.id,
        sender: 'user' as const,
        type: 'text',
        text: name,
        providerMessageId: `gs-${name}`,
        ack,
      })),
    )
    .returning();
  // Billed as the send path bills an accepted message.
  await changeAndRecordUsage(db(), tenantId, 'sent', sql`select id from ${messages} where id = any(${sql.param(rows.map((row) => row.id))}::uuid[])`);
  const byName = new Map(rows.map((row) => [row.text!, row]));
  const read = async () =>
    new Map(
      (
        await db()
          .select()
          .from(messages)
          .where(
            inArray(
              messages.id,
              rows.map((row) => row.id),
            ),
          )
      ).map((row) => [row.text!, row]),
    );
  return { tenantId, funnelId: funnel!.id, byName, read };
}

const status = (name: string, kind: DeliveryStatus, extra: Partial<InboundStatus> = {}): InboundStatus => ({
  kind: 'status',
  providerMessageId: `gs-${name}`,
  status: kind,
  timestamp: new Date(),
  ...extra,
});

const run = (tenantId: string, statuses: InboundStatus[]) =>
  db().transaction((tx) =>
    applyStatusRun(
      tx,
      tenantId,
      statuses.map((event, index): PendingStatus => ({ index, event })),
    ),
  );

describe('a run of statuses', () => {
  it('applies each status in arrival order to what the run made of its message, and tells each moved message once, as it ends', async () => {
    const { tenantId, funnelId, read } = await sentMessages({ a: 0, b: 1, c: 2 });
    const outcome = await run(tenantId, [
      status('a', 'sent', { whatsappMessageId: 'wamid.a' }),
      status('b', 'delivered'),
      status('a', 'read'),
      // Older than what is known: c stays delivered.
      status('c', 'sent'),
      status('a', 'delivered'),
    ]);
    const after = await read();
    expect(after.get('a')).toMatchObject({ ack: 3, whatsappMessageId: 'wamid.a' });
    expect(after.get('b')!.ack).toBe(2);
    expect(after.get('c')!.ack).toBe(2);
    expect(outcome.moved.map(({ message, index }) => [message.text, message.ack, index, message.funnelId])).toEqual([
      ['a', 3, 2, funnelId],
      ['b', 2, 1, funnelId],
    ]);
    expect([...outcome.moving].sort()).toEqual([0, 1, 2]);
    expect(outcome.waitingForMessage.size).toBe(0);
  });

  it('fails a message only while nothing better is known, un-billing its send; a later better status still moves it', async () => {
    const { tenantId, byName, read } = await sentMessages({ lost: 0, late: 2, recovered: 0 });
    const failure = { kind: 'not_on_whatsapp', reason: 'Número no válido', code: '1002' } as const;
    await run(tenantId, [
      status('lost', 'failed', { failure }),
      status('late', 'failed', { failure }),
      status('recovered', 'failed', { failure }),
      status('recovered', 'delivered'),
    ]);
    const after = await read();
    expect(after.get('lost')).toMatchObject({ ack: -1, errorReason: 'Número no válido', errorCode: '1002' });
    expect(after.get('late')).toMatchObject({ ack: 2, errorReason: null });
    expect(after.get('recovered')!.ack).toBe(2);
    const unbilled = async (name: string) =>
      (
        await db()
          .select()
          .from(usageEvents)
          .where(eq(usageEvents.messageId, byName.get(name)!.id))
      )[0]!.unbilledAt !== null;
    expect([await unbilled('lost'), await unbilled('late'), await unbilled('recovered')]).toEqual([true, false, false]);
  });

  it("puts back a send refused afterwards for the number's throughput (130429): unsent, its charge dropped, to be sent again; a pair limit fails", async () => {
    const { tenantId, byName, read } = await sentMessages({ throttled: 0, pair: 0, exhausted: 0 });
    await db()
      .update(messages)
      .set({ throughputResends: THROUGHPUT_RESENDS, dispatchStartedAt: new Date() })
      .where(eq(messages.id, byName.get('exhausted')!.id));
    const throughput = { kind: 'rate_limited', reason: 'Demasiados envíos seguidos', code: '130429' } as const;
    const outcome = await run(tenantId, [
      status('throttled', 'failed', { failure: throughput, whatsappMessageId: 'wamid.throttled' }),
      status('pair', 'failed', { failure: { ...throughput, code: '131056' } }),
      status('exhausted', 'failed', { failure: throughput }),
    ]);
    const after = await read();
    expect(after.get('throttled')).toMatchObject({
      ack: 0,
      providerMessageId: null,
      whatsappMessageId: null,
      dispatchStartedAt: null,
      errorReason: 'Demasiados envíos seguidos',
      errorCode: '130429',
      throughputResends: 1,
    });
    expect(outcome.throttled.map(({ message, index, failure }) => [message.text, message.throughputResends, index, failure.code])).toEqual([
      ['throttled', 1, 0, '130429'],
    ]);
    expect(after.get('pair')).toMatchObject({ ack: -1, errorCode: '131056' });
    expect(after.get('exhausted')).toMatchObject({ ack: -1, errorReason: RATE_LIMIT_GAVE_UP, errorCode: '130429', throughputResends: THROUGHPUT_RESENDS });
    expect(outcome.moved.map(({ message }) => message.text).sort()).toEqual(['exhausted', 'pair']);
    const charges = async (name: string) =>
      (
        await db()
          .select()
          .from(usageEvents)
          .where(eq(usageEvents.messageId, byName.get(name)!.id))
      ).map((row) => row.unbilledAt !== null);
    // Dropped for the one sent again (its resend is billed when accepted); un-billed for the ones that failed.
    expect([await charges('throttled'), await charges('pair'), await charges('exhausted')]).toEqual([[], [true], [true]]);
  });

  it('teaches a message its WhatsApp id from a status that does not move it, and says which deliveries name a message not stored yet', async () => {
    const { tenantId, read } = await sentMessages({ known: 2 });
    const outcome = await run(tenantId, [status('known', 'sent', { whatsappMessageId: 'wamid.known' }), status('not-yet', 'delivered')]);
    expect((await read()).get('known')).toMatchObject({ ack: 2, whatsappMessageId: 'wamid.known' });
    expect(outcome.moved).toEqual([]);
    expect(outcome.moving.size).toBe(0);
    expect([...outcome.waitingForMessage]).toEqual([1]);
  });

  it('finds a message by its WhatsApp id as well as by its provider id', async () => {
    const { tenantId, read } = await sentMessages({ quoted: 1 });
    await run(tenantId, [status('quoted', 'delivered', { whatsappMessageId: 'wamid.quoted' })]);
    await run(tenantId, [{ kind: 'status', whatsappMessageId: 'wamid.quoted', status: 'read', timestamp: new Date() }]);
    expect((await read()).get('quoted')!.ack).toBe(3);
  });
});
