import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { cards, messages, usageEvents, webhookIntake, webhookRejections } from '../../../db/schema/index.ts';
import { queryRows } from '../../platform/db/database.ts';
import { defineListener } from '../../platform/events/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import type { WebhookReceiver } from '../../messaging-providers/provider.ts';
import { createLogger } from '../../platform/logger/logger.ts';
import type { AppliedDelivery } from './webhook-intake.ts';
import {
  gatherArrivals,
  INTAKE_GATHER_MAX_MS,
  INTAKE_GATHER_MS,
  INTAKE_MAX_ATTEMPTS,
  INTAKE_WAITS_FOR_MESSAGE,
  waitPauseAfter,
  WebhookIntake,
  type IntakeRow,
} from './webhook-intake.ts';

type Owner = Awaited<ReturnType<typeof registerTenant>>;

const textMessage = (id: string, text = 'Hola', phone = '5215511112222') =>
  JSON.stringify({
    app: 'Demo',
    timestamp: Date.now(),
    version: 2,
    type: 'message',
    payload: { id, source: phone, type: 'text', payload: { text }, sender: { phone, name: 'Ana' } },
  });
const deliveredStatus = (gsId: string) =>
  JSON.stringify({
    app: 'Demo',
    timestamp: Date.now(),
    version: 2,
    type: 'message-event',
    payload: { id: gsId, gsId, type: 'delivered', destination: '5215511112222', payload: { ts: 1 } },
  });

