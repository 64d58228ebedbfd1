import { and, desc, eq, isNull, ne } from 'drizzle-orm';
import { messages, notes } from '../../../db/schema/index.ts';
import type { DbExecutor } from '../../platform/db/database.ts';
import type { ChatEvents } from './chat-events.ts';
import type { MessageRow } from './message-dto.ts';

/** The chat's latest messages, oldest first (notes are not messages, and what the customer deleted is gone: both stay out). */
export async function recentMessages(executor: DbExecutor, tenantId: string, cardId: string, limit: number): Promise<MessageRow[]> {
  const rows = await executor
    .select()
    .from(messages)
    .where(and(eq(messages.tenantId, tenantId), eq(messages.cardId, cardId), ne(messages.ack, -1), isNull(messages.deletedAt)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit);
  return rows.reverse();
}

/** The customer's newest message in the chat: an answer computed for an older one is stale. */
export async function latestCustomerMessageId(executor: DbExecutor, tenantId: string, cardId: string): Promise<string | undefined> {
  const [row] = await executor
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.tenantId, tenantId), eq(messages.cardId, cardId), eq(messages.sender, 'contact')))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  return row?.id;
}

/** The chat's newest message that came in or went out (a failed send said nothing, a deleted message is gone): whose and which. */
export async function newestMessage(executor: DbExecutor, tenantId: string, cardId: string): Promise<Pick<MessageRow, 'id' | 'sender'> | undefined> {
  const [row] = await executor
    .select({ id: messages.id, sender: messages.sender })
    .from(messages)
    .where(and(eq(messages.tenantId, tenantId), eq(messages.cardId, cardId), ne(messages.ack, -1), isNull(messages.deletedAt)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  return row;
}

/** An internal note written by the system (the AI assistant), not by a team member. */
export async function storeSystemNote(executor: DbExecutor, input: { tenantId: string; cardId: string; authorName: string; text: string }) {
  const [row] = await executor
    .insert(notes)
    .values({ tenantId: input.tenantId, cardId: input.cardId, authorUserId: null, authorName: input.authorName, text: input.text })
    .returning();
  return {
    id: row!.id,
    cardId: input.cardId,
    author: row!.authorName,
    text: row!.text,
    timestamp: row!.createdAt.toISOString(),
    raw_timestamp: row!.createdAt.getTime(),
  };
}

/** The team sees a system note at once in the open chat. */
export function announceNote(events: ChatEvents, tenantId: string, note: Awaited<ReturnType<typeof storeSystemNote>>) {
  return events.emitForCard(tenantId, note.cardId, 'note:new', { cardId: note.cardId, note });
}

/** A message's type (text, audio, image...), to tell a voice note apart. */
export async function findMessageKind(executor: DbExecutor, tenantId: string, messageId: string): Promise<string | undefined> {
  const [row] = await executor
    .select({ type: messages.type })
    .from(messages)
    .where(and(eq(messages.tenantId, tenantId), eq(messages.id, messageId)))
    .limit(1);
  return row?.type;
}
