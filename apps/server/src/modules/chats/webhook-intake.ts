import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { webhookIntake, webhookRejections } from '../../../db/schema/index.ts';
import { queryRows, queryText, turningBetweenStatementsOf, type Db, type Tx } from '../../platform/db/database.ts';
import { gateOf } from '../../platform/db/database-gate.ts';
import { collectAfterCommit, runDeferred } from '../../platform/events/index.ts';
import type { Logger } from '../../platform/logger/logger.ts';
import { currentLogContext } from '../../platform/logger/log-context.ts';
import type { ProviderName, WebhookReceiver } from '../../messaging-providers/provider.ts';
import type { WebhookOutcome } from '../../platform/metrics/metrics.ts';
import { keptBody, type DeliveryKind } from './webhook-activity.ts';
import { isAnyOf } from '../../platform/db/array-params.ts';

/**
 * How many of a company's deliveries one transaction applies. A batch holds the embedded database's one connection
 * while it runs and, until turningBetweenStatementsOf, ran within one turn of the event loop, in which a server accepts
 * one new connection: at 200, connections opened in a burst of 5,000 webhooks at c = 200 waited up to 3 s to be
 * accepted; 100 with a turn after each of the batch's statements: p99 112–181 ms (once 532) in eight runs, with the
 * same throughput (decision 0015).
 */
export const INTAKE_BATCH = 100;
/** A status waits this many times (pauses of waitPauseAfter, about two minutes in all) for its message to be known. */
export const INTAKE_WAITS_FOR_MESSAGE = 60;
/** A delivery whose applying fails this many times is set aside as a rejection ('unapplied'). */
export const INTAKE_MAX_ATTEMPTS = 8;
/** How long a batch waits for the deliveries in flight before it starts (group commit)… */
export const INTAKE_GATHER_MS = 3;
/**
 * …and at most how long it keeps waiting while they keep coming: a batch costs about fifteen statements whatever its
 * size, so under steady traffic a few more milliseconds make batches several times larger (fewer statements per
 * delivery), while a lone delivery still starts after INTAKE_GATHER_MS.
 */
export const INTAKE_GATHER_MAX_MS = 20;
/** How soon a company's deliveries are tried again while another process applies its batch. */
export const INTAKE_BUSY_RETRY_MS = 25;
/** How often deliveries left waiting (a retry, a restart) are looked for. */
export const INTAKE_SWEEP_MS = 2_000;

export interface AppliedDelivery {
  outcome: Exclude<WebhookOutcome, 'refused'>;
  kinds: DeliveryKind[];
  /** A status for a message not known yet (its send has not stored the provider's id): apply it again shortly. */
  waitsForMessage: boolean;
  /** Socket events, emitted once the transaction that applied the delivery has committed. */
  afterCommit: Array<() => void | Promise<void>>;
}

export type IntakeRow = typeof webhookIntake.$inferSelect;

export interface IntakeDeliveryInput {
  tenantId: string;
  provider: ProviderName;
  body: Buffer;
  receivedAt: Date;
}

export interface WebhookIntakeOptions {
  db: Db;
  log: Pick<Logger, 'warn' | 'debug' | 'error'>;
  /** The company's webhook readers, resolved before the batch's transaction opens (nothing may use the pool inside it). */
  receiversOf(tenantId: string): Promise<((provider: ProviderName) => WebhookReceiver) | undefined>;
  /** Applies the rows in order in the batch's transaction, answering what became of each. */
  apply(tx: Tx, tenantId: string, receiverOf: (provider: ProviderName) => WebhookReceiver, rows: IntakeRow[]): Promise<AppliedDelivery[]>;
  /** What became of each delivery (metrics, the activity panel's counts). */
  onApplied(tenantId: string, applied: AppliedDelivery, receivedAt: Date): void;
  /** Jobs were enqueued in the batch's transaction: run them now. */
  afterCommit(): void;
  /** How long the webhook's answer waits for its delivery to be applied (0: it answers once the delivery is stored). */
  answerWaitMs: number;
  clock?: () => Date;
}

/**
 * The latest `process_after` that is due at `now`. The database stamps a stored delivery in microseconds and `now` has
 * milliseconds: a delivery stored earlier in the same millisecond would otherwise look due only in the future.
 */
const dueBy = (now: Date) => new Date(now.getTime() + 1);

/** A delivery as the webhook stores it. */
interface ArrivingDelivery {
  tenantId: string;
  provider: ProviderName;
  body: Buffer;
  bodyHash: string;
  receivedAt: Date;
  processAfter: Date;
  requestId: string | null;
}

/** At most this many deliveries per insert: the statement's text depends on its number of rows, and each is kept prepared. */
const DELIVERIES_PER_INSERT = 16;
const insertTexts = new Map<number, string>();
const INTAKE_COLUMNS = ['tenant_id', 'provider', 'body', 'body_hash', 'received_at', 'process_after', 'request_id'];