describe('the webhook intake of a production server (the answer waits for nothing but the delivery being stored)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ providerMode: 'sandbox', webhookAnswerWaitMs: 0 });
  });
  afterAll(async () => t.close());

  async function webhookPath(owner: Owner) {
    const settings = await t.app.inject({ method: 'GET', url: '/api/gupshup/settings', headers: bearer(owner.token) });
    return new URL(settings.json().webhookUrl as string).pathname;
  }
  const deliver = (path: string, body: string) => t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json' }, body });
  const db = () => t.database.db;

  it('answers once the delivery is stored, keeps a byte-identical retry once, and applies it right after', async () => {
    const owner = await registerTenant(t.app);
    const path = await webhookPath(owner);
    const body = textMessage('wamid.intake-1', 'Quiero una cotización');
    const answers = await Promise.all([deliver(path, body), deliver(path, body)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    await t.app.webhookIntake.drain();
    const stored = await db().select().from(messages).where(eq(messages.tenantId, owner.tenant.id));
    expect(stored.map((message) => message.text)).toEqual(['Quiero una cotización']);
    expect(await db().select().from(webhookIntake).where(eq(webhookIntake.tenantId, owner.tenant.id))).toEqual([]);
  });

  it('applies, when it sweeps, a delivery a crash left stored but unapplied', async () => {
    const owner = await registerTenant(t.app);
    // Stored as the webhook stores it, with no worker run after it (the process died right after answering).
    await db()
      .insert(webhookIntake)
      .values({ tenantId: owner.tenant.id, provider: 'gupshup', body: Buffer.from(textMessage('wamid.left-behind')), bodyHash: 'h1', receivedAt: new Date() });
    await t.app.webhookIntake.drain();
    const [stored] = await db().select().from(messages).where(eq(messages.tenantId, owner.tenant.id));
    expect(stored).toMatchObject({ providerMessageId: 'wamid.left-behind', sender: 'contact' });
  });

  it("bills a batch's new customer messages as one usage row, and a message delivered again not at all", async () => {
    const owner = await registerTenant(t.app);
    const path = await webhookPath(owner);
    const bodies = [1, 2, 3].map((n) => textMessage(`wamid.billed-${n}`, `Mensaje ${n}`, `521551111000${n}`));
    // Stored before the worker looks, so one batch takes all three.
    await db()
      .insert(webhookIntake)
      .values(
        bodies.map((body, n) => ({
          tenantId: owner.tenant.id,
          provider: 'gupshup' as const,
          body: Buffer.from(body),
          bodyHash: `billed-${n}`,
          receivedAt: new Date(),
        })),
      );
    await t.app.webhookIntake.drain();
    await deliver(path, bodies[0]!);
    await t.app.webhookIntake.drain();
    const usage = await db().select().from(usageEvents).where(eq(usageEvents.tenantId, owner.tenant.id));
    expect(usage.map((row) => [row.kind, row.quantity, row.messageId])).toEqual([['received', 3, null]]);
    const month = (await t.app.inject({ method: 'GET', url: `/t/${owner.tenant.slug}/api/usage`, headers: bearer(owner.token) })).json();
    expect(month.receivedCount).toBe(3);
  });

  it('drops, when it sweeps, a delivery whose company no longer exists, and applies nothing of it', async () => {
    // The intake keeps no reference to the company (decision 0020), so nothing else removes such a delivery.
    const gone = crypto.randomUUID();
    await db()
      .insert(webhookIntake)
      .values({ tenantId: gone, provider: 'gupshup', body: Buffer.from(textMessage('wamid.orphan')), bodyHash: 'h-orphan', receivedAt: new Date() });
    await t.app.webhookIntake.drain();
    expect(await db().select().from(webhookIntake).where(eq(webhookIntake.tenantId, gone))).toEqual([]);
    expect(await db().select().from(messages).where(eq(messages.tenantId, gone))).toEqual([]);
  });

  it('applies a batch of statuses in the same statements whatever its size, their events published together', async () => {
    const owner = await registerTenant(t.app);
    const path = await webhookPath(owner);
    expect((await deliver(path, textMessage('wamid.costs'))).statusCode).toBe(200);
    await t.app.webhookIntake.drain();
    const [card] = await db().select().from(cards).where(eq(cards.tenantId, owner.tenant.id));
    const sent = await db()
      .insert(messages)
      .values(
        Array.from({ length: 8 }, (_, i) => ({
          tenantId: owner.tenant.id,
          cardId: card!.id,
          sender: 'user' as const,
          type: 'text',
          text: `Respuesta ${i}`,
          providerMessageId: `gs-cost-${i}`,
          ack: 1,
        })),
      )
      .returning({ id: messages.id });
    const statementsToApply = async (ids: number[]) => {
      await db()
        .insert(webhookIntake)
        .values(
          ids.map((i) => ({
            tenantId: owner.tenant.id,
            provider: 'gupshup' as const,
            body: Buffer.from(deliveredStatus(`gs-cost-${i}`)),
            bodyHash: `cost-${i}`,
            receivedAt: new Date(),
          })),
        );
      return (await t.database.gate.countStatements(() => t.app.webhookIntake.drain())).statements;
    };
    const two = await statementsToApply([0, 1]);
    const six = await statementsToApply([2, 3, 4, 5, 6, 7]);
    expect(six).toBe(two);
    const acks = await db()
      .select({ ack: messages.ack })
      .from(messages)
      .where(
        inArray(
          messages.id,
          sent.map((message) => message.id),
        ),
      );
    expect(acks.map((row) => row.ack)).toEqual(Array(8).fill(2));
  });

  it("holds a status that comes before its message's provider id, and applies it once the id is known", async () => {
    const owner = await registerTenant(t.app);
    const path = await webhookPath(owner);
    expect((await deliver(path, textMessage('wamid.first'))).statusCode).toBe(200);
    await t.app.webhookIntake.drain();
    const [message] = await db().select().from(messages).where(eq(messages.tenantId, owner.tenant.id));
    // The status of a send whose job has not stored the provider's id yet.
    expect((await deliver(path, deliveredStatus('gs-not-yet'))).statusCode).toBe(200);
    await t.app.webhookIntake.drain();
    const [waiting] = await db().select().from(webhookIntake).where(eq(webhookIntake.tenantId, owner.tenant.id));
    expect(waiting).toMatchObject({ attempts: 1, lastError: 'waiting for the message of a status' });

    await db().update(messages).set({ providerMessageId: 'gs-not-yet', sender: 'user', ack: 1 }).where(eq(messages.id, message!.id));
    await db()
      .update(webhookIntake)
      .set({ processAfter: sql`now() - interval '1 second'` })
      .where(eq(webhookIntake.id, waiting!.id));
    await t.app.webhookIntake.drain();
    const [after] = await db().select().from(messages).where(eq(messages.id, message!.id));
    expect(after!.ack).toBe(2);
    expect(await db().select().from(webhookIntake).where(eq(webhookIntake.tenantId, owner.tenant.id))).toEqual([]);
  });

  it('holds a reaction that comes before its message without making a chat, then applies changes in the order they were made', async () => {
    const owner = await registerTenant(t.app);
    const path = await webhookPath(owner);
    const phone = '5215511113333';
    // Gupshup's Meta-format ("v3") callbacks, told apart per delivery from its own format.
    const change = (id: string, seconds: number, message: Record<string, unknown>) =>
      JSON.stringify({
        object: 'whatsapp_business_account',
        gs_app_id: 'app-1',
        entry: [{ id: 'waba', changes: [{ field: 'messages', value: { messages: [{ from: phone, id, timestamp: String(seconds), ...message }] } }] }],
      });
    const now = Math.floor(Date.now() / 1000);
    expect((await deliver(path, change('wamid.r1', now, { type: 'reaction', reaction: { message_id: 'wamid.later', emoji: '👍' } }))).statusCode).toBe(200);
    await t.app.webhookIntake.drain();
    const [waiting] = await db().select().from(webhookIntake).where(eq(webhookIntake.tenantId, owner.tenant.id));
    expect(waiting).toMatchObject({ attempts: 1 });
    expect(await db().select().from(cards).where(eq(cards.tenantId, owner.tenant.id))).toEqual([]);

    expect((await deliver(path, textMessage('wamid.later', 'Hola', phone))).statusCode).toBe(200);
    await t.app.webhookIntake.drain();
    await db()
      .update(webhookIntake)
      .set({ processAfter: sql`now() - interval '1 second'` })
      .where(eq(webhookIntake.id, waiting!.id));
    await t.app.webhookIntake.drain();
    const shown = async () => (await db().select().from(messages).where(eq(messages.providerMessageId, 'wamid.later')))[0]!;
    expect((await shown()).reactions).toEqual([{ emoji: '👍', phone, name: null, at: new Date(now * 1000).toISOString() }]);

    // An older reaction or edit arriving late changes nothing; the newest edit wins; a deletion hides it.
    const edit = (id: string, seconds: number, body: string) =>
      change(id, seconds, { type: 'edit', edit: { original_message_id: 'wamid.later', message: { type: 'text', text: { body } } } });
    for (const body of [
      change('wamid.r0', now - 60, { type: 'reaction', reaction: { message_id: 'wamid.later', emoji: '❤️' } }),
      edit('wamid.e2', now + 20, 'Hola, ¿abren mañana?'),
      edit('wamid.e1', now + 10, 'Hola, ¿abren?'),
    ])
      expect((await deliver(path, body)).statusCode).toBe(200);
    await t.app.webhookIntake.drain();
    expect(await shown()).toMatchObject({ text: 'Hola, ¿abren mañana?', editHistory: [{ text: 'Hola' }] });
    expect((await shown()).reactions!.map((reaction) => reaction.emoji)).toEqual(['👍']);
    expect((await deliver(path, change('wamid.d1', now + 30, { type: 'revoke', revoke: { original_message_id: 'wamid.later' } }))).statusCode).toBe(200);
    await t.app.webhookIntake.drain();
    expect((await shown()).deletedAt).toBeInstanceOf(Date);
    expect(await db().select().from(messages).where(eq(messages.tenantId, owner.tenant.id))).toHaveLength(1);
  });

  it('lets a status wait for its message about two minutes, tried again every 2 s at most once the first pauses are over', () => {
    const pauses = Array.from({ length: INTAKE_WAITS_FOR_MESSAGE - 1 }, (_, attempts) => waitPauseAfter(attempts));
    expect(pauses.slice(0, 4)).toEqual([500, 1_000, 2_000, 2_000]);
    expect(Math.max(...pauses)).toBe(2_000);
    const total = pauses.reduce((sum, pause) => sum + pause, 0);
    expect(total).toBeGreaterThanOrEqual(110_000);
    expect(total).toBeLessThanOrEqual(130_000);
  });

  it("refuses a wrong secret before storing anything, and another company's deliveries stay its own", async () => {
    const a = await registerTenant(t.app);
    const b = await registerTenant(t.app);
    const pathOfA = await webhookPath(a);
    const wrong = pathOfA.replace(/[^/]+$/, 'no-es-el-secreto');
    expect((await deliver(wrong, textMessage('wamid.wrong'))).statusCode).toBe(401);
    // B's secret on A's URL is just as wrong.
    const secretOfB = (await webhookPath(b)).split('/').pop()!;
    expect((await deliver(pathOfA.replace(/[^/]+$/, secretOfB), textMessage('wamid.cross'))).statusCode).toBe(401);
    await t.app.webhookIntake.drain();
    expect(await db().select().from(messages).where(eq(messages.tenantId, a.tenant.id))).toEqual([]);
    expect(await db().select().from(webhookIntake).where(eq(webhookIntake.tenantId, a.tenant.id))).toEqual([]);
  });
  // Last in this block: it stops and restarts the worker.
  it('applies deliveries that wait together as one after another would: chats, unread counts, quotes, repeats, events', async () => {
    const owner = await registerTenant(t.app);
    const path = await webhookPath(owner);
    // No bot, assistant or batch reacts to these chats, so only this listener gives their events a job to look at.
    t.app.domainEvents.register(
      defineListener({ name: 'test.every-customer-message', event: 'customer-message.stored', receipts: false, handle: async () => {} }),
    );
    const quoting = JSON.parse(textMessage('wamid.run-3', 'tres', '5215511113333')) as { payload: Record<string, unknown> };
    quoting.payload.context = { gsId: 'wamid.run-1' };
    await t.app.webhookIntake.stop();
    const answers = [];
    for (const body of [
      textMessage('wamid.run-1', 'uno', '5215511113333'),
      textMessage('wamid.run-2', 'dos', '5215511113333'),
      // The provider's retry of the first, with a new timestamp: the same message.
      textMessage('wamid.run-1', 'uno', '5215511113333').replace(/"timestamp":\d+/, '"timestamp":1'),
      JSON.stringify(quoting),
      textMessage('wamid.run-4', 'hola', '5215511114444'),
      'esto no es JSON',
    ])
      answers.push(await deliver(path, body));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await db().select().from(webhookIntake).where(eq(webhookIntake.tenantId, owner.tenant.id))).toHaveLength(6);
    t.app.webhookIntake.start();
    await t.app.webhookIntake.drain();
    await t.app.webhookIntake.stop();

    const stored = await db().select().from(messages).where(eq(messages.tenantId, owner.tenant.id)).orderBy(messages.createdAt, messages.id);
    expect(stored.map((message) => message.text).sort()).toEqual(['dos', 'hola', 'tres', 'uno']);
    const third = stored.find((message) => message.text === 'tres')!;
    expect(third).toMatchObject({ quotedMessageText: 'uno', quotedMessageSender: 'contact' });
    const chats = await db().select().from(cards).where(eq(cards.tenantId, owner.tenant.id));
    expect(chats.map((card) => [card.phone, card.unreadCount, card.lastMessageText]).sort()).toEqual([
      ['5215511113333', 3, 'tres'],
      ['5215511114444', 1, 'hola'],
    ]);
    expect(new Set(stored.map((message) => message.cardId)).size).toBe(2);
    const [rejected] = await db().select().from(webhookRejections).where(eq(webhookRejections.tenantId, owner.tenant.id));
    expect(rejected).toMatchObject({ kind: 'malformed' });
    // One event per stored message, each carrying the id of the request that brought it.
    const events = await queryRows<{ event_id: string; request_id: string | null }>(
      db(),
      sql`select distinct payload->>'id' as event_id, request_id from jobs where tenant_id = ${owner.tenant.id} and payload->>'type' = 'customer-message.stored'`,
    );
    expect(events).toHaveLength(4);
    expect(new Set(events.map((event) => event.request_id)).size).toBe(4);
    expect(events.every((event) => event.request_id)).toBe(true);
    expect(await db().select().from(webhookIntake).where(eq(webhookIntake.tenantId, owner.tenant.id))).toEqual([]);
  });
});

