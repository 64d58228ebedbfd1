import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { z, ZodError } from 'zod';
import { jobs } from '../../../db/schema/index.ts';
import { createTestDatabase } from '../../../test/support/test-database.ts';
import { openPostgres, queryRows, type Database, type Db } from '../db/database.ts';
import { defineBatchJob, defineJob, type BatchItem, type JobContext } from './job-definition.ts';
import { JobQueue, type JobQueueOptions } from './job-queue.ts';
import { gateOf } from '../db/database-gate.ts';
import { currentLogContext, runWithLogContext } from '../logger/log-context.ts';

const logger = pino({ level: 'silent' });
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let queues: JobQueue[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());
beforeEach(async () => {
  await database.db.delete(jobs);
});
afterEach(async () => {
  await Promise.all(queues.map((queue) => queue.stop({ timeoutMs: 1_000 })));
  queues = [];
});

function newQueue(options: Partial<JobQueueOptions> = {}) {
  const queue = new JobQueue({ db: database.db, logger, pollIntervalMs: 20, ...options });
  queues.push(queue);
  return queue;
}

/** A second connection pool on the same database where there is a server; PGlite has only the one. */
async function secondConnection(): Promise<{ db: Db; close: () => Promise<void> }> {
  if (!database.url) return { db: database.db, close: async () => {} };
  const other: Database = await openPostgres(database.url, { poolSize: 5 });
  return other;
}

