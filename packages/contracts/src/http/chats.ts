import { z } from 'zod';
import { clientId, requiredText, safeText, TEXT_LIMITS, trimmedText } from '../text.ts';
import { cardSummaryResponse } from './funnels.ts';

export const providerSettingsRequest = z.object({
  appName: requiredText(100, 'El nombre de la app es requerido.'),
  sourceNumber: requiredText(
    40,
    'El número de origen es requerido.',
    'El número de origen debe tener solo dígitos con código de país, sin + ni espacios.',
  ).regex(/^\d{6,20}$/, { error: 'El número de origen debe tener solo dígitos con código de país, sin + ni espacios.' }),
});
export type ProviderSettingsRequest = z.infer<typeof providerSettingsRequest>;

export const providerSettingsResponse = z.object({
  appName: z.string().nullable(),
  sourceNumber: z.string().nullable(),
  webhookUrl: z.string(),
  sandbox: z.boolean(),
});
export type ProviderSettingsResponse = z.infer<typeof providerSettingsResponse>;

const cardId = z.uuid({ error: 'Chat inválido.' });
const optionalId = clientId().optional().nullable();

export const sendTextRequest = z.object({
  cardId,
  text: requiredText(TEXT_LIMITS.message, 'El mensaje no puede estar vacío.', `El mensaje es demasiado largo (máximo ${TEXT_LIMITS.message} caracteres).`),
  tempId: optionalId,
  quotedMessageId: z.uuid({ error: 'Mensaje citado inválido.' }).optional().nullable(),
});
export type SendTextRequest = z.infer<typeof sendTextRequest>;

