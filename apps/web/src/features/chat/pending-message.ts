import type { ChatMessage } from './chat.api.ts';

/**
 * A message the agent just sent, shown at once (ack 0) until the server's answer replaces it: the server's shape,
 * with what only the server knows left empty.
 */
export function pendingMessage(fields: Pick<ChatMessage, 'cardId' | 'type' | 'text'> & { tempId: string } & Partial<ChatMessage>): ChatMessage {
  const at = new Date();
  return {
    id: `temp-${fields.tempId}`,
    sender: 'user',
    participantName: null,
    mediaUrl: null,
    mediaMime: null,
    fileName: null,
    timestamp: at.toISOString(),
    raw_timestamp: at.getTime(),
    ack: 0,
    error: null,
    quotedMessageId: null,
    quotedMessageText: null,
    quotedMessageSender: null,
    templateId: null,
    payload: null,
    ...fields,
  };
}
