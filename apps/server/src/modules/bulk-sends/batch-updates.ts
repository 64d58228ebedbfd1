import { and, eq, isNotNull } from 'drizzle-orm';
import type { ServerToClientEvents } from '@embudo/contracts/realtime/events';
import { batchRecipients } from '../../../db/schema/index.ts';
import type { Db } from '../../platform/db/database.ts';
import type { Logger } from '../../platform/logger/logger.ts';
import type { ChatEvents } from '../chats/chat-events.ts';

/** A 5,000-row batch moves its counts thousands of times; the dashboard needs a few refreshes a second at most. */
export const BATCH_UPDATE_THROTTLE_MS = 500;

/**
 * Tells the tenant (`batch_updated`, tenant-wide: it carries no contact data) that a batch's counts or status
 * may have changed: at once for the first change, then at most once per `throttleMs` per batch.
 */
export interface BatchUpdates {
  changed(tenantId: string, batchId: string): void;
  /** Looks at a chat event and announces the batches whose counts it moves (a status of one of their messages, a reply). */
  noticeChatEvent(tenantId: string, event: keyof ServerToClientEvents, payload: unknown): void;
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

export function createBatchUpdates(options: {
  db: Db;
  emitToTenant: (tenantId: string, batchId: string) => void;
  log: Pick<Logger, 'warn'>;
  throttleMs?: number;
}): BatchUpdates {
  const throttled = throttlePerBatch(options.emitToTenant, options.throttleMs ?? BATCH_UPDATE_THROTTLE_MS);
  const changed = throttled.changed;

  const batchesOf = async (tenantId: string, event: keyof ServerToClientEvents, payload: unknown): Promise<string[]> => {
    if (event === 'message_status_updated') {
      const { messageId } = payload as { messageId: string };
      const rows = await options.db.select({ batchId: batchRecipients.batchId }).from(batchRecipients)
        .where(and(eq(batchRecipients.tenantId, tenantId), eq(batchRecipients.messageId, messageId))).limit(1);
      return rows.map((row) => row.batchId);
    }
    if (event === 'message:new') {
      const { cardId, message } = payload as { cardId: string; message: { sender?: unknown; updated?: unknown } };
      // Only a customer's new message can be a reply; our own sends are announced by the chunk job.
      if (message.sender !== 'contact' || message.updated) return [];
      const rows = await options.db.selectDistinct({ batchId: batchRecipients.batchId }).from(batchRecipients)
        .where(and(eq(batchRecipients.tenantId, tenantId), eq(batchRecipients.cardId, cardId), isNotNull(batchRecipients.messageId)));
      return rows.map((row) => row.batchId);
    }
    return [];
  };

  return {
    changed,
    noticeChatEvent: (tenantId, event, payload) => {
      if (event !== 'message_status_updated' && event !== 'message:new') return;
      batchesOf(tenantId, event, payload)
        .then((batchIds) => batchIds.forEach((batchId) => changed(tenantId, batchId)))
        // The chat event itself went out; a missed dashboard refresh is caught up by the next change.
        .catch((error: unknown) => options.log.warn({ err: error, tenantId, event }, 'could not check the batches of a chat event'));
    },
    close: throttled.close,
  };
}

/** The chat events, also noticed by the batch dashboard: chats keep knowing nothing of bulk sends. */
export function withBatchUpdates(events: ChatEvents, updates: BatchUpdates): ChatEvents {
  return {
    emit: (tenantId, funnelId, event, ...args) => {
      events.emit(tenantId, funnelId, event, ...args);
      updates.noticeChatEvent(tenantId, event, args[0]);
    },
    emitForCard: async (tenantId, cardId, event, ...args) => {
      await events.emitForCard(tenantId, cardId, event, ...args);
      updates.noticeChatEvent(tenantId, event, args[0]);
    },
  };
}
