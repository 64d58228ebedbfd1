import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { jobs } from '../../../db/schema/index.ts';
import { queryRows, type Db, type DbExecutor } from '../db/database.ts';
import { gateOf, type DatabaseGate } from '../db/database-gate.ts';
import { currentLogContext, runWithLogContext } from '../logger/log-context.ts';
import { JOB_DEFAULTS, retryDelayMs, type JobBatching, type JobDefinition, type JobFailure } from './job-definition.ts';
import { collectAfterCommit, runDeferred } from '../events/after-commit.ts';

type LogFn = (details: object, message: string) => void;
/** The part of pino the queue uses, so tests and callers may pass any logger of that shape. */
export interface QueueLogger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

/** How each run ended, for metrics: completed, failed and retried later, or failed for good. */
export type JobOutcome = 'completed' | 'retried' | 'failed';

/** Told of every run's outcome and duration (the metrics' job histogram and failure counter). */
export interface JobObserver {
  jobFinished(name: string, outcome: JobOutcome, seconds: number): void;
}

/** What the queue holds right now (metrics): due jobs waiting for a worker and how long the oldest has waited. */
export interface QueueStats {
  due: number;
  scheduled: number;
  running: number;
  failed: number;
  /** Seconds since the oldest due job became due; 0 when none is due. */
  oldestDueSeconds: number;
}

export interface JobQueueOptions {
  db: Db;
  logger: QueueLogger;
  observer?: JobObserver;
  /** Written to `locked_by`; unique per process so a stale worker cannot finish another's claim. */
  workerId?: string;
  pollIntervalMs?: number;
  /** Handlers this worker runs at once (their database statements share the gate's background permits). */
  concurrency?: number;
}

/** Handlers a worker runs at once unless told otherwise: enough to keep several sends in flight while the provider answers. */
export const DEFAULT_JOB_CONCURRENCY = 10;
/** Jobs due within this are woken for by a timer; later ones are found by the poll, at most one interval late. */
const DUE_WAKE_MAX_MS = 30_000;
const DUE_WAKE_MARGIN_MS = 10;

export interface EnqueueOptions {
  /** When the job becomes due; wins over delayMs. */
  runAt?: Date;
  /** Due this long after the database's now(). */
  delayMs?: number;
  /** At most one pending or running job holds a key; enqueue answers null while one does. */
  singletonKey?: string;
  /** The request the job comes from, when it is not the one running (a batch applies many requests' deliveries). */
  requestId?: string | null;
  /**
   * Jobs with the same order key run one at a time in the order they were enqueued (e.g. `chat:<id>` for the sends of
   * one chat): a later one waits while an earlier one is pending (a retry included) or running.
   */
  orderKey?: string;
}

/** A row as the claim statement returns it (raw SQL, so snake_case). */
interface ClaimedJob {
  id: string;
  name: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
  request_id: string | null;
}

/** A job `every` runs: one pending row under the singleton key `periodic:<name>`, queued again when a run ends. */
interface PeriodicJob {
  definition: JobDefinition;
  everyMs: number;
}

/** One claim of one job: the attempt number tells this run apart from any later claim of the same row. */
interface Claim {
  id: string;
  attempt: number;
}

const msFromNow = (ms: number) => sql`now() + ${ms}::float8 * interval '1 millisecond'`;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The company a payload names (`tenantId`, as every tenant job and domain event has), so its failures show on its panel. */
function tenantIdOf(payload: unknown): string | null {
  const tenantId = payload !== null && typeof payload === 'object' ? (payload as { tenantId?: unknown }).tenantId : undefined;
  return typeof tenantId === 'string' && UUID.test(tenantId) ? tenantId : null;
}