describe('the intake worker', () => {
  let t: TestApp;
  let tenantId: string;
  beforeAll(async () => {
    t = await buildTestApp({ providerMode: 'sandbox' });
    tenantId = (await registerTenant(t.app)).tenant.id;
  });
  afterAll(async () => t.close());

  const receiver = {} as WebhookReceiver;
  const applied = (): AppliedDelivery => ({ outcome: 'stored', kinds: ['message'], waitsForMessage: false, afterCommit: [] });
  const delivery = (text: string) => ({ tenantId, provider: 'gupshup' as const, body: Buffer.from(text), receivedAt: new Date() });

  function intake(apply: (row: IntakeRow) => Promise<AppliedDelivery>, answerWaitMs = 60_000, clock?: () => Date) {
    return new WebhookIntake({
      db: t.database.db,
      log: createLogger('silent'),
      answerWaitMs,
      clock,
      receiversOf: async () => () => receiver,
      apply: async (_tx, _tenant, _receiverOf, rows) => {
        const answers: AppliedDelivery[] = [];
        for (const row of rows) answers.push(await apply(row));
        return answers;
      },
      onApplied: () => undefined,
      afterCommit: () => undefined,
    });
  }

  it("applies a company's deliveries in arrival order, many in one transaction when they arrive together", async () => {
    const applied_: number[] = [];
    let batches = 0;
    const worker = new WebhookIntake({
      db: t.database.db,
      log: createLogger('silent'),
      answerWaitMs: 60_000,
      // Asked once per batch, before its transaction opens.
      receiversOf: async () => {
        batches += 1;
        return () => receiver;
      },
      apply: async (_tx, _tenant, _receiverOf, rows) => {
        applied_.push(...rows.map((row) => row.id));
        return rows.map(() => applied());
      },
      onApplied: () => undefined,
      afterCommit: () => undefined,
    });
    const bodies = Array.from({ length: 30 }, (_, index) => `entrega ${index}`);
    await Promise.all(bodies.map((body) => worker.accept(delivery(body))));
    expect(applied_).toHaveLength(30);
    expect(applied_).toEqual([...applied_].sort((x, y) => x - y));
    expect(batches).toBeLessThan(bodies.length / 2);
  });

  it(`sets a delivery aside as 'unapplied' after ${INTAKE_MAX_ATTEMPTS} failed tries, and keeps the others going`, async () => {
    const appliedBodies: string[] = [];
    const worker = intake(async (row) => {
      if (row.body.toString() === 'rota') throw new Error('la base de datos no respondió');
      appliedBodies.push(row.body.toString());
      return applied();
    });
    await worker.accept(delivery('rota'));
    await worker.accept(delivery('sana'));
    const waiting = () => t.database.db.select().from(webhookIntake).where(eq(webhookIntake.tenantId, tenantId));
    expect(await waiting()).toMatchObject([{ attempts: 1, lastError: 'la base de datos no respondió' }]);
    let tries = 1;
    while ((await waiting()).length > 0 && tries < 20) {
      await t.database.db
        .update(webhookIntake)
        .set({ processAfter: sql`now() - interval '1 second'` })
        .where(eq(webhookIntake.tenantId, tenantId));
      await worker.drain();
      tries += 1;
    }
    expect(tries).toBe(INTAKE_MAX_ATTEMPTS);
    expect(appliedBodies.at(-1)).toBe('sana');
    const [setAside] = await t.database.db.select().from(webhookRejections).where(eq(webhookRejections.tenantId, tenantId));
    expect(setAside).toMatchObject({
      kind: 'unapplied',
      rawBody: 'rota',
      reason: `No se pudo aplicar tras ${INTAKE_MAX_ATTEMPTS} intentos: la base de datos no respondió`,
    });
  });
  /** A worker that applies every delivery, keeping their bodies in order, on this clock. */
  function recordingIntake(answerWaitMs: number, clock: () => Date) {
    const appliedBodies: string[] = [];
    const worker = intake(
      async (row) => {
        appliedBodies.push(row.body.toString());
        return applied();
      },
      answerWaitMs,
      clock,
    );
    return { worker, appliedBodies };
  }

  it("applies a new delivery at once when its clock runs behind the database's (a skewed host, a test clock that was frozen)", async () => {
    // The answer waits for the delivery to be applied: without it due by this clock, accept would not return.
    const { worker, appliedBodies } = recordingIntake(10_000, () => new Date(Date.now() - 60_000));
    await worker.accept(delivery('reloj atrasado'));
    expect(appliedBodies).toEqual(['reloj atrasado']);
  });

  it('counts a delivery stored earlier in the same millisecond as due (the database stamps microseconds)', async () => {
    const now = new Date('2026-11-25T10:00:00.123Z');
    const { worker, appliedBodies } = recordingIntake(60_000, () => now);
    await t.database.db.insert(webhookIntake).values({
      tenantId,
      provider: 'gupshup',
      body: Buffer.from('mismo milisegundo'),
      bodyHash: 'same-millisecond',
      receivedAt: now,
      processAfter: sql`${now.toISOString()}::timestamptz + interval '400 microseconds'`,
    });
    await worker.drain();
    expect(appliedBodies).toEqual(['mismo milisegundo']);
  });
});