function insertTextFor(rows: number): string {
  let text = insertTexts.get(rows);
  if (!text) {
    const tuples = Array.from(
      { length: rows },
      (_, row) => `(${INTAKE_COLUMNS.map((_, column) => `$${row * INTAKE_COLUMNS.length + column + 1}`).join(', ')})`,
    );
    text = `insert into webhook_intake (${INTAKE_COLUMNS.join(', ')}) values ${tuples.join(', ')} on conflict do nothing returning id, tenant_id, body_hash`;
    insertTexts.set(rows, text);
  }
  return text;
}

/**
 * Stores deliveries that arrived together, skipping those already waiting (a provider's byte-identical retry):
 * answers the stored ones' ids. Written by hand, the bodies as bytes: through drizzle, and the bodies as hex text in
 * text arrays, the insert of five deliveries took 425 µs on PGlite, against 271.
 */
async function storeDeliveries(db: Db, rows: readonly ArrivingDelivery[]): Promise<Array<{ id: number; tenantId: string; bodyHash: string }>> {
  const stored: Array<{ id: number; tenantId: string; bodyHash: string }> = [];
  for (let start = 0; start < rows.length; start += DELIVERIES_PER_INSERT) {
    const chunk = rows.slice(start, start + DELIVERIES_PER_INSERT);
    const params = chunk.flatMap((row) => [row.tenantId, row.provider, row.body, row.bodyHash, row.receivedAt, row.processAfter, row.requestId]);
    const answered = await queryText<{ id: number | string; tenant_id: string; body_hash: string }>(db, insertTextFor(chunk.length), params);
    for (const row of answered) stored.push({ id: Number(row.id), tenantId: row.tenant_id, bodyHash: row.body_hash });
  }
  return stored;
}

/**
 * Waits INTAKE_GATHER_MS, then again while more deliveries were stored meanwhile (`stored` counts them), for at most
 * INTAKE_GATHER_MAX_MS in all.
 */
export async function gatherArrivals(
  stored: () => number,
  clock: { now(): number; sleep(ms: number): Promise<void> } = {
    now: () => performance.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  },
): Promise<void> {
  const started = clock.now();
  for (;;) {
    const before = stored();
    await clock.sleep(INTAKE_GATHER_MS);
    if (stored() === before || clock.now() - started + INTAKE_GATHER_MS > INTAKE_GATHER_MAX_MS) return;
  }
}

const pauseAfter = (attempts: number) => Math.min(30_000, 500 * 2 ** attempts);

/**
 * How long a status waits for its message after `attempts` waits: 0.5 s, 1 s, then every 2 s. Its send stores the
 * provider's id a moment after the provider answered, later under load; pauses that kept doubling (8 s, 16 s…) left a
 * status that came early waiting long after its message was known (a loaded CI run's Meta journey waited over 20 s).
 */
export const waitPauseAfter = (attempts: number) => Math.min(2_000, 500 * 2 ** attempts);

/**
 * The webhook's durable intake (docs/decisions/0015). `accept` stores a delivery (a provider's byte-identical retry
 * of a waiting one is stored once) and the webhook answers; the worker then applies each company's deliveries in
 * arrival order, many in one transaction, one company at a time in this process and, through an advisory lock, across
 * processes. Deliveries left behind by a crash, a status waiting for its message, or a failure to retry are found by
 * a sweep.
 */