export class JobQueue {
  readonly workerId: string;
  private readonly db: Db;
  private readonly gate: DatabaseGate;
  private readonly logger: QueueLogger;
  private readonly pollIntervalMs: number;
  private readonly concurrency: number;
  private readonly observer: JobObserver | undefined;
  private readonly definitions = new Map<string, JobDefinition>();
  /** Periodic jobs (`every`): one pending row each, re-queued when a run finishes. */
  private readonly periodic = new Map<string, PeriodicJob>();
  private readonly running = new Set<Promise<void>>();
  /** The claims whose handlers are running now, so a stop past its deadline can hand them back. */
  private readonly claims = new Map<string, Claim>();
  private readonly heartbeats = new Set<NodeJS.Timeout>();
  private pollLoop: Promise<void> | undefined;
  private stopping = false;
  private wakeRequested = false;
  private enqueuedInTransaction = false;
  private wakePollLoop = () => {};
  /** Completed claims waiting for the statement that records them (see `complete`). */
  private completions: Array<{ claim: Claim; recorded: (held: boolean) => void; failed: (error: unknown) => void }> = [];
  private completing = false;
  /** Resolves with the unsubscribe of the jobs-enqueued signal once subscribed (PostgreSQL: once `LISTEN` answered). */
  private subscription: Promise<() => Promise<void>> | undefined;

  constructor(options: JobQueueOptions) {
    this.db = options.db;
    this.gate = gateOf(options.db);
    this.logger = options.logger;
    this.observer = options.observer;
    this.workerId = options.workerId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.concurrency = options.concurrency ?? DEFAULT_JOB_CONCURRENCY;
  }

  register(definition: JobDefinition): void {
    const existing = this.definitions.get(definition.name);
    if (existing && existing !== definition) throw new Error(`job "${definition.name}" is already registered`);
    this.definitions.set(definition.name, definition);
  }

  /**
   * Records a job through `executor`, so it commits or rolls back with the caller's transaction.
   * Throws when the payload does not match the definition; answers null when `singletonKey` is taken.
   */
  async enqueue<Payload extends z.ZodType>(
    executor: DbExecutor,
    definition: JobDefinition<Payload>,
    payload: z.input<Payload>,
    options: EnqueueOptions = {},
  ): Promise<string | null> {
    const [id] = await this.insertJobs(executor, [{ definition, payload, options }]);
    if (!id) {
      this.logger.debug({ job: definition.name, singletonKey: options.singletonKey }, 'job already queued under this singleton key');
      return null;
    }
    return id;
  }

  /**
   * Records several jobs in one statement (a domain event's listeners): each as `enqueue` would, a taken singleton key
   * skipped. Answers how many were recorded.
   */
  async enqueueMany(executor: DbExecutor, entries: ReadonlyArray<{ definition: JobDefinition; payload: unknown; options?: EnqueueOptions }>): Promise<number> {
    return entries.length === 0 ? 0 : (await this.insertJobs(executor, entries)).length;
  }

  private async insertJobs(
    executor: DbExecutor,
    entries: ReadonlyArray<{ definition: JobDefinition; payload: unknown; options?: EnqueueOptions }>,
  ): Promise<string[]> {
    const requestId = currentLogContext()?.requestId ?? null;
    const rows = await executor
      .insert(jobs)
      .values(
        entries.map(({ definition, payload, options = {} }) => {
          const validPayload = definition.payload.parse(payload);
          return {
            name: definition.name,
            payload: validPayload,
            runAt: options.runAt ?? msFromNow(options.delayMs ?? 0),
            maxAttempts: definition.maxAttempts,
            singletonKey: options.singletonKey,
            orderKey: options.orderKey,
            tenantId: tenantIdOf(validPayload),
            requestId: options.requestId === undefined ? requestId : options.requestId,
          };
        }),
      )
      .onConflictDoNothing({ target: jobs.singletonKey, where: sql`status in ('pending', 'running')` })
      .returning({ id: jobs.id });
    // Inside an open transaction the rows are not visible until it commits: the workers are woken then, by
    // wakeAfterCommit (a request that answered) or by the finishing job whose transaction enqueued them. On
    // PostgreSQL the insert trigger's NOTIFY, delivered at the commit, wakes every process, this one included: the
    // next wakeAfterCommit may come from another unit while this transaction is still open.
    if (rows.length > 0) {
      if (executor === this.db) this.gate.announceJobsEnqueued();
      else this.enqueuedInTransaction = true;
      this.wakeWhenDue(entries);
    }
    return rows.map((row) => row.id);
  }

