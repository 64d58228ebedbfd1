import type { DomainEvent, DomainEventType } from '@embudo/contracts/events/index';
import type { Db, DbExecutor, Tx } from '../../platform/db/database.ts';
import { defineListener } from '../../platform/events/index.ts';
import { batchesOfChats, countChanges, createMessageBatches, sliceOfRow, type BatchSlice, type BatchUpdates } from './batch-updates.ts';

/**
 * The batches a transaction has already given an announcement: the webhook intake applies a run of statuses and
 * replies in one transaction, publishing them one by one, and one announcement per batch is as good as one per event
 * (its job runs after the commit, when every change of the transaction is there to count).
 */
const announcedIn = new WeakMap<Tx, Set<string>>();

/**
 * The batches each selected event moves, as its transaction found them: the listener is handled after that commit in
 * this process with the same event object, so it announces them without asking again. An event handled by a job
 * (published outside a unit) is a copy, absent here, and its batches are looked up.
 */
const batchesFound = new WeakMap<DomainEvent, string[]>();

const batchIdsOf = (slices: readonly BatchSlice[]) => [...new Set(slices.map((slice) => slice.batchId))];

/**
 * Of events published in one transaction, the first that moves each batch, found with one statement per publish
 * (`selectRelevant`), which then counts a change on the slices of every row the events move; and, once handled, the
 * batches an event moves (`batchesMoved`): as its transaction found them, else looked up.
 */
function perBatch<T extends DomainEventType>(
  keyOf: (event: DomainEvent<T>) => string,
  slicesOf: (executor: DbExecutor, tenantId: string, keys: string[]) => Promise<Map<string, BatchSlice[]>>,
) {
  return {
    selectRelevant: async (tx: Tx, tenantId: string, events: ReadonlyArray<DomainEvent<T>>) => {
      const slicesByKey = await slicesOf(tx, tenantId, [...new Set(events.map(keyOf))]);
      const announced = announcedIn.get(tx) ?? new Set<string>();
      announcedIn.set(tx, announced);
      const relevant = events.filter((event) => {
        const fresh = batchIdsOf(slicesByKey.get(keyOf(event)) ?? []).filter((batchId) => !announced.has(batchId));
        fresh.forEach((batchId) => announced.add(batchId));
        if (fresh.length > 0) batchesFound.set(event, fresh);
        return fresh.length > 0;
      });
      // Every row moved counts, even in a batch announced already: its slice may be another one.
      await countChanges(tx, [...slicesByKey.values()].flat());
      return relevant;
    },
    batchesMoved: async (db: Db, event: DomainEvent<T>) =>
      batchesFound.get(event) ?? batchIdsOf((await slicesOf(db, event.tenantId, [keyOf(event)])).get(keyOf(event)) ?? []),
  };
}

/**
 * The batch dashboard follows what moves its counts: a row leaving `pending`, a status of a batch message,
 * a customer's reply on a chat a batch wrote to. Announcing twice is harmless (the page refetches), so these
 * listeners only read and announce, with no receipts, in the process that made the change once its work is done
 * (no job: a job per accepted send cost four statements); a missed announcement is caught up by the next change.
 */
export function createBulkSendListeners(deps: { db: Db; updates: BatchUpdates }) {
  const announce = (tenantId: string, batchIds: readonly string[] | undefined) => batchIds?.forEach((batchId) => deps.updates.changed(tenantId, batchId));
  const messageBatches = createMessageBatches();
  const statusOfBatchMessage = perBatch<'message.status-changed'>((event) => event.payload.messageId, messageBatches.of);
  const replyOnBatchChat = perBatch<'customer-message.stored'>((event) => event.payload.cardId, batchesOfChats);
  return [
    defineListener({
      name: 'bulk-sends.progress-on-row-finished',
      receipts: false,
      delivery: 'after-commit',
      event: 'batch.row-finished',
      // The slice's rows finish together: one announcement per batch is as good as one per row. Each sent row's
      // message is remembered with its batch and the slice of its row, so its statuses need no lookup.
      selectRelevant: async (tx, _tenantId, events) => {
        const rows: BatchSlice[] = [];
        for (const { payload } of events) {
          const row = { batchId: payload.batchId, slice: sliceOfRow(payload.rowNumber) };
          if (payload.messageId) messageBatches.remember(payload.messageId, row);
          rows.push(row);
        }
        const batches = new Set<string>();
        const relevant = events.filter((event) => !batches.has(event.payload.batchId) && Boolean(batches.add(event.payload.batchId)));
        await countChanges(tx, rows);
        return relevant;
      },
      handle: async (event) => announce(event.tenantId, [event.payload.batchId]),
    }),
    defineListener({
      name: 'bulk-sends.progress-on-message-status',
      receipts: false,
      delivery: 'after-commit',
      event: 'message.status-changed',
      selectRelevant: statusOfBatchMessage.selectRelevant,
      handle: async (event) => announce(event.tenantId, await statusOfBatchMessage.batchesMoved(deps.db, event)),
    }),
    defineListener({
      name: 'bulk-sends.progress-on-customer-reply',
      receipts: false,
      delivery: 'after-commit',
      event: 'customer-message.stored',
      selectRelevant: replyOnBatchChat.selectRelevant,
      handle: async (event) => announce(event.tenantId, await replyOnBatchChat.batchesMoved(deps.db, event)),
    }),
  ];
}
