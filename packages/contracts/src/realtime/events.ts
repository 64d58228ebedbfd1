/** Socket.io event maps shared by server and client (spec 02 §7 Realtime). */
import { z } from 'zod';
import type { SessionUser } from '../http/auth.ts';
import { safeText, TEXT_LIMITS } from '../text.ts';

/** What a client sends to join (the handshake's auth or query, and `join_tenant`); anything else is refused. */
export const joinTenantPayload = z.object({ tenantSlug: safeText(TEXT_LIMITS.slug).min(1), token: safeText(512).min(1) });
export type JoinTenantPayload = z.infer<typeof joinTenantPayload>;

export interface JoinTenantAck {
  ok: boolean;
  message?: string;
}

export interface BoardUpdatedPayload {
  funnelId: string;
  board?: unknown;
}

export interface MessageStatusUpdatedPayload {
  cardId: string;
  messageId: string;
  tempId?: string | null;
  ack: -1 | 0 | 1 | 2 | 3;
  /** Why it failed (ack -1), e.g. the provider's refusal, so the chat can say it at once. */
  error?: string | null;
}

export interface CardUpdatedPayload {
  id: string;
  unreadCount?: number;
  lastActivityAt?: string | null;
  contactLastMessageAt?: string | null;
  [field: string]: unknown;
}

export interface MessageNewPayload {
  cardId: string;
  message: Record<string, unknown>;
}

/** An internal note added to a chat, so every agent with the chat open sees it at once. */
export interface NoteNewPayload {
  cardId: string;
  note: { id: string; cardId: string; author: string; text: string; timestamp: string; raw_timestamp: number };
}

/** A scheduled item was created, or left the schedule (sent or failed): the chat shows or drops it. */
export interface ScheduledUpdatedPayload {
  cardId: string;
  scheduled: { id: string; status: 'scheduled' | 'sent' | 'failed'; [field: string]: unknown };
}

export interface ServerToClientEvents {
  board_updated: (payload: BoardUpdatedPayload) => void;
  funnels_updated: (payload?: Record<string, never>) => void;
  message_status_updated: (payload: MessageStatusUpdatedPayload) => void;
  'message:new': (payload: MessageNewPayload) => void;
  card_updated: (payload: CardUpdatedPayload) => void;
  'note:new': (payload: NoteNewPayload) => void;
  'scheduled:updated': (payload: ScheduledUpdatedPayload) => void;
  batch_updated: (payload?: { batchId?: string }) => void;
  /** To one user whose role, funnels or status an owner or admin changed: their screens follow at once. */
  user_updated: (payload: SessionUser) => void;
  /** Sent once the join is accepted, so the client knows it is in its tenant's room. */
  joined: (payload: { tenantSlug: string }) => void;
  join_error: (payload: { message: string }) => void;
}

export interface ClientToServerEvents {
  join_tenant: (payload: JoinTenantPayload, ack?: (answer: JoinTenantAck) => void) => void;
}

export type ServerEventName = keyof ServerToClientEvents;
