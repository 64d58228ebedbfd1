import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { batchCountSlices, batchRecipients, ROWS_PER_COUNT_SLICE } from '../../../db/schema/index.ts';
import type { DbExecutor } from '../../platform/db/database.ts';
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

/** The slice of a batch's counts that holds a row of its file (decision 0022). */
export interface BatchSlice {
  batchId: string;
  slice: number;
}

/** The slice that holds the file's row `rowNumber`. */
export const sliceOfRow = (rowNumber: number) => Math.floor(rowNumber / ROWS_PER_COUNT_SLICE);

/** A new batch's count slices, one for each thousand of its file's rows that has a row. */
export async function addCountSlices(tx: DbExecutor, batchId: string, rowNumbers: readonly number[]) {
  const slices = [...new Set(rowNumbers.map(sliceOfRow))];
  if (slices.length > 0) await tx.insert(batchCountSlices).values(slices.map((slice) => ({ batchId, slice })));
}

/**
 * Counts a change on these slices in the transaction that moves their counts: the dashboard's next read recounts
 * them and keeps the last recount of every other one (issue 16, decision 0022). The callers know each row's slice
 * (from the chunk job, or from the lookup that found its batch): finding them again here through `batch_recipients`
 * cost 0.65 ms a statement on PGlite.
 *
 * The slices are named as two lists, batches and slice numbers, so PostgreSQL plans the statement once: pairs
 * joined from `unnest` had it plan every call afresh (its generic plan looked costlier), 0.4 ms of each. When the rows
 * span several batches, a few slices more may be counted, which only has the next read recount them too. Most
 * transactions count one slice (a send, a status); two that count the same slices in opposite orders deadlock, and
 * PostgreSQL then fails one, which the webhook intake or the job queue runs again.
 */
export async function countChanges(tx: DbExecutor, slices: readonly BatchSlice[]) {
  if (slices.length === 0) return;
  await tx
    .update(batchCountSlices)
    .set({ changes: sql`${batchCountSlices.changes} + 1` })
    .where(
      and(
        isAnyOf(batchCountSlices.batchId, [...new Set(slices.map((slice) => slice.batchId))]),
        isAnyOf(batchCountSlices.slice, [...new Set(slices.map((slice) => slice.slice))]),
      ),
    );
}

/** Of these messages, the ones a batch sent, with the slice of their row: only their statuses move a batch's counts. */
export async function batchesOfMessages(executor: DbExecutor, tenantId: string, messageIds: string[]): Promise<Map<string, BatchSlice[]>> {
  const rows = await executor
    .select({ messageId: batchRecipients.messageId, batchId: batchRecipients.batchId, rowNumber: batchRecipients.rowNumber })
    .from(batchRecipients)
    .where(and(eq(batchRecipients.tenantId, tenantId), isAnyOf(batchRecipients.messageId, messageIds)));
  return new Map(rows.map((row) => [row.messageId!, [{ batchId: row.batchId, slice: sliceOfRow(row.rowNumber) }]]));
}

/** Messages whose batch (or lack of one) a process remembers at most; the oldest are forgotten first. */
const REMEMBERED_MESSAGES = 50_000;

export type MessageBatches = ReturnType<typeof createMessageBatches>;

/**
 * Which batch sent each message, and the slice of its row, as this process learnt it: from the chunk job that stored
 * it (`remember`, at its batch.row-finished) or from one lookup. A batch message is linked to its batch in the
 * transaction that creates it, and its statuses are published later (its send job runs after that commit), so an
 * answer, "no batch" included, never changes: each send and each status run then costs no batch lookup of its own
 * (issue 16).
 */
export function createMessageBatches(limit = REMEMBERED_MESSAGES) {
  const known = new Map<string, BatchSlice | null>();
  const remember = (messageId: string, row: BatchSlice | null) => {
    known.delete(messageId);
    known.set(messageId, row);
    if (known.size > limit) known.delete(known.keys().next().value!);
  };
  return {
    remember,
    /** `batchesOfMessages`, asking the database only about messages not remembered. */
    of: async (executor: DbExecutor, tenantId: string, messageIds: string[]): Promise<Map<string, BatchSlice[]>> => {
      const unknown = messageIds.filter((messageId) => !known.has(messageId));
      if (unknown.length > 0) {
        const found = await batchesOfMessages(executor, tenantId, unknown);
        for (const messageId of unknown) remember(messageId, found.get(messageId)?.[0] ?? null);
      }
      const batches = new Map<string, BatchSlice[]>();
      for (const messageId of messageIds) {
        const row = known.get(messageId);
        if (row) batches.set(messageId, [row]);
      }
      return batches;
    },
  };
}

/**
 * Of these chats, the ones a batch message went to, with the slices of those rows: only there may a customer's
 * message count as a reply, for each of them.
 */
export async function batchesOfChats(executor: DbExecutor, tenantId: string, cardIds: string[]): Promise<Map<string, BatchSlice[]>> {
  // One row per batch that wrote to the chat (a batch sends a phone once); a repeated slice is counted once anyway.
  const rows = await executor
    .select({ cardId: batchRecipients.cardId, batchId: batchRecipients.batchId, rowNumber: batchRecipients.rowNumber })
    .from(batchRecipients)
    .where(and(eq(batchRecipients.tenantId, tenantId), isAnyOf(batchRecipients.cardId, cardIds), isNotNull(batchRecipients.messageId)));
  const batches = new Map<string, BatchSlice[]>();
  for (const { cardId, batchId, rowNumber } of rows) batches.set(cardId!, [...(batches.get(cardId!) ?? []), { batchId, slice: sliceOfRow(rowNumber) }]);
  return batches;
}