async function waitFor(condition: () => Promise<boolean> | boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

async function jobRow(id: string | null) {
  const [row] = await database.db.select().from(jobs).where(eq(jobs.id, id!));
  return row!;
}

const jobCount = async () => (await database.db.select().from(jobs)).length;

/** A job that records the id of each run, and a started worker for it that polls only every `pollIntervalMs`. */
function recordingWorker(name: string, pollIntervalMs: number) {
  const ran: string[] = [];
  const job = defineJob({
    name,
    payload: z.object({ id: z.string() }),
    handler: async ({ id }) => {
      ran.push(id);
    },
  });
  const queue = newQueue({ pollIntervalMs });
  queue.register(job);
  queue.start();
  return { ran, job, queue };
}

describe('JobQueue', () => {
  it('enqueues within the caller transaction: a rollback leaves no job, a commit runs it', async () => {
    const greeted: string[] = [];
    const greet = defineJob({
      name: 'test.greet',
      payload: z.object({ to: z.string() }),
      handler: async ({ to }) => {
        greeted.push(to);
      },
    });
    const queue = newQueue();
    queue.register(greet);
    queue.start();

    await expect(
      database.db.transaction(async (tx) => {
        await queue.enqueue(tx, greet, { to: 'rolled back' });
        throw new Error('caller failed');
      }),
    ).rejects.toThrow('caller failed');
    expect(await jobCount()).toBe(0);

    const id = await database.db.transaction((tx) => queue.enqueue(tx, greet, { to: 'committed' }));
    await waitFor(async () => (await jobRow(id)).status === 'completed');
    expect(greeted).toEqual(['committed']);
  });

  it('runs a job enqueued in a transaction as soon as the caller says it committed, not at the next poll', async () => {
    const { ran, job, queue } = recordingWorker('test.after-commit', 60_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await database.db.transaction(async (tx) => {
      await queue.enqueue(tx, job, { id: 'committed' });
    });
    if (!database.url) {
      // PGlite: the in-process signal waits for the caller (PostgreSQL's insert trigger NOTIFYs at the commit itself).
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(ran).toEqual([]);
    }
    queue.wakeAfterCommit();
    await waitFor(() => ran.length === 1, 5_000);
    expect(ran).toEqual(['committed']);
  });

  it('runs a job at once when its transaction commits, even when the in-process signal was given while it was open', async () => {
    const { ran, job, queue } = recordingWorker('test.signal-taken', 60_000);
    await queue.listening();
    await database.db.transaction(async (tx) => {
      await queue.enqueue(tx, job, { id: 'late' });
      // Another unit of work answers meanwhile (a request, a webhook batch): it gives the signal, and the claim it
      // wakes runs while this transaction is still open (on PGlite it waits behind it on the one connection).
      queue.wakeAfterCommit();
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    // Nothing gives the signal again: the commit alone must wake the worker, not the poll a minute later.
    await waitFor(() => ran.length === 1, 5_000);
    expect(ran).toEqual(['late']);
  });

  it('runs a job enqueued with a short delay when it is due, not at the next poll', async () => {
    const ranAt: number[] = [];
    const job = defineJob({ name: 'test.soon', payload: z.object({}), handler: async () => void ranAt.push(Date.now()) });
    const queue = newQueue({ pollIntervalMs: 60_000 });
    queue.register(job);
    queue.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const enqueuedAt = Date.now();
    await queue.enqueue(database.db, job, {}, { delayMs: 200 });
    // Far sooner than the 60 s poll: the queue woke for it.
    await waitFor(() => ranAt.length === 1, 10_000);
    expect(ranAt[0]! - enqueuedAt).toBeGreaterThanOrEqual(200);
  });

  it('does not run a job before its runAt or delay, and runs it once due', async () => {
    const ranWhenDue: boolean[] = [];
    const later = defineJob({
      name: 'test.later',
      payload: z.object({}),
      handler: async (_, { jobId }) => {
        const [row] = await queryRows<{ due: boolean }>(database.db, sql`select clock_timestamp() >= run_at as due from jobs where id = ${jobId}`);
        ranWhenDue.push(row!.due);
      },
    });
    const queue = newQueue();
    queue.register(later);
    const delayedId = await queue.enqueue(database.db, later, {}, { delayMs: 300 });
    const scheduledId = await queue.enqueue(database.db, later, {}, { runAt: new Date(Date.now() + 300) });

    expect(await queue.runDueJobsOnce()).toBe(0);
    expect(ranWhenDue).toEqual([]);

    await waitFor(async () => {
      await queue.runDueJobsOnce();
      return ranWhenDue.length === 2;
    });
    expect(ranWhenDue).toEqual([true, true]);
    const delayed = await jobRow(delayedId);
    expect(delayed.runAt.getTime() - delayed.createdAt.getTime()).toBeGreaterThanOrEqual(300);
    expect((await jobRow(scheduledId)).status).toBe('completed');
  });

  it('retries a failing handler with growing backoff, then marks it failed with the last error', async () => {
    const failedAtMs: number[] = [];
    const flaky = defineJob({
      name: 'test.always-fails',
      payload: z.object({}),
      maxAttempts: 4,
      backoff: { baseMs: 100, maxMs: 300 },
      handler: async (_, { attempt }) => {
        const [clock] = await queryRows<{ ms: number }>(database.db, sql`select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`);
        failedAtMs.push(clock!.ms);
        throw new Error(`boom on attempt ${attempt}`);
      },
    });
    const queue = newQueue();
    queue.register(flaky);
    const id = await queue.enqueue(database.db, flaky, {});

    // Each retry's delay counted from the failure, and the time its recording took (up to when it was read back).
    const retries: Array<{ delayMs: number; recordingMs: number }> = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      await waitFor(async () => (await queue.runDueJobsOnce()) > 0);
      const [recorded] = await queryRows<{ ms: number }>(database.db, sql`select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`);
      const row = await jobRow(id);
      expect(row).toMatchObject({ attempts: attempt, lastError: `boom on attempt ${attempt}`, status: attempt < 4 ? 'pending' : 'failed' });
      const failedAt = failedAtMs[attempt - 1]!;
      if (attempt < 4) retries.push({ delayMs: row.runAt.getTime() - failedAt, recordingMs: recorded!.ms - failedAt });
    }
    expect(failedAtMs).toHaveLength(4);
    expect(await queue.runDueJobsOnce()).toBe(0);

    // 100, 200, then 300 (capped, not 400) ms after the failure, plus up to 10% jitter and the time to record it
    // (however long a loaded machine took).
    [100, 200, 300].forEach((expected, index) => {
      const { delayMs, recordingMs } = retries[index]!;
      expect(delayMs).toBeGreaterThanOrEqual(expected - 1);
      expect(delayMs).toBeLessThanOrEqual(expected * 1.1 + recordingMs + 1);
    });
  });

  it("survives a restart: a crashed worker's job is reclaimed after its lease, a completed job is not rerun", async () => {
    const restartJob = (handler: (payload: { n: number }, ctx: JobContext) => Promise<void>) =>
      defineJob({ name: 'test.restart', payload: z.object({ n: z.number() }), leaseMs: 200, handler });
    const hang = deferred();
    const hangingStarted = deferred();
    const crashedRuns: number[] = [];
    const beforeCrash = restartJob(async ({ n }) => {
      crashedRuns.push(n);
      if (n !== 2) return;
      hangingStarted.resolve();
      await hang.promise;
      throw new Error('finished too late');
    });
    const crashed = newQueue({ workerId: 'crashed-worker' });
    crashed.register(beforeCrash);
    const completedId = await crashed.enqueue(database.db, beforeCrash, { n: 1 });
    await crashed.drain();
    const orphanId = await crashed.enqueue(database.db, beforeCrash, { n: 2 });
    const abandoned = crashed.runDueJobsOnce();
    await hangingStarted.promise;
    // Giving up on the handler without handing it back stops its heartbeat, as a crash would: the lease runs out.
    await crashed.stop({ timeoutMs: 0, release: false });

    const restartedRuns: Array<{ n: number; attempt: number }> = [];
    const successorStarted = deferred();
    const successorGate = deferred();
    const restarted = newQueue({ workerId: 'restarted-worker' });
    restarted.register(
      restartJob(async ({ n }, { attempt }) => {
        restartedRuns.push({ n, attempt });
        successorStarted.resolve();
        await successorGate.promise;
      }),
    );
    restarted.start();
    await successorStarted.promise;

    // The stale worker failing late must not overwrite the claim its successor now holds.
    hang.resolve();
    await abandoned;
    expect(await jobRow(orphanId)).toMatchObject({ status: 'running', lockedBy: 'restarted-worker', attempts: 2 });

    successorGate.resolve();
    await waitFor(async () => (await jobRow(orphanId)).status === 'completed');
    expect(crashedRuns).toEqual([1, 2]);
    expect(restartedRuns).toEqual([{ n: 2, attempt: 2 }]);
    expect(await jobRow(completedId)).toMatchObject({ status: 'completed', attempts: 1 });
  });

  describe('never runs a job twice at once', () => {
    it('two workers racing over 50 jobs run each exactly once', async () => {
      const other = await secondConnection();
      try {
        const runs = new Map<string, number>();
        const ranBy = { a: 0, b: 0 };
        const inFlight = new Set<string>();
        let overlaps = 0;
        const definitionFor = (worker: 'a' | 'b') =>
          defineJob({
            name: 'test.race',
            payload: z.object({ n: z.number() }),
            handler: async (_, { jobId }) => {
              if (inFlight.has(jobId)) overlaps++;
              inFlight.add(jobId);
              runs.set(jobId, (runs.get(jobId) ?? 0) + 1);
              ranBy[worker]++;
              await new Promise((resolve) => setTimeout(resolve, 5)); // a little work, so claims interleave
              inFlight.delete(jobId);
            },
          });
        const a = newQueue({ workerId: 'worker-a', concurrency: 4 });
        const b = newQueue({ workerId: 'worker-b', concurrency: 4, db: other.db });
        a.register(definitionFor('a'));
        b.register(definitionFor('b'));
        await database.db.transaction(async (tx) => {
          for (let n = 0; n < 50; n++) await a.enqueue(tx, definitionFor('a'), { n });
        });

        a.start();
        b.start();
        await waitFor(async () => (await database.db.select().from(jobs).where(eq(jobs.status, 'completed'))).length === 50);
        await Promise.all([a.stop(), b.stop()]);

        expect(runs.size).toBe(50);
        expect([...runs.values()].every((count) => count === 1)).toBe(true);
        expect(overlaps).toBe(0);
        expect(ranBy.a).toBeGreaterThan(0);
        expect(ranBy.b).toBeGreaterThan(0);
        expect((await database.db.select().from(jobs)).every((job) => job.attempts === 1)).toBe(true);
      } finally {
        await Promise.all(queues.map((queue) => queue.stop()));
        await other.close();
      }
    });

    it('a slow job is heartbeat-extended past its short lease so another worker cannot steal it', async () => {
      const other = await secondConnection();
      try {
        const release = deferred();
        const started = deferred();
        const startedBy: string[] = [];
        const slowJob = (worker: string) =>
          defineJob({
            name: 'test.slow',
            payload: z.object({}),
            leaseMs: 300,
            handler: async () => {
              startedBy.push(worker);
              started.resolve();
              await release.promise;
            },
          });
        const holder = newQueue({ workerId: 'holder' });
        const thief = newQueue({ workerId: 'thief', db: other.db });
        holder.register(slowJob('holder'));
        thief.register(slowJob('thief'));
        const id = await holder.enqueue(database.db, slowJob('holder'), {});
        const holding = holder.runDueJobsOnce();
        await started.promise;
        const firstLeaseEnd = (await jobRow(id)).lockedUntil!;

        // The other worker keeps trying until the first lease has been over for a whole lease period.
        await waitFor(async () => {
          await thief.runDueJobsOnce();
          const [row] = await queryRows<{ long_past: boolean }>(
            database.db,
            sql`select now() > ${firstLeaseEnd.toISOString()}::timestamptz + interval '300 milliseconds' as long_past`,
          );
          return row!.long_past;
        });
        expect(startedBy).toEqual(['holder']);
        const held = await jobRow(id);
        expect(held).toMatchObject({ status: 'running', lockedBy: 'holder', attempts: 1 });
        expect(held.lockedUntil!.getTime()).toBeGreaterThan(firstLeaseEnd.getTime() + 300);

        release.resolve();
        await holding;
        expect(await jobRow(id)).toMatchObject({ status: 'completed', attempts: 1 });
      } finally {
        await Promise.all(queues.map((queue) => queue.stop()));
        await other.close();
      }
    });
  });

  it('dedupes on singletonKey while a job holding the key is pending or running', async () => {
    const sent: string[] = [];
    const send = defineJob({
      name: 'test.send',
      payload: z.object({ messageId: z.string() }),
      handler: async ({ messageId }) => {
        sent.push(messageId);
      },
    });
    const queue = newQueue();
    queue.register(send);

    const first = await queue.enqueue(database.db, send, { messageId: 'm1' }, { singletonKey: 'send:m1' });
    const duplicate = await queue.enqueue(database.db, send, { messageId: 'm1' }, { singletonKey: 'send:m1' });
    const otherKey = await queue.enqueue(database.db, send, { messageId: 'm2' }, { singletonKey: 'send:m2' });
    expect(first).toEqual(expect.any(String));
    expect(duplicate).toBeNull();
    expect(otherKey).toEqual(expect.any(String));
    expect(await jobCount()).toBe(2);

    await queue.drain();
    expect(sent.sort()).toEqual(['m1', 'm2']);
    // Once the holder finished, the key is free again.
    expect(await queue.enqueue(database.db, send, { messageId: 'm1' }, { singletonKey: 'send:m1' })).toEqual(expect.any(String));
  });

  it('refuses an invalid payload at enqueue and writes nothing', async () => {
    const greet = defineJob({ name: 'test.greet', payload: z.object({ to: z.string() }), handler: async () => {} });
    const queue = newQueue();
    queue.register(greet);

    await expect(queue.enqueue(database.db, greet, { to: 42 } as unknown as { to: string })).rejects.toThrow(ZodError);
    expect(await jobCount()).toBe(0);
  });

  it('fails a job with an unknown name or a payload that no longer validates, and keeps working', async () => {
    const greeted: string[] = [];
    const greet = defineJob({
      name: 'test.greet',
      payload: z.object({ to: z.string() }),
      handler: async ({ to }) => {
        greeted.push(to);
      },
    });
    const queue = newQueue();
    queue.register(greet);
    const [unknown, stale] = await database.db
      .insert(jobs)
      .values([
        { name: 'test.nobody-handles-this', payload: {} },
        { name: 'test.greet', payload: { to: 42 } },
      ])
      .returning();
    const validId = await queue.enqueue(database.db, greet, { to: 'Ana' });
    queue.start();

    // The three run side by side: each is waited for (on a loaded machine one may still be recording its outcome).
    await waitFor(
      async () =>
        (await jobRow(validId)).status === 'completed' && (await jobRow(stale!.id)).status === 'failed' && (await jobRow(unknown!.id)).status === 'failed',
    );
    expect(await jobRow(unknown!.id)).toMatchObject({ status: 'failed', attempts: 1, lastError: expect.stringMatching(/no handler is registered/) });
    expect(await jobRow(stale!.id)).toMatchObject({ status: 'failed', attempts: 1, lastError: expect.stringMatching(/invalid payload/) });
    expect(greeted).toEqual(['Ana']);
  });

  describe('batches (issue 16)', () => {
    /** A batching job that records each batch's ids and fails the items named "fails". */
    function batchingJob(name: string, maxBatch: number, hold?: Promise<void>) {
      const batches: string[][] = [];
      const job = defineBatchJob({
        name,
        payload: z.object({ id: z.string() }),
        maxBatch,
        backoff: { baseMs: 60_000, maxMs: 60_000 },
        handleBatch: async (items: ReadonlyArray<BatchItem<{ id: string }>>) => {
          batches.push(items.map((item) => item.payload.id).sort());
          await hold;
          return items.map((item) => (item.payload.id === 'fails' ? { error: new Error(`provider busy (attempt ${item.ctx.attempt})`) } : undefined));
        },
      });
      return { job, batches };
    }

    it('runs jobs of a batching name together up to its size, each with its own outcome and attempt', async () => {
      const { job, batches } = batchingJob('test.batched', 3);
      const queue = newQueue();
      queue.register(job);
      const ids: Record<string, string | null> = {};
      for (const id of ['a', 'fails', 'c', 'd', 'e']) ids[id] = await queue.enqueue(database.db, job, { id });

      // One slot: the claim of one job came back full, so a claim of its name filled its batch up.
      expect(await queue.runDueJobsOnce(1)).toBe(3);
      expect(batches).toEqual([['a', 'c', 'fails']]);
      expect(await jobRow(ids.a!)).toMatchObject({ status: 'completed', attempts: 1 });
      expect(await jobRow(ids.c!)).toMatchObject({ status: 'completed', attempts: 1 });
      expect(await jobRow(ids.fails!)).toMatchObject({ status: 'pending', attempts: 1, lastError: 'provider busy (attempt 1)' });
      expect(await jobRow(ids.d!)).toMatchObject({ status: 'pending', attempts: 0 });

      // Two slots, two jobs due: one batch of both, the failed one waiting for its backoff.
      expect(await queue.runDueJobsOnce(2)).toBe(2);
      expect(batches[1]).toEqual(['d', 'e']);
      await database.db
        .update(jobs)
        .set({ runAt: sql`now()` })
        .where(eq(jobs.id, ids.fails!));
      expect(await queue.runDueJobsOnce()).toBe(1);
      expect(await jobRow(ids.fails!)).toMatchObject({ status: 'pending', attempts: 2, lastError: 'provider busy (attempt 2)' });
    });

    it('claims a lone job of an idle queue once and runs it as a batch of one', async () => {
      const { job, batches } = batchingJob('test.batched-alone', 10);
      const queue = newQueue();
      queue.register(job);
      const id = await queue.enqueue(database.db, job, { id: 'alone' });
      const { result: ran, statements } = await gateOf(database.db).countStatements(() => queue.runDueJobsOnce());
      expect(ran).toBe(1);
      expect(batches).toEqual([['alone']]);
      // Its claim and its completion: the claim did not come back full, so no second claim looked for more.
      expect(statements).toBe(2);
      expect((await jobRow(id)).status).toBe('completed');
    });

    it('never puts two jobs of one order key in a batch: the later one runs after the earlier finished', async () => {
      const { job, batches } = batchingJob('test.batched-ordered', 10);
      const queue = newQueue();
      queue.register(job);
      for (const id of ['chat-1 first', 'chat-1 second', 'chat-2 only']) await queue.enqueue(database.db, job, { id }, { orderKey: id.split(' ')[0] });
      await queue.drain();
      expect(batches).toEqual([['chat-1 first', 'chat-2 only'], ['chat-1 second']]);
    });

    it('fails a job of the batch whose payload no longer validates, runs the others, and retries them all when the handler throws', async () => {
      let throwing = true;
      const batches: string[][] = [];
      const job = defineBatchJob({
        name: 'test.batched-throwing',
        payload: z.object({ id: z.string() }),
        maxBatch: 5,
        backoff: { baseMs: 60_000, maxMs: 60_000 },
        handleBatch: async (items: ReadonlyArray<BatchItem<{ id: string }>>) => {
          batches.push(items.map((item) => item.payload.id).sort());
          if (throwing) throw new Error('database went away');
          return items.map(() => undefined);
        },
      });
      const queue = newQueue();
      queue.register(job);
      const [stale] = await database.db
        .insert(jobs)
        .values({ name: 'test.batched-throwing', payload: { id: 42 } })
        .returning();
      const first = await queue.enqueue(database.db, job, { id: 'first' });
      const second = await queue.enqueue(database.db, job, { id: 'second' });
      expect(await queue.runDueJobsOnce()).toBe(3);
      expect(batches).toEqual([['first', 'second']]);
      expect(await jobRow(stale!.id)).toMatchObject({ status: 'failed', lastError: expect.stringMatching(/invalid payload/) });
      for (const id of [first, second]) expect(await jobRow(id)).toMatchObject({ status: 'pending', attempts: 1, lastError: 'database went away' });

      throwing = false;
      await database.db
        .update(jobs)
        .set({ runAt: sql`now()` })
        .where(eq(jobs.status, 'pending'));
      await queue.drain();
      for (const id of [first, second]) expect(await jobRow(id)).toMatchObject({ status: 'completed', attempts: 2 });
    });

    it('holds no more batches at once than its concurrency', async () => {
      const release = deferred();
      const { job, batches } = batchingJob('test.batched-busy', 3, release.promise);
      const queue = newQueue({ concurrency: 2 });
      queue.register(job);
      await queue.enqueueMany(
        database.db,
        Array.from({ length: 10 }, (_, n) => ({ definition: job, payload: { id: `job-${n}` } })),
      );
      queue.start();
      await waitFor(() => batches.length === 2);
      // Two slots, each a batch of three; the queue claims nothing more while they run.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(batches.map((batch) => batch.length)).toEqual([3, 3]);
      expect((await database.db.select().from(jobs).where(eq(jobs.status, 'running'))).length).toBe(6);
      release.resolve();
      await waitFor(async () => (await database.db.select().from(jobs).where(eq(jobs.status, 'completed'))).length === 10);
    });
  });

  describe('throughput and fairness (issue 16)', () => {
    it('wakes at once for a job another queue enqueued: in-process on PGlite, LISTEN/NOTIFY across processes on PostgreSQL, after the listener drops too', async () => {
      // Polls only hourly: the job can run in time only if the worker is woken.
      const { ran, job, queue: worker } = recordingWorker('test.elsewhere', 3_600_000);
      await worker.listening();
      await waitFor(async () => (await worker.stats()).running === 0);
      // Another process on PostgreSQL (its own pool, so no in-process signal reaches the worker); on PGlite the only
      // other enqueuer there can be is another queue of the same process.
      const other = await secondConnection();
      try {
        const enqueuer = new JobQueue({ db: other.db, logger, pollIntervalMs: 3_600_000 });
        enqueuer.register(job);
        await enqueuer.enqueue(other.db, job, { id: 'first' });
        await waitFor(() => ran.includes('first'));
        await other.db.transaction((tx) => enqueuer.enqueue(tx, job, { id: 'in a transaction' }));
        enqueuer.wakeAfterCommit();
        await waitFor(() => ran.includes('in a transaction'));

        if (database.url) {
          // The listening connection is cut (a restart, a failover): the worker reconnects and hears the next job.
          const listeners = async () =>
            queryRows<{ pid: number }>(
              other.db,
              sql`select pid from pg_stat_activity where application_name = 'embudo-jobs-listener' and datname = current_database()`,
            );
          const [listener] = await listeners();
          await queryRows(other.db, sql`select pg_terminate_backend(${listener!.pid})`);
          await waitFor(async () => (await listeners()).some((row) => row.pid !== listener!.pid));
          await enqueuer.enqueue(other.db, job, { id: 'after reconnecting' });
          await waitFor(() => ran.includes('after reconnecting'));
        }
      } finally {
        await other.close();
      }
    });

    it('claims with a statement the database plans once and then reuses, not plans afresh at every claim', async () => {
      // One connection, so the claims and the look at its prepared statements share it (PGlite has only the one).
      const single = database.url ? await openPostgres(database.url, { poolSize: 1 }) : { db: database.db, close: async () => {} };
      try {
        const job = defineJob({ name: 'test.planned', payload: z.object({ n: z.number() }), handler: async () => {} });
        const queue = new JobQueue({ db: single.db, logger });
        queue.register(job);
        // A campaign's backlog: a thousand sends waiting, each of its own chat, as the planner's statistics know them.
        await queue.enqueueMany(
          single.db,
          Array.from({ length: 1_000 }, (_, n) => ({ definition: job, payload: { n }, options: { orderKey: `chat-${n}` } })),
        );
        await queryRows(single.db, sql`analyze jobs`);
        for (let n = 0; n < 12; n++) expect(await queue.runDueJobsOnce(1)).toBe(1);
        // The claim of one job, by this queue (its lease literals name its job).
        const [plans] = await queryRows<{ generic: number; custom: number }>(
          single.db,
          sql`select coalesce(sum(generic_plans), 0)::int as generic, coalesce(sum(custom_plans), 0)::int as custom
              from pg_prepared_statements where statement ~ 'with due as.*test\.planned.*limit 1[^0-9]'`,
        );
        // PostgreSQL tries a few custom plans before it settles on the generic one; a parameter in the claim's LIMIT
        // kept it planning every claim.
        expect(plans!.generic, JSON.stringify(plans)).toBeGreaterThan(0);
        expect(plans!.custom, JSON.stringify(plans)).toBeLessThanOrEqual(5);
      } finally {
        await single.close();
      }
    });

    it('runs jobs of one order key one at a time in order, others beside them', async () => {
      const started: string[] = [];
      const firstMayFinish = deferred();
      const job = defineJob({
        name: 'test.ordered',
        payload: z.object({ id: z.string() }),
        handler: async ({ id }) => {
          started.push(id);
          if (id === 'chat-1 first') await firstMayFinish.promise;
        },
      });
      const queue = newQueue({ concurrency: 10 });
      queue.register(job);
      const ids: Record<string, string | null> = {};
      await database.db.transaction(async (tx) => {
        for (const id of ['chat-1 first', 'chat-1 second', 'chat-2 only', 'chat-1 third'])
          ids[id] = await queue.enqueue(tx, job, { id }, { orderKey: id.split(' ')[0] });
        ids.unordered = await queue.enqueue(tx, job, { id: 'unordered' });
      });
      queue.start();
      // The first of chat-1 holds its key; chat-2 and the unordered job run meanwhile, and the queue claims again after them.
      await waitFor(async () => (await jobRow(ids['chat-2 only']!)).status === 'completed' && (await jobRow(ids.unordered!)).status === 'completed');
      expect(await queue.runDueJobsOnce()).toBe(0);
      expect(started).toContain('chat-1 first');
      expect(started).not.toContain('chat-1 second');
      expect((await jobRow(ids['chat-1 second']!)).status).toBe('pending');

      firstMayFinish.resolve();
      await waitFor(async () => (await jobRow(ids['chat-1 third']!)).status === 'completed');
      expect(started.filter((id) => id.startsWith('chat-1'))).toEqual(['chat-1 first', 'chat-1 second', 'chat-1 third']);
    });

    it('an order key waits for an earlier job that is waiting to retry', async () => {
      let failures = 1;
      const started: string[] = [];
      const job = defineJob({
        name: 'test.ordered-retry',
        payload: z.object({ id: z.string() }),
        backoff: { baseMs: 60_000, maxMs: 60_000 },
        handler: async ({ id }) => {
          started.push(id);
          if (id === 'first' && failures-- > 0) throw new Error('provider busy');
        },
      });
      const queue = newQueue();
      queue.register(job);
      const first = await queue.enqueue(database.db, job, { id: 'first' }, { orderKey: 'chat' });
      const second = await queue.enqueue(database.db, job, { id: 'second' }, { orderKey: 'chat' });
      await queue.runDueJobsOnce();
      expect((await jobRow(first)).status).toBe('pending');
      expect(await queue.runDueJobsOnce()).toBe(0);
      expect((await jobRow(second)).status).toBe('pending');

      await database.db
        .update(jobs)
        .set({ runAt: sql`now()` })
        .where(eq(jobs.id, first!));
      await queue.drain();
      expect(started).toEqual(['first', 'first', 'second']);
    });

    it("with the background permits all held, a request's query still runs; a job's statement waits for a permit", async () => {
      const gate = gateOf(database.db);
      const holding: Array<ReturnType<typeof deferred>> = [];
      const inside = deferred();
      let entered = 0;
      const hold = defineJob({
        name: 'test.holds-a-permit',
        payload: z.object({ id: z.number() }),
        handler: async ({ id }) => {
          // A job transaction held open: it keeps its connection (PGlite: the one connection's turn is not taken
          // while idle) and its permit.
          await gate.enter().then(async (leave) => {
            entered++;
            if (entered === gate.backgroundPermits) inside.resolve();
            await holding[id]!.promise;
            leave();
          });
        },
      });
      const queue = newQueue({ concurrency: gate.backgroundPermits + 1 });
      queue.register(hold);
      for (let id = 0; id <= gate.backgroundPermits; id++) {
        holding.push(deferred());
        await queue.enqueue(database.db, hold, { id });
      }
      const run = queue.runDueJobsOnce();
      await inside.promise;
      expect(gate.backgroundInUse).toBe(gate.backgroundPermits);
      // The last job is waiting for a permit, not running its statement.
      expect(entered).toBe(gate.backgroundPermits);

      // A request is not background work: its query runs while every permit is held.
      const [row] = await queryRows<{ answer: number }>(database.db, sql`select 42 as answer`);
      expect(row!.answer).toBe(42);
      expect(entered).toBe(gate.backgroundPermits);

      holding.forEach((held) => held.resolve());
      await run;
      expect(entered).toBe(gate.backgroundPermits + 1);
      expect(gate.backgroundInUse).toBe(0);
    });
  });

  describe('operations (issue 17)', () => {
    it('hands a running job back when a stop passes its deadline: pending again, the attempt not counted, the late outcome ignored', async () => {
      const gate = deferred();
      const started = deferred();
      const runs: number[] = [];
      const slow = defineJob({
        name: 'test.slow',
        payload: z.object({}),
        handler: async (_payload, { attempt }) => {
          runs.push(attempt);
          if (runs.length > 1) return;
          started.resolve();
          await gate.promise;
        },
      });
      const stopping = newQueue({ workerId: 'stopping-worker' });
      stopping.register(slow);
      const id = await stopping.enqueue(database.db, slow, {});
      const abandoned = stopping.runDueJobsOnce();
      await started.promise;
      await stopping.stop({ timeoutMs: 0 });
      expect(await jobRow(id)).toMatchObject({ status: 'pending', attempts: 0, lockedBy: null, lockedUntil: null });

      const next = newQueue({ workerId: 'next-worker' });
      next.register(slow);
      await next.drain();
      expect(await jobRow(id)).toMatchObject({ status: 'completed', attempts: 1, lockedBy: 'next-worker' });
      // The first handler finishing late changes nothing.
      gate.resolve();
      await abandoned;
      expect(await jobRow(id)).toMatchObject({ status: 'completed', attempts: 1, lockedBy: 'next-worker' });
      expect(runs).toEqual([1, 1]);
    });

    it("records the payload's tenant and the request's id, and runs the job with them so the jobs it creates carry them on", async () => {
      const tenantId = '5b0cbd4e-7d4c-4a3f-9d44-1f8f0a2c9e11';
      const seen: Array<{ requestId?: string; jobId?: string }> = [];
      const queue = newQueue();
      const child = defineJob({
        name: 'test.child',
        payload: z.object({ tenantId: z.string() }),
        handler: async () => void seen.push({ ...currentLogContext() }),
      });
      const parent = defineJob({
        name: 'test.parent',
        payload: z.object({ tenantId: z.string() }),
        handler: async (payload) => {
          seen.push({ ...currentLogContext() });
          await queue.enqueue(database.db, child, payload);
        },
      });
      queue.register(child);
      queue.register(parent);
      const parentId = await runWithLogContext({ requestId: 'req-abc-123' }, () => queue.enqueue(database.db, parent, { tenantId }));
      await queue.drain();
      const rows = await database.db.select().from(jobs);
      expect(rows.map((row) => [row.name, row.tenantId, row.requestId]).sort()).toEqual([
        ['test.child', tenantId, 'req-abc-123'],
        ['test.parent', tenantId, 'req-abc-123'],
      ]);
      expect(seen[0]).toMatchObject({ requestId: 'req-abc-123', jobId: parentId });
      expect(seen[1]).toMatchObject({ requestId: 'req-abc-123' });
      // A payload without a (valid) tenant id is a platform job.
      const platformJob = defineJob({ name: 'test.platform', payload: z.object({ tenantId: z.string().optional() }), handler: async () => {} });
      queue.register(platformJob);
      expect(await jobRow(await queue.enqueue(database.db, platformJob, { tenantId: 'not-a-uuid' }))).toMatchObject({ tenantId: null, requestId: null });
    });

    it('runs a failed job once more on retryFailed, only within its tenant, and records when it finished', async () => {
      const tenantId = '5b0cbd4e-7d4c-4a3f-9d44-1f8f0a2c9e12';
      let failing = true;
      const runs: number[] = [];
      const flaky = defineJob({
        name: 'test.flaky',
        payload: z.object({ tenantId: z.string() }),
        maxAttempts: 2,
        backoff: { baseMs: 1, maxMs: 1 },
        handler: async (_payload, { attempt }) => {
          runs.push(attempt);
          if (failing) throw new Error('provider down');
        },
      });
      const queue = newQueue();
      queue.register(flaky);
      const id = await queue.enqueue(database.db, flaky, { tenantId });
      await queue.runDueJobsOnce();
      await new Promise((resolve) => setTimeout(resolve, 10));
      await queue.drain();
      const failed = await jobRow(id);
      expect(failed).toMatchObject({ status: 'failed', attempts: 2, lastError: 'provider down' });
      expect(failed.completedAt).toBeInstanceOf(Date);

      expect(await queue.retryFailed(id!, { tenantId: '5b0cbd4e-7d4c-4a3f-9d44-1f8f0a2c9e13' })).toBe(false);
      expect(await queue.retryFailed('not-an-id')).toBe(false);
      failing = false;
      expect(await queue.retryFailed(id!, { tenantId })).toBe(true);
      expect(await queue.retryFailed(id!, { tenantId })).toBe(false);
      await queue.drain();
      expect(await jobRow(id)).toMatchObject({ status: 'completed', attempts: 3 });
      expect(runs).toEqual([1, 2, 3]);

      // Retried and failing again, it fails for good at once: the retry is one run.
      failing = true;
      await database.db.update(jobs).set({ status: 'failed' }).where(eq(jobs.id, id!));
      await queue.retryFailed(id!);
      await queue.drain();
      expect(await jobRow(id)).toMatchObject({ status: 'failed', attempts: 4 });
    });

    it('keeps one pending row per periodic job across processes and queues the next run when one finishes', async () => {
      let runs = 0;
      const tick = defineJob({ name: 'test.tick', payload: z.object({}), handler: async () => void (runs += 1) });
      const first = newQueue({ workerId: 'first' });
      const second = newQueue({ workerId: 'second' });
      first.every(tick, 60_000);
      second.every(tick, 60_000);
      first.start();
      second.start();
      await waitFor(() => runs === 1);
      await waitFor(async () => (await database.db.select().from(jobs).where(eq(jobs.status, 'pending'))).length === 1);
      const rows = await database.db.select().from(jobs);
      expect(rows.map((row) => row.status).sort()).toEqual(['completed', 'pending']);
      const next = rows.find((row) => row.status === 'pending')!;
      expect(next.singletonKey).toBe('periodic:test.tick');
      expect(next.runAt.getTime() - Date.now()).toBeGreaterThan(50_000);
      expect(runs).toBe(1);
    });

    it('queues the next run of a periodic job as its run ends, so a process starting just then does not run it again', async () => {
      let runs = 0;
      const tick = defineJob({ name: 'test.tick', payload: z.object({}), handler: async () => void (runs += 1) });
      const second = newQueue({ workerId: 'second' });
      second.every(tick, 60_000);
      // The second process starts the moment the first has recorded its run's end (its observer is told then).
      const first = newQueue({ workerId: 'first', observer: { jobFinished: () => second.start() } });
      first.every(tick, 60_000);
      first.start();
      await waitFor(() => runs === 1);
      await waitFor(async () => (await database.db.select().from(jobs).where(eq(jobs.status, 'pending'))).length === 1);
      await second.runDueJobsOnce();
      await first.runDueJobsOnce();
      expect(runs).toBe(1);
      const rows = await database.db.select().from(jobs);
      expect(rows.map((row) => row.status).sort()).toEqual(['completed', 'pending']);
      expect(rows.find((row) => row.status === 'pending')!.runAt.getTime() - Date.now()).toBeGreaterThan(50_000);
    });

    it('reports each run to its observer and counts what the queue holds', async () => {
      const outcomes: string[] = [];
      const queue = newQueue({ observer: { jobFinished: (name, outcome, seconds) => void outcomes.push(`${name}:${outcome}:${seconds >= 0}`) } });
      const ok = defineJob({ name: 'test.ok', payload: z.object({}), handler: async () => {} });
      const bad = defineJob({ name: 'test.bad', payload: z.object({}), maxAttempts: 1, handler: async () => Promise.reject(new Error('no')) });
      queue.register(ok);
      queue.register(bad);
      await queue.enqueue(database.db, ok, {});
      await queue.enqueue(database.db, bad, {});
      await queue.enqueue(database.db, ok, {}, { delayMs: 60_000 });
      await database.db.insert(jobs).values({ name: 'test.ok', payload: {}, runAt: new Date(Date.now() - 30_000) });
      const before = await queue.stats();
      expect(before).toMatchObject({ due: 3, scheduled: 1, running: 0, failed: 0 });
      expect(before.oldestDueSeconds).toBeGreaterThan(25);
      await queue.drain();
      expect(outcomes.sort()).toEqual(['test.bad:failed:true', 'test.ok:completed:true', 'test.ok:completed:true']);
      expect(await queue.stats()).toMatchObject({ due: 0, scheduled: 1, running: 0, failed: 1, oldestDueSeconds: 0 });
    });
  });
});