export class WebhookIntake {
  private readonly draining = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  /** Deliveries stored per company so far (a counter that only grows), so a gathering batch sees more arriving. */
  private readonly storedCount = new Map<string, number>();
  private readonly waiters = new Map<number, () => void>();
  private arriving: Array<{ row: ArrivingDelivery; resolve: (id: number | undefined) => void; reject: (error: unknown) => void }> = [];
  private arrivingFlush: NodeJS.Immediate | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: WebhookIntakeOptions) {}

  /**
   * Stores a delivery and answers once it is stored (or was already, by a retry of a waiting one). Deliveries that
   * arrive together are stored by one statement (group commit): on the embedded database, one statement per webhook
   * cost more than applying it.
   */
  async accept(delivery: IntakeDeliveryInput): Promise<void> {
    const { answerWaitMs } = this.options;
    const id = await new Promise<number | undefined>((resolve, reject) => {
      this.arriving.push({
        row: {
          tenantId: delivery.tenantId,
          provider: delivery.provider,
          body: delivery.body,
          bodyHash: createHash('sha256').update(delivery.body).digest('hex'),
          receivedAt: delivery.receivedAt,
          // Stamped by the clock that decides what is due (not the database's now()): an app clock behind the
          // database's — a skewed host, a test clock — would otherwise leave new deliveries waiting that long.
          processAfter: this.now(),
          requestId: currentLogContext()?.requestId ?? null,
        },
        resolve,
        reject,
      });
      this.arrivingFlush ??= setImmediate(() => void this.storeArriving());
    });
    // A retry of a delivery that still waits here: it is already taken.
    if (id === undefined) return;
    this.storedCount.set(delivery.tenantId, (this.storedCount.get(delivery.tenantId) ?? 0) + 1);
    const applied = answerWaitMs > 0 ? this.appliedOrLater(id, answerWaitMs) : undefined;
    this.schedule(delivery.tenantId);
    await applied;
  }

  private async storeArriving(): Promise<void> {
    const arriving = this.arriving;
    this.arriving = [];
    this.arrivingFlush = undefined;
    try {
      const stored = await storeDeliveries(
        this.options.db,
        arriving.map(({ row }) => row),
      );
      const ids = new Map(stored.map((row) => [`${row.tenantId}:${row.bodyHash}`, row.id]));
      for (const { row, resolve } of arriving) {
        const key = `${row.tenantId}:${row.bodyHash}`;
        // The same delivery twice in one statement: the first one is stored, the other is its retry.
        resolve(ids.get(key));
        ids.delete(key);
      }
    } catch (error) {
      for (const { reject } of arriving) reject(error);
    }
  }

  /** Applies what waits now and keeps looking for deliveries left waiting. */
  start(): void {
    this.stopped = false;
    void this.sweep();
    this.sweepTimer = setInterval(() => void this.sweep(), INTAKE_SWEEP_MS);
    this.sweepTimer.unref();
  }

  /** Stops taking up companies; what is being applied finishes (and commits) first. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweepTimer);
    await Promise.allSettled([...this.draining.values()]);
  }

  /** Applies every delivery that is due, for every company (tests, and the sweep). */
  async drain(): Promise<void> {
    await this.sweep();
    while (this.draining.size > 0) await Promise.allSettled([...this.draining.values()]);
  }

  private appliedOrLater(id: number, waitMs: number) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(id);
        resolve();
      }, waitMs);
      this.waiters.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private schedule(tenantId: string): void {
    if (this.stopped) return;
    if (this.draining.has(tenantId)) {
      this.again.add(tenantId);
      return;
    }
    const run = this.drainTenant(tenantId)
      .catch((error: unknown) => this.options.log.error({ err: error, tenantId }, 'webhook intake: applying deliveries failed'))
      .finally(() => {
        this.draining.delete(tenantId);
        if (this.again.delete(tenantId)) this.schedule(tenantId);
        else this.storedCount.delete(tenantId);
      });
    this.draining.set(tenantId, run);
  }

  private async drainTenant(tenantId: string): Promise<void> {
    for (;;) {
      // Let the deliveries in flight land, so one transaction takes them together (group commit).
      await gatherArrivals(() => this.storedCount.get(tenantId) ?? 0);
      this.again.delete(tenantId);
      // Background work: the batch takes the database gate's permits, so requests keep their share of the connections.
      const claimed = await gateOf(this.options.db).runInBackground(() => turningBetweenStatementsOf(() => this.applyBatch(tenantId)));
      if (this.stopped) return;
      // Another process applies this company's deliveries now: ours wait for its batch, not for the next sweep.
      if (claimed === 'busy') await new Promise((resolve) => setTimeout(resolve, INTAKE_BUSY_RETRY_MS));
      else if (claimed < INTAKE_BATCH && !this.again.has(tenantId)) return;
    }
  }

  private async sweep(): Promise<void> {
    if (this.stopped) return;
    const now = this.now();
    try {
      const due = await this.options.db
        .selectDistinct({ tenantId: webhookIntake.tenantId })
        .from(webhookIntake)
        .where(lte(webhookIntake.processAfter, dueBy(now)))
        .limit(1_000);
      for (const { tenantId } of due) this.schedule(tenantId);
    } catch (error) {
      this.options.log.warn({ err: error }, 'webhook intake: could not look for waiting deliveries');
    }
  }

  private now() {
    return this.options.clock?.() ?? new Date();
  }

  /**
   * One transaction: the company's due deliveries, oldest first. They are applied side by side in it; should one fail,
   * the transaction is rolled back and run again with each delivery under its own savepoint, so only the failing one
   * is held back. Answers how many deliveries it took, or 'busy' when another process holds the company's batch.
   */
  private async applyBatch(tenantId: string): Promise<number | 'busy'> {
    const receiverOf = await this.options.receiversOf(tenantId);
    const now = this.now();
    // What the batch's listeners defer (announcements) runs once it has committed.
    let applying: { result: Batch; deferred: Parameters<typeof runDeferred>[0] };
    try {
      applying = await collectAfterCommit(() => this.runBatch(tenantId, receiverOf, now, false));
    } catch (error) {
      this.options.log.debug({ err: error, tenantId }, 'webhook intake: a delivery failed; applying one by one');
      applying = await collectAfterCommit(() => this.runBatch(tenantId, receiverOf, now, true));
    }
    const batch = applying.result;
    for (const { row, applied } of batch.results) {
      for (const announce of applied.afterCommit) await announce();
      this.options.onApplied(tenantId, applied, row.receivedAt);
    }
    await runDeferred(applying.deferred, (error) => this.options.log.warn({ err: error, tenantId }, 'work deferred after a webhook batch failed'));
    // Answered whatever became of them: applied, waiting for a retry, or set aside.
    for (const id of batch.taken) this.waiters.get(id)?.();
    if (batch.results.length > 0) this.options.afterCommit();
    return batch.busy ? 'busy' : batch.taken.length;
  }

  private runBatch(tenantId: string, receiverOf: ((provider: ProviderName) => WebhookReceiver) | undefined, now: Date, isolate: boolean) {
    const { db, apply } = this.options;
    return db.transaction(async (tx): Promise<Batch> => {
      const batch: Batch = { taken: [], results: [], busy: false };
      // One applier per company across processes: its deliveries stay in order.
      const [lock] = await queryRows<{ taken: boolean }>(tx, sql`select pg_try_advisory_xact_lock(hashtext(${`webhook-intake:${tenantId}`})) as taken`);
      if (!lock?.taken) return { ...batch, busy: true };
      const rows = await tx
        .select()
        .from(webhookIntake)
        .where(and(eq(webhookIntake.tenantId, tenantId), lte(webhookIntake.processAfter, dueBy(now))))
        .orderBy(asc(webhookIntake.id))
        .limit(INTAKE_BATCH)
        .for('update', { skipLocked: true });
      batch.taken = rows.map((row) => row.id);
      if (rows.length === 0) return batch;
      // A company deleted meanwhile: its deliveries have nowhere to go.
      if (!receiverOf) {
        await tx.delete(webhookIntake).where(isAnyOf(webhookIntake.id, batch.taken));
        return batch;
      }
      const finished: number[] = [];
      const settle = async (row: IntakeRow, applied: AppliedDelivery) => {
        batch.results.push({ row, applied });
        if (applied.waitsForMessage && row.attempts + 1 < INTAKE_WAITS_FOR_MESSAGE)
          await postpone(tx, row, now, waitPauseAfter(row.attempts), 'waiting for the message of a status');
        else finished.push(row.id);
      };
      if (!isolate) {
        const applied = await apply(tx, tenantId, receiverOf, rows);
        for (const [index, row] of rows.entries()) await settle(row, applied[index]!);
      } else {
        for (const row of rows) {
          let applied: AppliedDelivery;
          try {
            [applied] = (await tx.transaction((savepoint) => apply(savepoint, tenantId, receiverOf, [row]))) as [AppliedDelivery];
          } catch (error) {
            this.options.log.warn({ err: error, tenantId, intakeId: row.id, attempt: row.attempts + 1 }, 'webhook intake: a delivery could not be applied');
            if (await this.setAsideOrRetry(tx, tenantId, row, now, error)) finished.push(row.id);
            continue;
          }
          await settle(row, applied);
        }
      }
      if (finished.length > 0) await tx.delete(webhookIntake).where(isAnyOf(webhookIntake.id, finished));
      return batch;
    });
  }

  /** A delivery whose applying failed: tried again later, or set aside after the last try (answers true then). */
  private async setAsideOrRetry(tx: Tx, tenantId: string, row: IntakeRow, now: Date, error: unknown): Promise<boolean> {
    const reason = error instanceof Error ? error.message : String(error);
    if (row.attempts + 1 < INTAKE_MAX_ATTEMPTS) {
      await postpone(tx, row, now, pauseAfter(row.attempts), reason);
      return false;
    }
    await tx.insert(webhookRejections).values({
      tenantId,
      kind: 'unapplied',
      reason: `No se pudo aplicar tras ${INTAKE_MAX_ATTEMPTS} intentos: ${reason}`.slice(0, 1_000),
      rawBody: keptBody(row.body.toString('utf8')),
      receivedAt: row.receivedAt,
    });
    return true;
  }
}

interface Batch {
  busy: boolean;
  taken: number[];
  results: Array<{ row: IntakeRow; applied: AppliedDelivery }>;
}

async function postpone(tx: Tx, row: IntakeRow, now: Date, pauseMs: number, reason: string) {
  await tx
    .update(webhookIntake)
    .set({ attempts: row.attempts + 1, processAfter: new Date(now.getTime() + pauseMs), lastError: reason.slice(0, 1_000) })
    .where(eq(webhookIntake.id, row.id));
}
