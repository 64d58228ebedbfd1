import type { ChatMessage } from '@embudo/contracts/http/chats';
import type { messages } from '../../../db/schema/index.ts';

export type MessageRow = typeof messages.$inferSelect;

/** A board/chat message as the client reads it (spec 01 §3 Message, spec 02 realtime fields). */
export function toMessageDto(row: MessageRow): ChatMessage {
  return {
    id: row.id,
    cardId: row.cardId,
    sender: row.sender,
    participantName: row.participantName,
    text: row.text,
    type: row.type,
    mediaUrl: row.mediaUrl,
    mediaMime: row.mediaMime,
    fileName: row.mediaFileName,
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
    payload: row.payload as Record<string, unknown> | null,
    transcript: row.transcript,
  };
}

export type MessageDto = ChatMessage;
