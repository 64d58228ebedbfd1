import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@embudo/contracts/events/index';
import { eventDeliveries, jobs } from '../../../db/schema/index.ts';
import { createTestDatabase } from '../../../test/support/test-database.ts';
import { JobQueue } from '../queue/job-queue.ts';
import { EventBus, LISTENER_JOB_PREFIX } from './event-bus.ts';
import { defineListener } from './listener.ts';
import { z } from 'zod';
import { defineJob } from '../queue/job-definition.ts';
import { collectAfterCommit, runDeferred } from './after-commit.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());
beforeEach(async () => {
  await database.db.delete(jobs);
  await database.db.delete(eventDeliveries);
});

/** Log lines the bus and the queue wrote, to see that a failure for good is reported. */
function recordingLogger() {
  const lines: { level: string; message: string; details: object }[] = [];
  const at = (level: string) => (details: object, message: string) => void lines.push({ level, message, details });
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

function newBus(logger = pino({ level: 'silent' })) {
  const queue = new JobQueue({ db: database.db, logger });
  return { queue, bus: new EventBus({ db: database.db, queue, logger }) };
}

const tenantId = randomUUID();
const statusChange = () => ({ type: 'message.status-changed' as const, tenantId, payload: { messageId: randomUUID(), cardId: randomUUID(), ack: 2 as const } });

class Rollback extends Error {}

describe('the domain event bus', () => {
  it("writes the event in the caller's transaction: one job per listener after commit, none after a rollback", async () => {
    const { queue, bus } = newBus();
    const seen: string[] = [];
    bus.register(defineListener({ name: 'test.first', event: 'message.status-changed', handle: async (event) => void seen.push(`first:${event.id}`) }));
    bus.register(defineListener({ name: 'test.second', event: 'message.status-changed', handle: async (event) => void seen.push(`second:${event.id}`) }));
    bus.register(defineListener({ name: 'test.other-type', event: 'card.archived', handle: async () => void seen.push('other') }));

    await expect(
      database.db.transaction(async (tx) => {
        await bus.publish(tx, statusChange());
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    expect(await database.db.select().from(jobs)).toHaveLength(0);

    const event = await database.db.transaction((tx) => bus.publish(tx, statusChange()));
    // Nothing ran inside the transaction: the listeners wait for the queue.
    expect(seen).toEqual([]);
    const queued = await database.db.select().from(jobs);
    expect(queued.map((job) => job.name).sort()).toEqual([`${LISTENER_JOB_PREFIX}test.first`, `${LISTENER_JOB_PREFIX}test.second`]);
    expect(queued.map((job) => job.singletonKey).sort()).toEqual([`test.first:${event.id}`, `test.second:${event.id}`]);
    expect(queued[0]!.payload).toMatchObject({ id: event.id, type: 'message.status-changed', tenantId, occurredAt: event.occurredAt, payload: event.payload });

    await queue.drain();
    expect(seen.sort()).toEqual([`first:${event.id}`, `second:${event.id}`]);
  });

  it("refuses a payload that does not match its schema, failing the producer's transaction", async () => {
    const { bus } = newBus();
    await expect(
      database.db.transaction((tx) => bus.publish(tx, { type: 'card.archived', tenantId, payload: { cardId: 'not-a-uuid' } as never })),
    ).rejects.toThrow();
  });

  it('runs each listener once per event id, even when the event is delivered twice', async () => {
    const { queue, bus } = newBus();
    const handled: DomainEvent[] = [];
    bus.register(defineListener({ name: 'test.once', event: 'message.status-changed', handle: async (event) => void handled.push(event) }));
    const event = await database.db.transaction((tx) => bus.publish(tx, statusChange()));
    // The same event again while the first delivery waits: the singleton key keeps one job.
    await database.db.transaction((tx) => bus.publish(tx, { ...statusChange(), id: event.id, payload: event.payload }));
    expect(await database.db.select().from(jobs)).toHaveLength(1);
    await queue.drain();
    // And again after it was handled (a replay, or a job row re-queued by hand): the receipt skips it.
    await database.db.transaction((tx) => bus.publish(tx, { ...statusChange(), id: event.id, payload: event.payload }));
    await queue.drain();
    const [done] = await database.db.select().from(jobs).limit(1);
    await database.db
      .update(jobs)
      .set({ status: 'pending', runAt: new Date(0) })
      .where(eq(jobs.id, done!.id));
    await queue.drain();
    expect(handled.map((delivered) => delivered.id)).toEqual([event.id]);
    const receipts = await database.db.select().from(eventDeliveries).where(eq(eventDeliveries.eventId, event.id));
    expect(receipts).toMatchObject([{ listener: 'test.once', tenantId }]);
  });

  it('enqueues a job only for the events a selecting listener would act on, asked once per company in the publishing transaction', async () => {
    const { queue, bus } = newBus();
    const asked: { tenantId: string; events: string[]; sawOwnWrite: boolean }[] = [];
    const handled: string[] = [];
    const otherTenant = randomUUID();
    bus.register(
      defineListener({
        name: 'test.selective',
        event: 'message.status-changed',
        receipts: false,
        // Keeps the read receipts (ack 3) only; it also looks at a row written earlier in the same transaction.
        selectRelevant: async (tx, tenant, events) => {
          const ownWrite = await tx.select().from(jobs).where(eq(jobs.name, 'test.marker'));
          asked.push({ tenantId: tenant, events: events.map((event) => event.id), sawOwnWrite: ownWrite.length === 1 });
          return events.filter((event) => event.payload.ack === 3);
        },
        handle: async (event) => void handled.push(event.id),
      }),
    );
    bus.register(
      defineListener({ name: 'test.every', event: 'message.status-changed', receipts: false, handle: async (event) => void handled.push(`every:${event.id}`) }),
    );

    const read = { ...statusChange(), payload: { ...statusChange().payload, ack: 3 as const } };
    const published = await database.db.transaction(async (tx) => {
      await tx.insert(jobs).values({ name: 'test.marker', payload: {}, status: 'completed' });
      return bus.publishMany(tx, [statusChange(), read, { ...read, payload: { ...read.payload, messageId: randomUUID() }, tenantId: otherTenant }]);
    });
    const [delivered, readByFirst, readBySecond] = published.map((event) => event.id);

    expect(asked).toEqual([
      { tenantId, events: [delivered, readByFirst], sawOwnWrite: true },
      { tenantId: otherTenant, events: [readBySecond], sawOwnWrite: true },
    ]);
    const queued = await database.db
      .select()
      .from(jobs)
      .where(eq(jobs.name, `${LISTENER_JOB_PREFIX}test.selective`));
    expect(queued.map((job) => job.singletonKey).sort()).toEqual([`test.selective:${readByFirst}`, `test.selective:${readBySecond}`].sort());
    await queue.drain();
    expect(handled.sort()).toEqual([readByFirst, readBySecond, `every:${delivered}`, `every:${readByFirst}`, `every:${readBySecond}`].sort());
  });

  it('keeps no receipt for a listener that is harmless twice: a replay runs it again, nothing is written for it', async () => {
    const { queue, bus } = newBus();
    const handled: string[] = [];
    bus.register(
      defineListener({ name: 'test.announce', event: 'message.status-changed', receipts: false, handle: async (event) => void handled.push(event.id) }),
    );
    const event = await database.db.transaction((tx) => bus.publish(tx, statusChange()));
    await queue.drain();
    await database.db.transaction((tx) => bus.publish(tx, { ...statusChange(), id: event.id, payload: event.payload }));
    await queue.drain();
    expect(handled).toEqual([event.id, event.id]);
    expect(await database.db.select().from(eventDeliveries).where(eq(eventDeliveries.eventId, event.id))).toEqual([]);
  });

  it('lets a listener record its receipt in its own transaction, so a run after that commit writes nothing twice', async () => {
    const { queue, bus } = newBus();
    const outcomes: boolean[] = [];
    bus.register(
      defineListener({
        name: 'test.transactional',
        event: 'message.status-changed',
        handle: async (_event, ctx) => {
          // The first run commits its receipt and then "crashes" before the job is marked done.
          const first = await database.db.transaction((tx) => ctx.recordDelivery(tx));
          const second = await database.db.transaction((tx) => ctx.recordDelivery(tx));
          outcomes.push(first, second);
        },
      }),
    );
    await database.db.transaction((tx) => bus.publish(tx, statusChange()));
    await queue.drain();
    expect(outcomes).toEqual([true, false]);
  });

  it('retries a failing listener with its backoff, then leaves the failed job with its error and logs it', async () => {
    const { lines, logger } = recordingLogger();
    const { queue, bus } = newBus(logger as unknown as pino.Logger);
    let attempts = 0;
    bus.register(
      defineListener({
        name: 'test.broken',
        event: 'message.status-changed',
        maxAttempts: 2,
        backoff: { baseMs: 1, maxMs: 1 },
        handle: async () => {
          attempts += 1;
          throw new Error('the webhook answered 500');
        },
      }),
    );
    const event = await database.db.transaction((tx) => bus.publish(tx, statusChange()));
    await queue.runDueJobsOnce();
    const [afterFirst] = await database.db.select().from(jobs);
    expect(afterFirst).toMatchObject({ status: 'pending', attempts: 1, lastError: 'the webhook answered 500' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await queue.drain();
    expect(attempts).toBe(2);
    const [failed] = await database.db.select().from(jobs);
    expect(failed).toMatchObject({ status: 'failed', attempts: 2, lastError: 'the webhook answered 500', singletonKey: `test.broken:${event.id}` });
    expect(lines.filter((line) => line.level === 'error').map((line) => line.message)).toEqual(['job failed for good']);
    expect(
      lines.some((line) => line.level === 'warn' && line.message === 'event listener failed' && (line.details as { eventId?: string }).eventId === event.id),
    ).toBe(true);
    expect(await database.db.select().from(eventDeliveries)).toHaveLength(0);
  });
});

describe('listeners handled after commit', () => {
  const announcing = (seen: string[]) =>
    defineListener({
      name: 'test.announce',
      event: 'message.status-changed',
      receipts: false,
      delivery: 'after-commit',
      handle: async (event) => void seen.push(event.payload.messageId),
    });

  it('run in-process once the unit that published has finished, with no job', async () => {
    const { bus } = newBus();
    const seen: string[] = [];
    bus.register(announcing(seen));
    const event = statusChange();
    const { deferred } = await collectAfterCommit(async () => {
      await database.db.transaction((tx) => bus.publish(tx, event));
      // Committed, but the unit is still working: nothing announced yet.
      expect(seen).toEqual([]);
    });
    expect(await database.db.select().from(jobs)).toHaveLength(0);
    await runDeferred(deferred, (error) => {
      throw error;
    });
    expect(seen).toEqual([event.payload.messageId]);
  });

  it('get a job when published outside a unit, and nothing when the unit fails', async () => {
    const { queue, bus } = newBus();
    const seen: string[] = [];
    bus.register(announcing(seen));
    await database.db.transaction((tx) => bus.publish(tx, statusChange()));
    expect((await database.db.select().from(jobs)).map((job) => job.name)).toEqual([`${LISTENER_JOB_PREFIX}test.announce`]);
    await queue.drain();
    expect(seen).toHaveLength(1);

    await expect(
      collectAfterCommit(async () => {
        await database.db.transaction((tx) => bus.publish(tx, statusChange()));
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    expect(seen).toHaveLength(1);
  });

  it("run after a job's handler, before the job is recorded as completed; a failed run announces nothing", async () => {
    const { queue, bus } = newBus();
    const seen: string[] = [];
    bus.register(announcing(seen));
    let failing = true;
    const completedWhenAnnounced: string[] = [];
    const publishes = defineJob({
      name: 'test.publishes',
      payload: z.object({}),
      maxAttempts: 2,
      backoff: { baseMs: 1, maxMs: 1 },
      handler: async () => {
        await database.db.transaction((tx) => bus.publish(tx, statusChange()));
        if (failing) {
          failing = false;
          throw new Error('falla una vez');
        }
      },
    });
    queue.register(publishes);
    bus.register(
      defineListener({
        name: 'test.sees-job-state',
        event: 'message.status-changed',
        receipts: false,
        delivery: 'after-commit',
        handle: async () => {
          const [job] = await database.db.select().from(jobs).where(eq(jobs.name, 'test.publishes'));
          completedWhenAnnounced.push(job!.status);
        },
      }),
    );
    await queue.enqueue(database.db, publishes, {});
    // The retry is due 1 ms after the failure is recorded: a drain right then may find nothing due yet.
    const deadline = Date.now() + 5_000;
    while ((await database.db.select().from(jobs).where(eq(jobs.name, 'test.publishes')))[0]!.status !== 'completed') {
      if (Date.now() > deadline) throw new Error('the job did not complete in time');
      await queue.drain({ timeoutMs: 5_000 });
    }
    expect(seen).toHaveLength(1);
    expect(completedWhenAnnounced).toEqual(['running']);
  });

  it('must keep no receipts', () => {
    expect(() => defineListener({ name: 'test.wrong', event: 'message.status-changed', delivery: 'after-commit', handle: async () => undefined })).toThrow(
      /keeps no receipts/,
    );
  });
});
