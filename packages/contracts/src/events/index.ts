/**
 * Domain events: the payload schema of every event type, shared by the modules that publish them and the
 * listeners that react (apps/server/src/platform/events, docs/decisions/0011). Payloads carry ids, never
 * whole rows: a listener re-reads what it needs, as it stands when it runs.
 */
import { z } from 'zod';
import { voiceNoteTranscribed } from './ai.ts';
import { batchRowFinished } from './bulk-sends.ts';
import { cardArchived, cardEnteredColumn, cardMoved } from './cards.ts';
import { customerMessageStored, messageStatusChanged, teamMessageSent, voiceNoteStored } from './chats.ts';
import { sessionEnded, userAccessChanged } from './users.ts';

export const domainEventPayloads = {
  'customer-message.stored': customerMessageStored,
  'message.status-changed': messageStatusChanged,
  'card.moved': cardMoved,
  'card.entered-column': cardEnteredColumn,
  'card.archived': cardArchived,
  'batch.row-finished': batchRowFinished,
  'user.access-changed': userAccessChanged,
  'session.ended': sessionEnded,
  'team-message.sent': teamMessageSent,
  'voice-note.stored': voiceNoteStored,
  'voice-note.transcribed': voiceNoteTranscribed,
} as const;

export type DomainEventType = keyof typeof domainEventPayloads;
export type DomainEventPayload<T extends DomainEventType> = z.output<(typeof domainEventPayloads)[T]>;

export const domainEventTypes = Object.keys(domainEventPayloads) as [DomainEventType, ...DomainEventType[]];

/** The envelope every event travels in. */
export interface DomainEvent<T extends DomainEventType = DomainEventType> {
  id: string;
  type: T;
  tenantId: string;
  /** ISO 8601, when the change happened (the publishing process's clock). */
  occurredAt: string;
  payload: DomainEventPayload<T>;
}

/** The envelope's own fields; the payload is checked against its type's schema separately. */
export const domainEventEnvelope = z.object({
  id: z.uuid(),
  type: z.enum(domainEventTypes),
  tenantId: z.uuid(),
  occurredAt: z.iso.datetime({ offset: true }),
  payload: z.unknown(),
});
