/** Domain events of the chats module: what happened to a conversation's messages. */
import { z } from 'zod';

/** A customer's message was stored (once, however often the provider delivered it). */
export const customerMessageStored = z.object({
  messageId: z.uuid(),
  cardId: z.uuid(),
  /** Where the card stood when the message arrived: the auto-bot answers in its waiting room, a flow bot elsewhere. */
  funnelId: z.uuid(),
  columnId: z.uuid(),
  /** The message created the card (a new contact): the auto-bot greets it. */
  cardCreated: z.boolean(),
});

/** An outbound message's delivery state moved (accepted by the provider, sent, delivered, read or failed). */
export const messageStatusChanged = z.object({
  messageId: z.uuid(),
  cardId: z.uuid(),
  ack: z.union([z.literal(-1), z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
});

/** A customer's voice note was copied into our storage: it can be listened to, and transcribed (issue 15). */
export const voiceNoteStored = z.object({
  messageId: z.uuid(),
  cardId: z.uuid(),
});

/** A team member sent a message in a chat (text, file, template or their scheduled message): a person took over. */
export const teamMessageSent = z.object({
  messageId: z.uuid(),
  cardId: z.uuid(),
});