  /**
   * A job due soon (a paced batch's next chunk, a debounced answer) runs when it is due, not up to a poll interval
   * later: a bulk send's chunk that waited for its number's tokens lost the ones that came in meanwhile beyond a full
   * bucket. Should the caller's transaction roll back, the wake finds nothing to claim.
   */
  private wakeWhenDue(entries: ReadonlyArray<{ options?: EnqueueOptions }>): void {
    const now = Date.now();
    const delays = entries
      .map(({ options = {} }) => (options.runAt ? options.runAt.getTime() - now : (options.delayMs ?? 0)))
      .filter((delay) => delay > 0 && delay <= DUE_WAKE_MAX_MS);
    if (delays.length === 0) return;
    // A few ms past the due time, so the claim, on the database's clock, finds it due.
    setTimeout(() => this.wake(), Math.min(...delays) + DUE_WAKE_MARGIN_MS).unref();
  }

  /** The caller's transactions have committed (its request answered): run what they enqueued now, not at the next poll. */
  wakeAfterCommit(): void {
    if (!this.enqueuedInTransaction) return;
    this.enqueuedInTransaction = false;
    this.gate.announceJobsEnqueued();
  }

  /**
   * Runs `definition` (whose payload must accept `{}`) every `everyMs`: one pending row under a fixed singleton key,
   * queued again when a run finishes, so several processes never run it side by side. Call before `start`.
   */
  every(definition: JobDefinition, everyMs: number): void {
    this.register(definition);
    this.periodic.set(definition.name, { definition, everyMs });
  }

  start(): void {
    if (this.pollLoop) return;
    this.stopping = false;
    this.subscription = this.gate
      .onJobsEnqueued(() => this.wake())
      .catch((error: unknown) => {
        this.logger.error({ err: error, workerId: this.workerId }, 'job queue could not listen for new jobs; it finds them by polling');
        return async () => {};
      });
    this.pollLoop = this.schedulePeriodic().then(() => this.poll());
  }

  /** Resolves once the worker hears of jobs enqueued elsewhere (PostgreSQL: its `LISTEN` is in place). */
  async listening(): Promise<void> {
    await this.subscription;
  }

  /** The worker claims and runs jobs (readiness). */
  isRunning(): boolean {
    return this.pollLoop !== undefined && !this.stopping;
  }

  /** What the queue holds now, read in one statement (metrics). */
  async stats(): Promise<QueueStats> {
    const [row] = await queryRows<{ due: number; scheduled: number; running: number; failed: number; oldest: number | null }>(
      this.db,
      sql`
      select count(*) filter (where status = 'pending' and run_at <= now())::int as due,
             count(*) filter (where status = 'pending' and run_at > now())::int as scheduled,
             count(*) filter (where status = 'running')::int as running,
             count(*) filter (where status = 'failed')::int as failed,
             extract(epoch from now() - min(run_at) filter (where status = 'pending' and run_at <= now()))::float8 as oldest
      from jobs where status in ('pending', 'running', 'failed')`,
    );
    return {
      due: row?.due ?? 0,
      scheduled: row?.scheduled ?? 0,
      running: row?.running ?? 0,
      failed: row?.failed ?? 0,
      oldestDueSeconds: Math.max(0, Number(row?.oldest ?? 0)),
    };
  }

  /**
   * Runs a job that failed for good once more (the activity panel's Reintentar): pending now, with one attempt
   * left. Answers false when no failed job has this id (in this tenant, when given).
   */
  async retryFailed(id: string, scope: { tenantId?: string } = {}): Promise<boolean> {
    if (!UUID.test(id)) return false;
    const retried = await this.db
      .update(jobs)
      .set({ status: 'pending', runAt: sql`now()`, maxAttempts: sql`${jobs.attempts} + 1`, completedAt: null, lockedBy: null, lockedUntil: null })
      .where(and(eq(jobs.id, id), eq(jobs.status, 'failed'), scope.tenantId ? eq(jobs.tenantId, scope.tenantId) : undefined))
      .returning({ id: jobs.id, name: jobs.name });
    if (retried.length === 0) return false;
    this.logger.info({ jobId: id, job: retried[0]!.name }, 'failed job queued again by hand');
    this.wake();
    return true;
  }

