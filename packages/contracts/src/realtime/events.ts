/**
 * Socket.io events shared by server and client (spec 02 §7 Realtime): every server→client payload is a zod
 * schema, the event maps are inferred from them, and the web parses each payload at the edge.
 */
import { z } from 'zod';
import { sessionUser } from '../http/auth.ts';
import { ackSchema, messageResponse, noteResponse, scheduledMessageResponse } from '../http/chats.ts';
import { boardResponse, cardSummaryResponse } from '../http/funnels.ts';
import { safeText, TEXT_LIMITS } from '../text.ts';

/** What a client sends to join (the handshake's auth or query, and `join_tenant`); anything else is refused. */
export const joinTenantPayload = z.object({ tenantSlug: safeText(TEXT_LIMITS.slug).min(1), token: safeText(512).min(1) });
export type JoinTenantPayload = z.infer<typeof joinTenantPayload>;

export interface JoinTenantAck {
  ok: boolean;
  message?: string;
}

/**
 * A funnel's board changed. Without `card` or `board` the client reads the board again (columns added, renamed,
 * deleted, bots assigned); `card` is the chat whose move changed it, already in its new place (another column,
 * or another funnel: then it left this board), so the client patches the card instead of reloading.
 */
export const boardUpdatedPayload = z.object({
  funnelId: z.string(),
  board: boardResponse.optional(),
  card: cardSummaryResponse.optional(),
});

/** The chat as the board shows it, whole; `created` when this event made it (a new contact, a bulk send's new chat). */
export const cardUpdatedPayload = cardSummaryResponse.extend({ created: z.boolean().optional() });

/** Only the message it names changes: its file was stored (`mediaUrl`), could not be downloaded (`error`), or a voice note was transcribed (`transcript`). */
export const messageMediaUpdate = z.object({
  id: z.string(),
  updated: z.literal(true),
  mediaUrl: z.string().optional(),
  error: z.string().optional(),
  transcript: z.string().optional(),
});

/** A new message, in the shape the chat API answers, or a later fill-in of one already sent. */
export const messageNewPayload = z.object({ cardId: z.string(), message: z.union([messageResponse, messageMediaUpdate]) });

export const messageStatusUpdatedPayload = z.object({
  cardId: z.string(),
  messageId: z.string(),
  tempId: z.string().nullable().optional(),
  ack: ackSchema,
  /** Why it failed (ack -1), e.g. the provider's refusal, so the chat can say it at once; at ack 0, why a retry is waiting (a rate limit). */
  error: z.string().nullable().optional(),
  /** The provider's code for that refusal (Meta's 131047, Gupshup's 1002…). */
  errorCode: z.string().nullable().optional(),
});

/** Issue 43: a message changed after it was shown (a reaction, an edit, a deletion): the whole message as it is now. */
export const messageUpdatedPayload = z.object({ cardId: z.string(), message: messageResponse });

/** An internal note added to a chat, so every agent with the chat open sees it at once. */
export const noteNewPayload = z.object({ cardId: z.string(), note: noteResponse });

/** A scheduled item was created (the whole item), or left the schedule (sent or failed: only its id and status). */
export const scheduledUpdatedPayload = z.object({
  cardId: z.string(),
  scheduled: z.union([scheduledMessageResponse, z.object({ id: z.string(), status: z.enum(['sent', 'failed']) })]),
});

/** Every server→client event and its payload. */
export const serverEvents = {
  board_updated: boardUpdatedPayload,
  funnels_updated: z.object({}),
  message_status_updated: messageStatusUpdatedPayload,
  'message:new': messageNewPayload,
  'message:updated': messageUpdatedPayload,
  card_updated: cardUpdatedPayload,
  'note:new': noteNewPayload,
  'scheduled:updated': scheduledUpdatedPayload,
  /** Tenant-wide, no contact data: the batch list is read again. */
  batch_updated: z.object({ batchId: z.string() }),
  /** To one user whose role, funnels or status an owner or admin changed: their screens follow at once. */
  user_updated: sessionUser,
  /** Sent once the join is accepted, so the client knows it is in its tenant's room. */
  joined: z.object({ tenantSlug: z.string() }),
  join_error: z.object({ message: z.string() }),
};

export type ServerEventName = keyof typeof serverEvents;
export type ServerEventPayload<E extends ServerEventName> = z.infer<(typeof serverEvents)[E]>;
export type ServerToClientEvents = { [E in ServerEventName]: (payload: ServerEventPayload<E>) => void };

export interface ClientToServerEvents {
  join_tenant: (payload: JoinTenantPayload, ack?: (answer: JoinTenantAck) => void) => void;
}
