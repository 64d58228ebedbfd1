import { and, eq } from 'drizzle-orm';
import { messages } from '../../../db/schema/index.ts';
import type { Tx } from '../../platform/db/database.ts';
import type { ChatEvents } from './chat-events.ts';
import type { MessageRow } from './message-dto.ts';

/** A customer's voice note as the transcriber needs it: its stored file, or nothing when it is not one. */
export async function findVoiceNote(tx: Tx, tenantId: string, messageId: string) {
  const [row] = await tx
    .select()
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.tenantId, tenantId)))
    .limit(1);
  if (!row || row.type !== 'audio' || row.sender !== 'contact' || !row.mediaUrl) return undefined;
  return { id: row.id, cardId: row.cardId, mediaUrl: row.mediaUrl, mediaMime: row.mediaMime ?? 'audio/ogg', transcript: row.transcript };
}

/** Writes what the voice note says, in the caller's transaction. */
export async function saveTranscript(tx: Tx, tenantId: string, messageId: string, transcript: string): Promise<MessageRow | undefined> {
  const [row] = await tx
    .update(messages)
    .set({ transcript })
    .where(and(eq(messages.id, messageId), eq(messages.tenantId, tenantId)))
    .returning();
  return row;
}

/** The open chats show the transcript under the player, live. */
export function announceTranscript(events: ChatEvents, row: MessageRow) {
  if (row.transcript === null) return Promise.resolve();
  return events.emitForCard(row.tenantId, row.cardId, 'message:new', {
    cardId: row.cardId,
    message: { id: row.id, transcript: row.transcript, updated: true },
  });
}
