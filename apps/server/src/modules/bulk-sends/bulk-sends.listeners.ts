import type { Db } from '../../platform/db/database.ts';
import { defineListener, relevantWhere } from '../../platform/events/index.ts';
import { batchesOfChat, batchesOfMessage, batchMessages, chatsWrittenByBatches, type BatchUpdates } from './batch-updates.ts';

/**
 * The batch dashboard follows what moves its counts: a row leaving `pending`, a status of a batch message,
 * a customer's reply on a chat a batch wrote to. Announcing twice is harmless (the page refetches), so these
 * listeners only read and announce, with no receipts; a missed announcement is caught up by the next change.
 */
export function createBulkSendListeners(deps: { db: Db; updates: BatchUpdates }) {
  const announce = (tenantId: string, batchIds: string[]) => batchIds.forEach((batchId) => deps.updates.changed(tenantId, batchId));
  return [
    defineListener({
      name: 'bulk-sends.progress-on-row-finished',
      receipts: false,
      event: 'batch.row-finished',
      // The slice's rows finish together: one announcement per batch is as good as one per row.
      selectRelevant: async (_tx, _tenantId, events) => {
        const batches = new Set<string>();
        return events.filter((event) => !batches.has(event.payload.batchId) && Boolean(batches.add(event.payload.batchId)));
      },
      handle: async (event) => announce(event.tenantId, [event.payload.batchId]),
    }),
    defineListener({
      name: 'bulk-sends.progress-on-message-status',
      receipts: false,
      event: 'message.status-changed',
      selectRelevant: relevantWhere((event) => event.payload.messageId, batchMessages),
      handle: async (event) => announce(event.tenantId, await batchesOfMessage(deps.db, event.tenantId, event.payload.messageId)),
    }),
    defineListener({
      name: 'bulk-sends.progress-on-customer-reply',
      receipts: false,
      event: 'customer-message.stored',
      selectRelevant: relevantWhere((event) => event.payload.cardId, chatsWrittenByBatches),
      handle: async (event) => announce(event.tenantId, await batchesOfChat(deps.db, event.tenantId, event.payload.cardId)),
    }),
  ];
}
