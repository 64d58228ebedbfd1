import type { z } from 'zod';
import type { cardMover } from '@embudo/contracts/events/cards';
import type { Tx } from '../../platform/db/database.ts';
import type { EventPublisher } from '../../platform/events/index.ts';
import type { CardPlace } from './cards.service.ts';

/**
 * `card.moved`, and `card.entered-column` when the column changed, in the transaction that moved the card.
 * `chainDepth` counts the moves flows made in a row (0 for a person's or the auto-bot's move). An archived
 * chat sent back to the auto-bot's waiting room does not "enter" it: it waits there for the customer's next
 * message (the auto-bot greets then), so no entry flow starts.
 */
export async function publishCardMove(
  publisher: EventPublisher,
  tx: Tx,
  tenantId: string,
  move: { cardId: string; from: CardPlace; to: CardPlace; movedBy: z.infer<typeof cardMover>; chainDepth?: number; causeMessageId?: string },
) {
  if (move.from.columnId === move.to.columnId) return;
  await publisher.publish(tx, {
    type: 'card.moved',
    tenantId,
    payload: {
      cardId: move.cardId,
      fromColumnId: move.from.columnId,
      toColumnId: move.to.columnId,
      fromFunnelId: move.from.funnelId,
      toFunnelId: move.to.funnelId,
      movedBy: move.movedBy,
      ...(move.causeMessageId ? { causeMessageId: move.causeMessageId } : {}),
    },
  });
  if (move.movedBy === 'archive') return;
  await publisher.publish(tx, {
    type: 'card.entered-column',
    tenantId,
    payload: { cardId: move.cardId, columnId: move.to.columnId, funnelId: move.to.funnelId, chainDepth: move.chainDepth ?? 0 },
  });
}
