import type { Tx } from '../../platform/db/database.ts';
import type { EventPublisher, NewDomainEvent } from '../../platform/events/index.ts';
import type { MessageRow } from './message-dto.ts';

/** `message.status-changed` for a message whose ack moved (or whose send the provider accepted). */
export function statusChangeEvent(row: Pick<MessageRow, 'id' | 'tenantId' | 'cardId' | 'ack'>): NewDomainEvent<'message.status-changed'> {
  return {
    type: 'message.status-changed',
    tenantId: row.tenantId,
    payload: { messageId: row.id, cardId: row.cardId, ack: row.ack as -1 | 0 | 1 | 2 | 3 },
  };
}

/** Publishes the status change in the transaction that moved the message's ack (or recorded the provider's acceptance). */
export function publishStatusChange(publisher: EventPublisher, tx: Tx, row: Pick<MessageRow, 'id' | 'tenantId' | 'cardId' | 'ack'>) {
  return publisher.publish(tx, statusChangeEvent(row));
}
