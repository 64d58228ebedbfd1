import { and, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import { batchCountSlices, batchRecipients, ROWS_PER_COUNT_SLICE } from '../../../db/schema/index.ts';
import { queryRows, type DbExecutor } from '../../platform/db/database.ts';
import { isAnyOf } from '../../platform/db/array-params.ts';

/** A 5,000-row batch moves its counts thousands of times; the dashboard needs a few refreshes a second at most. */
export const BATCH_UPDATE_THROTTLE_MS = 500;

/**
 * Tells the tenant (`batch_updated`, tenant-wide: it carries no contact data) that a batch's counts or status
 * may have changed: at once for the first change, then at most once per `throttleMs` per batch. The listeners
 * in bulk-sends.listeners.ts call it for the domain events that move a batch's counts.
 */
export interface BatchUpdates {
  changed(tenantId: string, batchId: string): void;
  close(): void;
}

/** The first change of a batch is announced at once; more changes within `throttleMs` make one more announcement at its end. */
export function throttlePerBatch(emit: (tenantId: string, batchId: string) => void, throttleMs: number) {
  /** Per batch: the quiet window after an emit, and whether another change came in during it. */
  const windows = new Map<string, { timer: NodeJS.Timeout; pending: boolean }>();
  const changed = (tenantId: string, batchId: string) => {
    const open = windows.get(batchId);
    if (open) {
      open.pending = true;
      return;
    }
    emit(tenantId, batchId);
    const timer = setTimeout(() => {
      const window = windows.get(batchId);
      windows.delete(batchId);
      if (window?.pending) changed(tenantId, batchId);
    }, throttleMs);
    timer.unref();
    windows.set(batchId, { timer, pending: false });
  };
  return {
    changed,
    close: () => {
      windows.forEach((window) => clearTimeout(window.timer));
      windows.clear();
    },
  };
}

export function createBatchUpdates(options: { emitToTenant: (tenantId: string, batchId: string) => void; throttleMs?: number }): BatchUpdates {
  return throttlePerBatch(options.emitToTenant, options.throttleMs ?? BATCH_UPDATE_THROTTLE_MS);
}

/** A new batch's count slices, one for each thousand of its file's rows that has a row. */
export async function addCountSlices(tx: DbExecutor, batchId: string, rowNumbers: readonly number[]) {
  const slices = [...new Set(rowNumbers.map((rowNumber) => Math.floor(rowNumber / ROWS_PER_COUNT_SLICE)))];
  if (slices.length > 0) await tx.insert(batchCountSlices).values(slices.map((slice) => ({ batchId, slice })));
}

/**
 * Counts a change on the slices that hold the batch rows `rows` names (a condition on `batch_recipients`), in the
 * transaction that moves their counts: the dashboard's next read recounts those slices and keeps the last recount of
 * every other one (issue 16, decision 0022). One statement locks its slices in one order, so two of them over
 * overlapping slices wait for each other instead of deadlocking. Two transactions that each count several times can
 * still meet in opposite orders: PostgreSQL then fails one, which the webhook intake or the job queue runs again.
 */
export async function countChanges(tx: DbExecutor, rows: SQL) {
  await queryRows(
    tx,
    sql`
    with moved as (
      select s.batch_id, s.slice from batch_count_slices s
      where (s.batch_id, s.slice) in (
        select ${batchRecipients.batchId}, ${batchRecipients.rowNumber} / ${ROWS_PER_COUNT_SLICE}::int from ${batchRecipients} where ${rows})
      order by s.batch_id, s.slice
      for update)
    update batch_count_slices s set changes = s.changes + 1
    from moved
    where s.batch_id = moved.batch_id and s.slice = moved.slice`,
  );
}

/** These rows (a chunk job finished them). */
export const rowsWithIds = (recipientIds: readonly string[]) => isAnyOf(batchRecipients.id, recipientIds);
/** The rows that sent these messages. */
export const rowsOfMessages = (tenantId: string, messageIds: readonly string[]) =>
  and(eq(batchRecipients.tenantId, tenantId), isAnyOf(batchRecipients.messageId, messageIds))!;
/** The sent rows of these chats: a customer's reply there counts for each of them. */
export const sentRowsOfChats = (tenantId: string, cardIds: readonly string[]) =>
  and(eq(batchRecipients.tenantId, tenantId), isAnyOf(batchRecipients.cardId, cardIds), isNotNull(batchRecipients.messageId))!;

/** Of these messages, the ones a batch sent, with that batch: only their statuses move a batch's counts. */
export async function batchesOfMessages(executor: DbExecutor, tenantId: string, messageIds: string[]): Promise<Map<string, string[]>> {
  const rows = await executor
    .select({ messageId: batchRecipients.messageId, batchId: batchRecipients.batchId })
    .from(batchRecipients)
    .where(and(eq(batchRecipients.tenantId, tenantId), isAnyOf(batchRecipients.messageId, messageIds)));
  return new Map(rows.map((row) => [row.messageId!, [row.batchId]]));
}

/** Messages whose batch (or lack of one) a process remembers at most; the oldest are forgotten first. */
const REMEMBERED_MESSAGES = 50_000;

export type MessageBatches = ReturnType<typeof createMessageBatches>;

/**
 * Which batch sent each message, as this process learnt it: from the chunk job that stored it (`remember`, at its
 * batch.row-finished) or from one lookup. A batch message is linked to its batch in the transaction that creates it,
 * and its statuses are published later (its send job runs after that commit), so an answer, "no batch" included,
 * never changes: each send and each status run then costs no batch lookup of its own (issue 16).
 */
export function createMessageBatches(limit = REMEMBERED_MESSAGES) {
  const known = new Map<string, string | null>();
  const remember = (messageId: string, batchId: string | null) => {
    known.delete(messageId);
    known.set(messageId, batchId);
    if (known.size > limit) known.delete(known.keys().next().value!);
  };
  return {
    remember,
    /** `batchesOfMessages`, asking the database only about messages not remembered. */
    of: async (executor: DbExecutor, tenantId: string, messageIds: string[]): Promise<Map<string, string[]>> => {
      const unknown = messageIds.filter((messageId) => !known.has(messageId));
      if (unknown.length > 0) {
        const found = await batchesOfMessages(executor, tenantId, unknown);
        for (const messageId of unknown) remember(messageId, found.get(messageId)?.[0] ?? null);
      }
      const batches = new Map<string, string[]>();
      for (const messageId of messageIds) {
        const batchId = known.get(messageId);
        if (batchId) batches.set(messageId, [batchId]);
      }
      return batches;
    },
  };
}

/** Of these chats, the ones a batch message went to, with those batches: only there may a customer's message count as a reply. */
export async function batchesOfChats(executor: DbExecutor, tenantId: string, cardIds: string[]): Promise<Map<string, string[]>> {
  const rows = await executor
    .selectDistinct({ cardId: batchRecipients.cardId, batchId: batchRecipients.batchId })
    .from(batchRecipients)
    .where(and(eq(batchRecipients.tenantId, tenantId), isAnyOf(batchRecipients.cardId, cardIds), isNotNull(batchRecipients.messageId)));
  const batches = new Map<string, string[]>();
  for (const { cardId, batchId } of rows) batches.set(cardId!, [...(batches.get(cardId!) ?? []), batchId]);
  return batches;
}