  /**
   * Stops claiming and waits up to `timeoutMs` for running handlers. The claims of handlers still running after
   * that are handed back (pending again, the attempt not counted), so another worker or the next start runs them
   * at once instead of after their lease; this worker can no longer record their outcome. With `release: false` they
   * are abandoned as a crash would leave them: their leases run out and another worker reclaims them then.
   */
  async stop({ timeoutMs = 10_000, release = true }: { timeoutMs?: number; release?: boolean } = {}): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.pollLoop;
    this.pollLoop = undefined;
    const unsubscribe = await this.subscription;
    this.subscription = undefined;
    await unsubscribe?.();
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      Promise.all(this.running).then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (!finished) {
      this.logger.warn({ workerId: this.workerId, running: this.running.size }, 'job queue stopped before its running jobs finished');
      this.heartbeats.forEach((heartbeat) => clearInterval(heartbeat));
      this.heartbeats.clear();
      if (release) await this.releaseClaims();
      else this.claims.clear();
    }
  }

  private async releaseClaims(): Promise<void> {
    for (const claim of this.claims.values()) {
      try {
        const released = await this.db
          .update(jobs)
          .set({ status: 'pending', runAt: sql`now()`, attempts: sql`${jobs.attempts} - 1`, lockedBy: null, lockedUntil: null })
          .where(this.heldBy(claim))
          .returning({ id: jobs.id });
        if (released.length > 0) this.logger.warn({ jobId: claim.id, workerId: this.workerId }, 'job lease released at shutdown; it will run again');
      } catch (error) {
        this.logger.warn({ err: error, jobId: claim.id }, 'could not release a job lease at shutdown; it runs again when the lease expires');
      }
    }
    this.claims.clear();
  }

  /** Makes sure each periodic job has its pending row (several processes may ask at once: the singleton key keeps one). */
  private async schedulePeriodic(): Promise<void> {
    for (const { definition } of this.periodic.values()) {
      try {
        await this.enqueue(this.db, definition, {}, { singletonKey: `periodic:${definition.name}` });
      } catch (error) {
        this.logger.error({ err: error, job: definition.name }, 'could not schedule a periodic job');
      }
    }
  }

  /** Claims what is due now (up to `limit`), runs it and waits for the outcome; answers how many ran. */
  async runDueJobsOnce(limit = this.concurrency): Promise<number> {
    const units = await this.gate.runInBackground(() => this.claimUnits(limit));
    await Promise.all(units.map((unit) => this.track(this.runUnit(unit))));
    return units.reduce((count, unit) => count + unit.length, 0);
  }

  /** Runs due jobs until none is left due; jobs scheduled later stay pending. For tests and scripts. */
  async drain({ timeoutMs = 10_000 }: { timeoutMs?: number } = {}): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((await this.runDueJobsOnce()) > 0) {
      if (Date.now() > deadline) throw new Error(`job queue still had due jobs after ${timeoutMs} ms`);
    }
  }

  private async poll(): Promise<void> {
    while (!this.stopping) {
      this.wakeRequested = false;
      const free = this.concurrency - this.running.size;
      if (free > 0) {
        try {
          const units = await this.gate.runInBackground(() => this.claimUnits(free));
          units.forEach((unit) => void this.track(this.runUnit(unit)));
        } catch (error) {
          this.logger.error({ err: error, workerId: this.workerId }, 'job queue could not claim jobs');
        }
      }
      // Every finished job wakes the loop, so a full batch is followed by the next claim as soon as a slot frees.
      await this.sleep(this.pollIntervalMs);
    }
  }

  private wake(): void {
    this.wakeRequested = true;
    this.wakePollLoop();
  }

  private sleep(ms: number): Promise<void> {
    if (this.wakeRequested) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakePollLoop = done;
    });
  }

  private track(run: Promise<void>): Promise<void> {
    const tracked: Promise<void> = run
      .catch((error: unknown) => this.logger.error({ err: error, workerId: this.workerId }, 'job queue could not record a job outcome'))
      .finally(() => {
        this.running.delete(tracked);
        this.wake();
      });
    this.running.add(tracked);
    return tracked;
  }

  /**
   * One statement, no transaction held while handlers run (PGlite has a single connection). An expired
   * lease is claimable again: that is how a job outlives a crashed process. A job with an order key waits while an
   * earlier job of its key is unfinished, so those run one at a time, in order, across workers and processes.
   *
   * Due jobs and expired leases are looked up apart, each in `jobs_due_idx` order and stopping at `limit`: one
   * condition joining them with `or` read every due job, checked its order key and sorted them all for each claim,
   * 1.5 ms with 300 sends waiting on PGlite against 0.3 ms, and growing with the backlog of a large campaign.
   *
   * The limit and the leases are written into the statement, not passed as parameters: with a parameter as its
   * `limit`, PostgreSQL judged its generic plan costlier and planned every claim afresh (on PGlite 0.54 ms of planning
   * for 0.24 ms of work). One text per limit (at most `concurrency` of them) is kept prepared with its plan.
   */
  private claim(limit: number, name?: string): Promise<ClaimedJob[]> {
    const rows = sql.raw(String(Math.max(1, Math.trunc(limit))));
    const ofName = name === undefined ? sql`` : sql` and j.name = ${name}`;
    /** Up to `limit` jobs in `state`, oldest due first, whose order key lets them run now. */
    const claimableWhere = (state: SQL) => sql`
        select j.id, j.run_at from jobs j
        where ${state} and (j.order_key is null or not exists (
            select 1 from jobs earlier
            where earlier.order_key = j.order_key and earlier.seq < j.seq and earlier.status in ('pending', 'running')))
        order by j.run_at
        limit ${rows}
        for update skip locked`;
    return queryRows<ClaimedJob>(
      this.db,
      sql`
      with due as (${claimableWhere(sql`j.status = 'pending' and j.run_at <= now()${ofName}`)}),
        expired as (${claimableWhere(sql`j.status = 'running' and j.locked_until < now()${ofName}`)})
      update jobs
      set status = 'running', locked_by = ${this.workerId}, attempts = attempts + 1,
          locked_until = now() + ${this.leaseMsByName()} * interval '1 millisecond'
      where id in (select id from (select id, run_at from due union all select id, run_at from expired) claimable order by run_at limit ${rows})
      returning id, name, payload, attempts, max_attempts, request_id`,
    );
  }

  /**
   * Claims up to `free` units of work: a lone job, or a batch of jobs of one batching name. Each batching job the first
   * claim brings seeds a batch; when that claim came back full (more may be due), a claim of that name alone fills
   * the batches up. So there are never more units than free slots, and a lone send on an idle queue costs no
   * second claim.
   */
  private async claimUnits(free: number): Promise<ClaimedJob[][]> {
    const claimed = await this.claim(free);
    const units: ClaimedJob[][] = [];
    const seedsByName = new Map<string, ClaimedJob[]>();
    for (const job of claimed) {
      if (this.definitions.get(job.name)?.batching) seedsByName.set(job.name, [...(seedsByName.get(job.name) ?? []), job]);
      else units.push([job]);
    }
    for (const [name, seeds] of seedsByName) {
      const { maxSize } = this.definitions.get(name)!.batching!;
      const more = claimed.length === free && maxSize > 1 ? await this.claim(seeds.length * (maxSize - 1), name) : [];
      const batch = [...seeds, ...more];
      for (let start = 0; start < batch.length; start += maxSize) units.push(batch.slice(start, start + maxSize));
    }
    return units;
  }

  /** Each job's lease by its name, as literals (see `claim`); job names are identifiers of this code base. */
  private leaseMsByName(): SQL {
    const literal = (name: string) => `'${name.replaceAll("'", "''")}'`;
    const cases = [...this.definitions.values()].map((definition) => `when ${literal(definition.name)} then ${Number(definition.leaseMs)}::float8`);
    const fallback = `${Number(JOB_DEFAULTS.leaseMs)}::float8`;
    return sql.raw(cases.length === 0 ? fallback : `(case name ${cases.join(' ')} else ${fallback} end)`);
  }

  private runUnit(unit: ClaimedJob[]): Promise<void> {
    const batching = this.definitions.get(unit[0]!.name)?.batching;
    return unit.length > 1 && batching ? this.runBatch(unit, batching) : this.runClaimed(unit[0]!);
  }

  /** Runs the claimed job with its request id and its own id on every log line, and on the jobs and events it creates. */
  private runClaimed(job: ClaimedJob): Promise<void> {
    const context = { requestId: job.request_id ?? undefined, jobId: job.id, job: job.name };
    // Background work: its statements take the gate's permits, so requests keep their share of the connections.
    return this.gate.runInBackground(() => runWithLogContext(context, () => this.runAndRecord(job)));
  }

  private async runAndRecord(job: ClaimedJob): Promise<void> {
    const started = performance.now();
    const outcome = await this.runInContext(job);
    if (outcome) this.observer?.jobFinished(job.name, outcome, (performance.now() - started) / 1000);
  }

  /** The job's definition and checked payload, or why it cannot run. */
  private admit(job: ClaimedJob): { definition: JobDefinition; payload: unknown } | { refusal: string } {
    const definition = this.definitions.get(job.name);
    if (!definition) return { refusal: `no handler is registered for job "${job.name}"` };
    if (job.attempts > job.max_attempts) return { refusal: 'the worker running the final attempt stopped before finishing (lease expired)' };
    const parsed = definition.payload.safeParse(job.payload);
    if (!parsed.success) return { refusal: `invalid payload: ${z.prettifyError(parsed.error)}` };
    return { definition, payload: parsed.data };
  }

  private async runInContext(job: ClaimedJob): Promise<JobOutcome | undefined> {
    const claim: Claim = { id: job.id, attempt: job.attempts };
    const admitted = this.admit(job);
    if ('refusal' in admitted) return this.fail(claim, job.name, admitted.refusal);
    const { definition, payload } = admitted;
    this.claims.set(claim.id, claim);

    this.logger.debug({ jobId: job.id, job: job.name, attempt: job.attempts }, 'job started');
    const stopHeartbeat = this.keepLeases([claim], definition.leaseMs);
    let failure: JobFailure | undefined;
    try {
      // What the handler defers (announcements of what it committed) runs once it has finished; a failed run drops it.
      const { deferred } = await collectAfterCommit(() => definition.handler(payload, { jobId: job.id, attempt: job.attempts }));
      await runDeferred(deferred, (error) => this.logger.warn({ err: error, jobId: job.id, job: job.name }, 'work deferred after a job failed'));
    } catch (error) {
      failure = { error };
    } finally {
      stopHeartbeat();
    }
    return this.recordOutcome(job, claim, definition, failure);
  }

  /** Runs several claimed jobs of one name through their batch handler; each job's outcome is recorded as a lone job's. */
  private runBatch(batch: ClaimedJob[], batching: JobBatching<unknown>): Promise<void> {
    const requestIds = new Set(batch.map((job) => job.request_id));
    const context = {
      // The jobs and events the batch creates carry the request id only when every job came from the same one.
      requestId: requestIds.size === 1 ? (batch[0]!.request_id ?? undefined) : undefined,
      jobId: batch.map((job) => job.id).join(','),
      job: batch[0]!.name,
    };
    return this.gate.runInBackground(() => runWithLogContext(context, () => this.runBatchInContext(batch, batching)));
  }

  private async runBatchInContext(batch: ClaimedJob[], batching: JobBatching<unknown>): Promise<void> {
    const started = performance.now();
    const finished = (name: string, outcome: JobOutcome | undefined) => {
      if (outcome) this.observer?.jobFinished(name, outcome, (performance.now() - started) / 1000);
    };
    const items: Array<{ job: ClaimedJob; claim: Claim; payload: unknown }> = [];
    let admittedDefinition: JobDefinition | undefined;
    for (const job of batch) {
      const claim: Claim = { id: job.id, attempt: job.attempts };
      const admitted = this.admit(job);
      if ('refusal' in admitted) {
        finished(job.name, await this.fail(claim, job.name, admitted.refusal));
        continue;
      }
      admittedDefinition = admitted.definition;
      items.push({ job, claim, payload: admitted.payload });
      this.claims.set(claim.id, claim);
    }
    if (!admittedDefinition) return;
    const definition = admittedDefinition;

    this.logger.debug({ jobIds: items.map(({ job }) => job.id), job: definition.name }, 'job batch started');
    const stopHeartbeat = this.keepLeases(
      items.map(({ claim }) => claim),
      definition.leaseMs,
    );
    let failures: ReadonlyArray<JobFailure | undefined>;
    try {
      const { result, deferred } = await collectAfterCommit(() =>
        batching.handle(items.map(({ job, payload }) => ({ payload, ctx: { jobId: job.id, attempt: job.attempts } }))),
      );
      failures = result;
      // A batch that answered has committed each completed job's work, whatever became of the others.
      await runDeferred(deferred, (error) => this.logger.warn({ err: error, job: definition.name }, 'work deferred after a job batch failed'));
    } catch (error) {
      failures = items.map(() => ({ error }));
    } finally {
      stopHeartbeat();
    }
    await Promise.all(items.map(async ({ job, claim }, index) => finished(job.name, await this.recordOutcome(job, claim, definition, failures[index]))));
  }

  /** Records how a run of a claimed job ended: completed, failed and retried later, or failed for good. */
  private async recordOutcome(job: ClaimedJob, claim: Claim, definition: JobDefinition, failure: JobFailure | undefined): Promise<JobOutcome | undefined> {
    // Handed back at shutdown meanwhile: the outcome is no longer this worker's to record.
    if (!this.claims.delete(claim.id)) return undefined;

    if (!failure) {
      const periodic = this.periodic.get(job.name);
      if (periodic) await this.finishPeriodic(claim, { status: 'completed', completedAt: sql`now()`, lockedUntil: null }, periodic);
      else if (!(await this.complete(claim))) this.warnLeaseLost(claim);
      this.logger.debug({ jobId: job.id, job: job.name, attempt: job.attempts }, 'job completed');
      return 'completed';
    } else if (job.attempts < job.max_attempts) {
      const delayMs = retryDelayMs(definition.backoff, job.attempts);
      const lastError = messageOf(failure.error);
      await this.finish(claim, { status: 'pending', runAt: msFromNow(delayMs), lastError, lockedBy: null, lockedUntil: null });
      this.logger.warn({ err: failure.error, jobId: job.id, job: job.name, attempt: job.attempts, retryInMs: delayMs }, 'job failed; will retry');
      return 'retried';
    } else {
      return this.fail(claim, job.name, messageOf(failure.error), failure.error);
    }
  }

  private async fail(claim: Claim, name: string, lastError: string, error?: unknown): Promise<JobOutcome> {
    const changes = { status: 'failed' as const, lastError, lockedUntil: null, completedAt: sql`now()` };
    const periodic = this.periodic.get(name);
    if (periodic) await this.finishPeriodic(claim, changes, periodic);
    else await this.finish(claim, changes);
    this.logger.error({ err: error, jobId: claim.id, job: name, attempt: claim.attempt, lastError }, 'job failed for good');
    return 'failed';
  }

  /** Rows change only while this worker still holds this claim, so a worker whose lease lapsed cannot overwrite. */
  private heldBy(claim: Claim) {
    return and(eq(jobs.id, claim.id), eq(jobs.status, 'running'), eq(jobs.lockedBy, this.workerId), eq(jobs.attempts, claim.attempt));
  }

  /** Records the claim's changes through `executor`; answers whether this worker still held it. */
  private async finish(claim: Claim, changes: PgUpdateSetSource<typeof jobs>, executor: DbExecutor = this.db): Promise<boolean> {
    const updated = await executor.update(jobs).set(changes).where(this.heldBy(claim)).returning({ id: jobs.id });
    if (updated.length === 0) this.warnLeaseLost(claim);
    return updated.length > 0;
  }

  /**
   * Ends a run of a periodic job and queues its next run in one transaction. Done apart, a process starting between
   * the two found neither a pending nor a running row under the job's singleton key and queued a run due at once: two
   * runs back to back.
   */
  private async finishPeriodic(claim: Claim, changes: PgUpdateSetSource<typeof jobs>, periodic: PeriodicJob): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await this.finish(claim, changes, tx))) return;
      await this.enqueue(tx, periodic.definition, {}, { singletonKey: `periodic:${periodic.definition.name}`, delayMs: periodic.everyMs });
    });
    this.wakeAfterCommit();
  }

  private warnLeaseLost(claim: Claim): void {
    this.logger.warn({ jobId: claim.id, attempt: claim.attempt, workerId: this.workerId }, 'job lease was lost before it finished; outcome not recorded');
  }

  /**
   * Records a completed job; answers whether this worker still held the claim. Completions that arrive while the
   * previous statement runs are recorded together by the next one: under load (PGlite's one connection busy) many
   * jobs cost one statement, when idle each is recorded at once.
   */
  private complete(claim: Claim): Promise<boolean> {
    return new Promise((recorded, failed) => {
      this.completions.push({ claim, recorded, failed });
      if (!this.completing) void this.recordCompletions();
    });
  }

  private async recordCompletions(): Promise<void> {
    this.completing = true;
    while (this.completions.length > 0) {
      const batch = this.completions.splice(0);
      try {
        const claims = sql.join(
          batch.map(({ claim }) => sql`(${claim.id}::uuid, ${claim.attempt}::int)`),
          sql`, `,
        );
        const rows = await queryRows<{ id: string }>(
          this.db,
          sql`update jobs set status = 'completed', completed_at = now(), locked_until = null
              where status = 'running' and locked_by = ${this.workerId} and (id, attempts) in (${claims})
              returning id`,
        );
        const held = new Set(rows.map((row) => row.id));
        batch.forEach(({ claim, recorded }) => recorded(held.has(claim.id)));
      } catch (error) {
        batch.forEach(({ failed }) => failed(error));
      }
    }
    this.completing = false;
  }

  /** Extends the claims' leases every leaseMs/3 while their handler runs; answers the function that stops it. */
  private keepLeases(claims: Claim[], leaseMs: number): () => void {
    const held = new Set(claims);
    const heartbeat = setInterval(() => {
      for (const claim of held)
        void this.extendLease(claim, leaseMs).then((kept) => {
          if (kept) return;
          held.delete(claim);
          if (held.size === 0) clearInterval(heartbeat);
        });
    }, leaseMs / 3);
    this.heartbeats.add(heartbeat);
    return () => {
      clearInterval(heartbeat);
      this.heartbeats.delete(heartbeat);
    };
  }

  /** Answers false once the lease is lost; a failed statement keeps trying at the next beat. */
  private async extendLease(claim: Claim, leaseMs: number): Promise<boolean> {
    try {
      const extended = await this.db
        .update(jobs)
        .set({ lockedUntil: msFromNow(leaseMs) })
        .where(this.heldBy(claim))
        .returning({ id: jobs.id });
      if (extended.length > 0) return true;
      this.logger.warn({ jobId: claim.id, attempt: claim.attempt, workerId: this.workerId }, 'job lease was lost while its handler ran');
      return false;
    } catch (error) {
      this.logger.warn({ err: error, jobId: claim.id }, 'could not extend a job lease');
      return true;
    }
  }
}