describe('gathering a batch', () => {
  /** A clock whose sleeps pass at once, with `arrivalsDuring(t)` deliveries stored while the sleep ending at t ran. */
  function simulated(arrivalsDuring: (at: number) => number) {
    let now = 0;
    let stored = 0;
    const clock = {
      now: () => now,
      sleep: async (ms: number) => {
        now += ms;
        stored += arrivalsDuring(now);
      },
    };
    return { clock, stored: () => stored, waited: () => now };
  }

  it(`starts a lone delivery's batch after ${INTAKE_GATHER_MS} ms`, async () => {
    const quiet = simulated(() => 0);
    await gatherArrivals(quiet.stored, quiet.clock);
    expect(quiet.waited()).toBe(INTAKE_GATHER_MS);
  });

  it('keeps gathering while deliveries keep arriving, and stops once they pause', async () => {
    const burst = simulated((at) => (at <= 2 * INTAKE_GATHER_MS ? 3 : 0));
    await gatherArrivals(burst.stored, burst.clock);
    expect(burst.waited()).toBe(3 * INTAKE_GATHER_MS);
  });

  it(`waits at most ${INTAKE_GATHER_MAX_MS} ms under steady traffic`, async () => {
    const steady = simulated(() => 5);
    await gatherArrivals(steady.stored, steady.clock);
    expect(steady.waited()).toBeLessThanOrEqual(INTAKE_GATHER_MAX_MS);
    expect(steady.waited()).toBeGreaterThan(INTAKE_GATHER_MAX_MS - INTAKE_GATHER_MS);
  });
});
