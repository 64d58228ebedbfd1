import { createHash } from 'node:crypto';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { webhookIntake, webhookRejections } from '../../../db/schema/index.ts';
import { queryRows, type Db, type Tx } from '../../platform/db/database.ts';
import type { Logger } from '../../platform/logger/logger.ts';
import { currentLogContext, runWithLogContext } from '../../platform/logger/log-context.ts';
import type { ProviderName, WebhookReceiver } from '../../messaging-providers/provider.ts';
import type { WebhookOutcome } from '../../platform/metrics/metrics.ts';
import { keptBody, type DeliveryKind } from './webhook-activity.ts';

/** How many of a company's deliveries one transaction applies. */
export const INTAKE_BATCH = 200;
/** A status waits this many times (growing pauses, about two minutes in all) for its message to be known. */
export const INTAKE_WAITS_FOR_MESSAGE = 8;
/** A delivery whose applying fails this many times is set aside as a rejection ('unapplied'). */
export const INTAKE_MAX_ATTEMPTS = 8;
/** How long a batch waits for the deliveries in flight before it starts (group commit). */
export const INTAKE_GATHER_MS = 3;
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
  apply(tx: Tx, tenantId: string, receiver: WebhookReceiver, row: IntakeRow): Promise<AppliedDelivery>;
  /** What became of each delivery (metrics, the activity panel's counts). */
  onApplied(tenantId: string, applied: AppliedDelivery, receivedAt: Date): void;
  /** Jobs were enqueued in the batch's transaction: run them now. */
  afterCommit(): void;
  /** How long the webhook's answer waits for its delivery to be applied (0: it answers once the delivery is stored). */
  answerWaitMs: number;
  clock?: () => Date;
}

const pauseAfter = (attempts: number) => Math.min(30_000, 500 * 2 ** attempts);

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
  private readonly waiters = new Map<number, () => void>();
  private sweepTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: WebhookIntakeOptions) {}

  async accept(delivery: IntakeDeliveryInput): Promise<void> {
    const { db, answerWaitMs } = this.options;
    const [row] = await db
      .insert(webhookIntake)
      .values({
        tenantId: delivery.tenantId,
        provider: delivery.provider,
        body: delivery.body,
        bodyHash: createHash('sha256').update(delivery.body).digest('hex'),
        receivedAt: delivery.receivedAt,
        requestId: currentLogContext()?.requestId ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: webhookIntake.id });
    // A retry of a delivery that still waits here: it is already taken.
    if (!row) return;
    const applied = answerWaitMs > 0 ? this.appliedOrLater(row.id, answerWaitMs) : undefined;
    this.schedule(delivery.tenantId);
    await applied;
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
      });
    this.draining.set(tenantId, run);
  }

  private async drainTenant(tenantId: string): Promise<void> {
    for (;;) {
      // Let the deliveries in flight land, so one transaction takes them together (group commit).
      await new Promise((resolve) => setTimeout(resolve, INTAKE_GATHER_MS));
      this.again.delete(tenantId);
      const claimed = await this.applyBatch(tenantId);
      if (claimed < INTAKE_BATCH && !this.again.has(tenantId)) return;
      if (this.stopped) return;
    }
  }

  private async sweep(): Promise<void> {
    if (this.stopped) return;
    const now = this.now();
    try {
      const due = await this.options.db
        .selectDistinct({ tenantId: webhookIntake.tenantId })
        .from(webhookIntake)
        .where(lte(webhookIntake.processAfter, now))
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
   * is held back. Answers how many deliveries it took.
   */
  private async applyBatch(tenantId: string): Promise<number> {
    const receiverOf = await this.options.receiversOf(tenantId);
    const now = this.now();
    let batch: Batch;
    try {
      batch = await this.runBatch(tenantId, receiverOf, now, false);
    } catch (error) {
      this.options.log.debug({ err: error, tenantId }, 'webhook intake: a delivery failed; applying one by one');
      batch = await this.runBatch(tenantId, receiverOf, now, true);
    }
    for (const { row, applied } of batch.results) {
      for (const announce of applied.afterCommit) await announce();
      this.options.onApplied(tenantId, applied, row.receivedAt);
    }
    // Answered whatever became of them: applied, waiting for a retry, or set aside.
    for (const id of batch.taken) this.waiters.get(id)?.();
    if (batch.results.length > 0) this.options.afterCommit();
    return batch.taken.length;
  }

  private runBatch(tenantId: string, receiverOf: ((provider: ProviderName) => WebhookReceiver) | undefined, now: Date, isolate: boolean) {
    const { db, apply } = this.options;
    return db.transaction(async (tx): Promise<Batch> => {
      const batch: Batch = { taken: [], results: [] };
      // One applier per company across processes: its deliveries stay in order.
      const [lock] = await queryRows<{ taken: boolean }>(tx, sql`select pg_try_advisory_xact_lock(hashtext(${`webhook-intake:${tenantId}`})) as taken`);
      if (!lock?.taken) return batch;
      const rows = await tx
        .select()
        .from(webhookIntake)
        .where(and(eq(webhookIntake.tenantId, tenantId), lte(webhookIntake.processAfter, now)))
        .orderBy(asc(webhookIntake.id))
        .limit(INTAKE_BATCH)
        .for('update', { skipLocked: true });
      batch.taken = rows.map((row) => row.id);
      if (rows.length === 0) return batch;
      // A company deleted meanwhile: its deliveries have nowhere to go.
      if (!receiverOf) {
        await tx.delete(webhookIntake).where(inArray(webhookIntake.id, batch.taken));
        return batch;
      }
      const finished: number[] = [];
      for (const row of rows) {
        // What applying it enqueues carries the id of the request that brought it, not of the one that started the batch.
        const applyRow = (executor: Tx) =>
          runWithLogContext({ requestId: row.requestId ?? undefined }, () => apply(executor, tenantId, receiverOf(row.provider), row));
        let applied: AppliedDelivery;
        if (!isolate) applied = await applyRow(tx);
        else {
          try {
            applied = await tx.transaction(applyRow);
          } catch (error) {
            this.options.log.warn({ err: error, tenantId, intakeId: row.id, attempt: row.attempts + 1 }, 'webhook intake: a delivery could not be applied');
            if (await this.setAsideOrRetry(tx, tenantId, row, now, error)) finished.push(row.id);
            continue;
          }
        }
        batch.results.push({ row, applied });
        if (applied.waitsForMessage && row.attempts + 1 < INTAKE_WAITS_FOR_MESSAGE) await postpone(tx, row, now, 'waiting for the message of a status');
        else finished.push(row.id);
      }
      if (finished.length > 0) await tx.delete(webhookIntake).where(inArray(webhookIntake.id, finished));
      return batch;
    });
  }

  /** A delivery whose applying failed: tried again later, or set aside after the last try (answers true then). */
  private async setAsideOrRetry(tx: Tx, tenantId: string, row: IntakeRow, now: Date, error: unknown): Promise<boolean> {
    const reason = error instanceof Error ? error.message : String(error);
    if (row.attempts + 1 < INTAKE_MAX_ATTEMPTS) {
      await postpone(tx, row, now, reason);
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
  taken: number[];
  results: Array<{ row: IntakeRow; applied: AppliedDelivery }>;
}

async function postpone(tx: Tx, row: IntakeRow, now: Date, reason: string) {
  await tx
    .update(webhookIntake)
    .set({ attempts: row.attempts + 1, processAfter: new Date(now.getTime() + pauseAfter(row.attempts)), lastError: reason.slice(0, 1_000) })
    .where(eq(webhookIntake.id, row.id));
}
