import { z } from 'zod';
import { safeString } from '../text.ts';
import { renderedTemplateSchema } from './templates.ts';

/** The signed-in member's company on the in-process fakes: the business side of the sandbox phone. */
export const sandboxAppResponse = z.object({
  /** Which fake plays WhatsApp for the company: the one it sends through. */
  provider: z.enum(['gupshup', 'meta']).optional(),
  appName: z.string(),
  sourceNumber: z.string(),
  /** The company's name. */
  label: z.string().optional(),
});
export type SandboxApp = z.infer<typeof sandboxAppResponse>;

export const phoneMessageStatuses = ['submitted', 'enqueued', 'sent', 'delivered', 'read', 'failed'] as const;
export type PhoneMessageStatus = (typeof phoneMessageStatuses)[number];

/** One message of the fake's conversation with a customer (or group), as the phone shows it. */
export const phoneMessageSchema = z.object({
  id: z.string(),
  /** A business message's WhatsApp id: what a quote of it names (`context.msgId`). */
  whatsappId: z.string().optional(),
  direction: z.enum(['to_customer', 'from_customer']),
  /**
   * To the customer: Gupshup's `message` JSON as sent. From the customer: the inbound inner payload. Later changes
   * of the customer's are kept on it: `reaction` (their emoji), `edited: true` (with the new `text`), `deleted: true`.
   */
  type: z.string(),
  body: z.record(z.string(), z.unknown()),
  status: z.enum(phoneMessageStatuses),
  /** Who wrote, in a group conversation. */
  participant: z.object({ phone: z.string(), name: z.string().optional() }).optional(),
  /** A template as the customer's WhatsApp shows it: Meta's approved copy with the params in place. */
  template: renderedTemplateSchema.optional(),
  createdAt: z.string(),
});
export type PhoneMessage = z.infer<typeof phoneMessageSchema>;

/** GET /sandbox/api/conversation */
export const sandboxConversationResponse = z.object({ messages: z.array(phoneMessageSchema) });
export type SandboxConversation = z.infer<typeof sandboxConversationResponse>;
/** POST /sandbox/api/send: the WhatsApp id of the customer's message. */
export const sandboxSendResponse = z.object({ id: z.string() });
export type SandboxSendResponse = z.infer<typeof sandboxSendResponse>;

const phone = safeString()
  .trim()
  .regex(/^\d{6,20}$/, { error: 'El teléfono debe tener solo dígitos con código de país.' });

/** Who the person plays on the sandbox phone: a customer of the session's company, optionally writing in a group. */
const customer = {
  phone,
  name: safeString().trim().max(80).optional(),
  group: z
    .object({
      id: safeString()
        .trim()
        .regex(/^\d{6,30}$/, { error: 'El id del grupo debe tener solo dígitos.' }),
      name: safeString().trim().max(80).optional(),
    })
    .optional(),
};

/** POST /sandbox/api/send: what the customer does on the sandbox phone. The company is the session's. */
export const sandboxSendRequest = z.object({
  ...customer,
  message: z.discriminatedUnion(
    'kind',
    [
      z.object({ kind: z.literal('text'), text: safeString().trim().min(1, { error: 'Escribe un mensaje.' }).max(4096) }),
      z.object({
        kind: z.literal('location'),
        latitude: z.number().min(-90).max(90),
        longitude: z.number().min(-180).max(180),
        name: safeString().max(100).optional(),
        address: safeString().max(200).optional(),
      }),
      z.object({
        kind: z.literal('button_reply'),
        title: safeString().min(1).max(100),
        id: safeString().max(100).optional(),
        postbackText: safeString().max(200).optional(),
      }),
      /** A tap on a template's quick-reply button (Gupshup's `quick_reply` inbound with `type: button`). */
      z.object({ kind: z.literal('quick_reply'), text: safeString().min(1).max(100), postbackText: safeString().max(200).optional() }),
      z.object({
        kind: z.literal('list_reply'),
        title: safeString().min(1).max(100),
        id: safeString().max(100).optional(),
        postbackText: safeString().max(200).optional(),
      }),
      z.object({
        kind: z.literal('media'),
        dataBase64: safeString().min(1),
        fileName: safeString().max(200),
        caption: safeString().max(1024).optional(),
        voice: z.boolean().optional(),
      }),
    ],
    { error: 'Tipo de mensaje inválido.' },
  ),
});
export type SandboxSendRequest = z.input<typeof sandboxSendRequest>;
export type CustomerMessageInput = SandboxSendRequest['message'];

/** GET /sandbox/api/conversation */
export const sandboxConversationQuery = z.object({ phone: safeString().regex(/^\d{6,30}$/) });

/** The phone-side id of a message of the conversation (`id` in the conversation's answer). */
const phoneMessageId = safeString().trim().min(1, { error: 'Falta el mensaje.' }).max(200, { error: 'Falta el mensaje.' });

/**
 * POST /sandbox/api/change: the customer changes an earlier message, as WhatsApp lets them: reacts to any message
 * (`emoji: null` takes the reaction back), edits one of their own texts, or deletes one of their own messages.
 */
export const sandboxChangeRequest = z.object({
  ...customer,
  change: z.discriminatedUnion(
    'kind',
    [
      z.object({
        kind: z.literal('reaction'),
        messageId: phoneMessageId,
        emoji: safeString().trim().min(1, { error: 'Elige un emoji.' }).max(32, { error: 'Elige un emoji.' }).nullable(),
      }),
      z.object({ kind: z.literal('edit'), messageId: phoneMessageId, text: safeString().trim().min(1, { error: 'Escribe un mensaje.' }).max(4096) }),
      z.object({ kind: z.literal('delete'), messageId: phoneMessageId }),
    ],
    { error: 'Tipo de cambio inválido.' },
  ),
});
export type SandboxChangeRequest = z.input<typeof sandboxChangeRequest>;
export type CustomerChangeInput = SandboxChangeRequest['change'];
/** POST /sandbox/api/change: the message as the phone now shows it. */
export const sandboxChangeResponse = z.object({ message: phoneMessageSchema });
export type SandboxChangeResponse = z.infer<typeof sandboxChangeResponse>;
