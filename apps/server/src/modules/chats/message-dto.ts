import type { ChatMessage, MessageReaction } from '@embudo/contracts/http/chats';
import type { messages } from '../../../db/schema/index.ts';

export type MessageRow = typeof messages.$inferSelect;

/** Reactions as the chat shows them: a customer's (named in a group) or a team member's. */
function reactionsOf(row: MessageRow): MessageReaction[] {
  return (row.reactions ?? []).map((reaction) => ({ emoji: reaction.emoji, from: reaction.userId ? 'user' : 'contact', name: reaction.name ?? null }));
}

/**
 * A board/chat message as the client reads it (spec 01 §3 Message, spec 02 realtime fields). A message the customer
 * deleted keeps its row until retention, but its text, media and payload are no longer answered.
 */
export function toMessageDto(row: MessageRow): ChatMessage {
  const deleted = row.deletedAt !== null;
  return {
    id: row.id,
    cardId: row.cardId,
    sender: row.sender,
    participantName: row.participantName,
    text: deleted ? null : row.text,
    type: row.type,
    mediaUrl: deleted ? null : row.mediaUrl,
    mediaMime: deleted ? null : row.mediaMime,
    fileName: deleted ? null : row.mediaFileName,
    timestamp: row.createdAt.toISOString(),
    raw_timestamp: row.createdAt.getTime(),
    ack: row.ack,
    error: row.errorReason,
    errorCode: row.errorCode,
    quotedMessageId: row.quotedMessageId,
    quotedMessageText: row.quotedMessageText,
    quotedMessageSender: row.quotedMessageSender,
    tempId: row.tempId,
    templateId: row.templateId,
    // Written only as an object (inbound location, reply or raw payload; reply choices; a sent template) or null.
    payload: deleted ? null : (row.payload as Record<string, unknown> | null),
    transcript: deleted ? null : row.transcript,
    reactions: reactionsOf(row),
    editedAt: row.editedAt?.toISOString() ?? null,
    deletedAt: row.deletedAt?.toISOString() ?? null,
  };
}

export type MessageDto = ChatMessage;