/** The text fields of POST /api/message/media (multipart, beside the file `media`). */
export const sendMediaFields = z.object({
  cardId,
  caption: safeText(1024).optional(),
  tempId: clientId().optional(),
  quotedMessageId: z
    .uuid({ error: 'Mensaje citado inválido.' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
});

export const noteRequest = z.object({
  cardId,
  text: requiredText(TEXT_LIMITS.message, 'La nota no puede estar vacía.'),
});

export const timelineQuery = z.object({
  cursor: safeText(200).optional(),
  limit: z.coerce.number({ error: 'Límite inválido.' }).int().min(1).max(200).optional(),
});

export const WINDOW_CLOSED_TEXT = 'La ventana de 24 horas está cerrada. Envía una plantilla para reiniciar la conversación.';
export const WINDOW_CLOSED_FILES = 'La ventana de 24 horas está cerrada. No se pueden enviar archivos.';
export const CONVERSATION_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Open until 24 hours after the contact's last message; closed when there is none. */
export function windowIsOpen(contactLastMessageAt: string | Date | null | undefined, now = Date.now()) {
  if (!contactLastMessageAt) return false;
  return new Date(contactLastMessageAt).getTime() + CONVERSATION_WINDOW_MS > now;
}

/** `{"1": "Ana"}` or `["Ana"]`: the values of the template's numbered variables. */
const variableValue = safeText(1024, { error: 'Cada variable debe ser texto.', tooLong: 'Una variable no puede superar 1024 caracteres.' });
const templateVariables = z
  .record(z.string().regex(/^\d{1,3}$/, { error: 'Las variables se nombran por su número: 1, 2, 3…' }), variableValue)
  .or(z.array(variableValue).max(100, { error: 'Como máximo 100 variables.' }))
  .optional()
  .nullable();

export const SCHEDULE_IN_PAST = 'La fecha y hora deben ser en el futuro.';
export const SCHEDULE_NEEDS_TEMPLATE = 'Debes seleccionar una plantilla para programar fuera de la ventana de 24 horas.';
export const EMPTY_MESSAGE = 'El mensaje no puede estar vacío.';

export const scheduleRequest = z.object({
  cardId,
  scheduledFor: z.iso.datetime({ offset: true, error: 'Fecha y hora inválidas.' }),
  text: safeText(TEXT_LIMITS.message, { error: EMPTY_MESSAGE }).optional().nullable(),
  templateId: z.uuid({ error: 'Plantilla inválida.' }).optional().nullable(),
  variables: templateVariables,
});
export type ScheduleRequest = z.infer<typeof scheduleRequest>;

const templateId = z.uuid({ error: 'Plantilla inválida.' });

/** POST /api/message/template (spec 01 §7): allowed whether or not the 24-hour window is open. */
export const sendTemplateRequest = z.object({ cardId, templateId, variables: templateVariables, tempId: optionalId });
export type SendTemplateRequest = z.infer<typeof sendTemplateRequest>;

export const INITIATE_PHONE_INVALID = 'El teléfono debe ser el código de país y el número, solo dígitos, sin + ni espacios.';

/** POST /api/initiate-conversation (spec 01 §7); `columnId` optionally names where a new chat lands. */
export const initiateConversationRequest = z.object({
  templateId,
  phoneNumber: trimmedText(40, { error: INITIATE_PHONE_INVALID, tooLong: INITIATE_PHONE_INVALID }).regex(/^\d{8,15}$/, { error: INITIATE_PHONE_INVALID }),
  variables: templateVariables,
  columnId: z.uuid({ error: 'Columna inválida.' }).optional().nullable(),
});
export type InitiateConversationRequest = z.infer<typeof initiateConversationRequest>;

// Answers (spec 01 §3 Message, Note, Scheduled message; spec 02 §3 board message fields).

/** Spec 01 §3 Ack values: -1 error, 0 sending, 1 sent, 2 delivered, 3 read. */
export const ackSchema = z.number().int().min(-1).max(3);

export const messageReaction = z.object({ emoji: z.string(), from: z.enum(['contact', 'user']), name: z.string().nullable() });
export type MessageReaction = z.infer<typeof messageReaction>;

export const messageResponse = z.object({
  id: z.string(),
  cardId: z.string(),
  sender: z.enum(['user', 'ai', 'contact']),
  participantName: z.string().nullable(),
  text: z.string().nullable(),
  /** text, image, video, audio, sticker, location, document, template, interactive, unsupported */
  type: z.string(),
  mediaUrl: z.string().nullable(),
  mediaMime: z.string().nullable(),
  fileName: z.string().nullable(),
  timestamp: z.string(),
  raw_timestamp: z.number(),
  ack: ackSchema,
  /** Why the provider refused the message (ack -1), in words people can act on; at ack 0, why a retry is waiting (a rate limit). */
  error: z.string().nullable(),
  /** The provider's own code for that refusal (Meta's 131047, Gupshup's 1002…). */
  errorCode: z.string().nullable().optional(),
  quotedMessageId: z.string().nullable(),
  quotedMessageText: z.string().nullable(),
  quotedMessageSender: z.string().nullable(),
  tempId: z.string().nullable(),
  templateId: z.string().nullable(),
  /** Extra structured content: template buttons, quick-reply options, location, a raw unknown payload. */
  payload: z.record(z.string(), z.unknown()).nullable(),
  /** Issue 15: what a voice note says, once transcribed (null before, or for other messages). */
  transcript: z.string().nullable().optional(),
  /** Issue 43: reactions under the message, one per customer and one per team member (`name` for a group's participant or a member). */
  reactions: z.array(messageReaction).optional(),
  /** When the customer edited it ("Editado"); its text is the newest. */
  editedAt: z.string().nullable().optional(),
  /** When the customer deleted it ("Mensaje eliminado"): its text, media and payload are no longer answered. */
  deletedAt: z.string().nullable().optional(),
});
export type ChatMessage = z.infer<typeof messageResponse>;

export const REACTION_EMOJI_INVALID = 'Elige un emoji para reaccionar.';

/** Issue 43: POST /api/messages/{id}/reaction — the member's reaction under a message (one per member), null takes it back. */
export const reactionRequest = z.object({
  emoji: z
    .string({ error: REACTION_EMOJI_INVALID })
    .trim()
    .max(16, { error: REACTION_EMOJI_INVALID })
    .regex(/^(?=.*\p{Extended_Pictographic})[\p{Extended_Pictographic}\p{Emoji_Component}]+$/u, { error: REACTION_EMOJI_INVALID })
    .nullable(),
});
export type ReactionRequest = z.infer<typeof reactionRequest>;

/**
 * Issue 43: what the chat knows of the customer beyond its messages: the click-to-WhatsApp ad they came from, and
 * whether they stopped marketing messages (bulk sends of marketing templates skip them).
 */
export const chatContextResponse = z.object({
  adReferral: z
    .object({
      headline: z.string().optional(),
      body: z.string().optional(),
      sourceUrl: z.string().optional(),
      sourceId: z.string().optional(),
      sourceType: z.string().optional(),
    })
    .nullable(),
  marketingOptedOutAt: z.string().nullable(),
});
export type ChatContext = z.infer<typeof chatContextResponse>;

/**
 * Issue 43: why a marketing template does not go to a customer who opted out (a bulk send's row, a single send).
 * Utility and authentication templates still go.
 */
export const MARKETING_OPTED_OUT = 'El cliente pidió no recibir mensajes de marketing';

export const noteResponse = z.object({
  id: z.string(),
  cardId: z.string(),
  author: z.string(),
  text: z.string(),
  timestamp: z.string(),
  raw_timestamp: z.number(),
});
export type NoteDto = z.infer<typeof noteResponse>;

export const scheduledMessageResponse = z.object({
  id: z.string(),
  cardId: z.string(),
  author: z.string(),
  scheduledFor: z.string(),
  text: z.string().nullable(),
  templateId: z.string().nullable(),
  /** The template's variables as sent: `{"1": "Ana"}` or `["Ana"]`. */
  variables: z.unknown(),
  status: z.enum(['scheduled', 'sent', 'failed']),
  raw_timestamp: z.number(),
});
export type ScheduledMessageDto = z.infer<typeof scheduledMessageResponse>;

const timelineMessage = messageResponse.extend({ kind: z.literal('message') });
const timelineNote = noteResponse.omit({ cardId: true }).extend({ kind: z.literal('note') });
const timelineScheduled = scheduledMessageResponse.omit({ cardId: true }).extend({ kind: z.literal('scheduled') });
export const timelineItem = z.discriminatedUnion('kind', [timelineMessage, timelineNote, timelineScheduled]);
export type TimelineItem = z.infer<typeof timelineItem>;
/** A note or scheduled item as the timeline lists it (the card is the timeline's). */
export type ChatNote = z.infer<typeof timelineNote>;
export type ScheduledItem = z.infer<typeof timelineScheduled>;

/** GET /api/cards/{id}/messages: one page, oldest first; `nextCursor` fetches older items. */
export const timelineResponse = z.object({
  messages: z.array(timelineMessage),
  notes: z.array(timelineNote),
  scheduledMessages: z.array(timelineScheduled),
  items: z.array(timelineItem),
  nextCursor: z.string().nullable(),
  /** Issue 43: the chat's ad referral and marketing choice (on every page, so the header needs no other read). */
  context: chatContextResponse.optional(),
});
export type Timeline = z.infer<typeof timelineResponse>;

export const usageResponse = z.object({
  totalCost: z.number(),
  sentCount: z.number().int(),
  receivedCount: z.number().int(),
  marketingTemplateCount: z.number().int(),
  utilityTemplateCount: z.number().int(),
  /** Messages the provider refused this month: recorded, never billed. */
  failedUnbilledCount: z.number().int(),
  /** Issue 15: answers the AI assistant sent this month, and the model tokens (in + out) of every AI use. */
  aiAnswerCount: z.number().int(),
  aiTokenCount: z.number().int(),
});

/** Issue 15 copilot: POST /api/ai/suggest-reply and POST /api/ai/summarize, both with { cardId }. */
export const copilotRequest = z.object({ cardId: z.uuid({ error: 'Chat inválido.' }) });
/** A draft for the composer; never sent by itself. */
export const suggestReplyResponse = z.object({ text: z.string() });
export type SuggestReplyResponse = z.infer<typeof suggestReplyResponse>;
/** The summary, stored as an internal note of the card. */
export const summarizeResponse = z.object({ note: noteResponse });
export type SummarizeResponse = z.infer<typeof summarizeResponse>;
export type Usage = z.infer<typeof usageResponse>;

/** POST /api/initiate-conversation: the chat (found or new) and the template message sent on it. */
export const initiateConversationResponse = z.object({
  cardId: z.string(),
  created: z.boolean(),
  card: cardSummaryResponse,
  message: messageResponse,
});
export type InitiateConversationResponse = z.infer<typeof initiateConversationResponse>;
