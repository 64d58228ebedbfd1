import { z } from 'zod';

export const providerSettingsRequest = z.object({
  appName: z.string({ error: 'El nombre de la app es requerido.' }).trim().min(1, { error: 'El nombre de la app es requerido.' }).max(100),
  sourceNumber: z
    .string({ error: 'El número de origen es requerido.' })
    .trim()
    .min(1, { error: 'El número de origen es requerido.' })
    .regex(/^\d{6,20}$/, { error: 'El número de origen debe tener solo dígitos con código de país, sin + ni espacios.' }),
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
const optionalId = z.string().trim().max(100).optional().nullable();

export const sendTextRequest = z.object({
  cardId,
  text: z.string({ error: 'El mensaje no puede estar vacío.' }).trim().min(1, { error: 'El mensaje no puede estar vacío.' }).max(4096, { error: 'El mensaje es demasiado largo (máximo 4096 caracteres).' }),
  tempId: optionalId,
  quotedMessageId: z.uuid({ error: 'Mensaje citado inválido.' }).optional().nullable(),
});
export type SendTextRequest = z.infer<typeof sendTextRequest>;

export const noteRequest = z.object({
  cardId,
  text: z.string({ error: 'La nota no puede estar vacía.' }).trim().min(1, { error: 'La nota no puede estar vacía.' }).max(4096),
});

export const timelineQuery = z.object({
  cursor: z.string().max(200).optional(),
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

export const SCHEDULE_IN_PAST = 'La fecha y hora deben ser en el futuro.';
export const SCHEDULE_NEEDS_TEMPLATE = 'Debes seleccionar una plantilla para programar fuera de la ventana de 24 horas.';
export const EMPTY_MESSAGE = 'El mensaje no puede estar vacío.';

export const scheduleRequest = z.object({
  cardId,
  scheduledFor: z.iso.datetime({ offset: true, error: 'Fecha y hora inválidas.' }),
  text: z.string({ error: EMPTY_MESSAGE }).max(4096).optional().nullable(),
  templateId: z.uuid({ error: 'Plantilla inválida.' }).optional().nullable(),
  variables: z.record(z.string(), z.string()).or(z.array(z.string())).optional().nullable(),
});
export type ScheduleRequest = z.infer<typeof scheduleRequest>;

/** `{"1": "Ana"}` or `["Ana"]`: the values of the template's numbered variables. */
const templateVariables = z
  .record(z.string().regex(/^\d+$/, { error: 'Las variables se nombran por su número: 1, 2, 3…' }), z.string({ error: 'Cada variable debe ser texto.' }).max(1024, { error: 'Una variable no puede superar 1024 caracteres.' }))
  .or(z.array(z.string({ error: 'Cada variable debe ser texto.' }).max(1024, { error: 'Una variable no puede superar 1024 caracteres.' })))
  .optional()
  .nullable();

const templateId = z.uuid({ error: 'Plantilla inválida.' });

/** POST /api/message/template (spec 01 §7): allowed whether or not the 24-hour window is open. */
export const sendTemplateRequest = z.object({ cardId, templateId, variables: templateVariables, tempId: optionalId });
export type SendTemplateRequest = z.infer<typeof sendTemplateRequest>;

export const INITIATE_PHONE_INVALID = 'El teléfono debe ser el código de país y el número, solo dígitos, sin + ni espacios.';

/** POST /api/initiate-conversation (spec 01 §7); `columnId` optionally names where a new chat lands. */
export const initiateConversationRequest = z.object({
  templateId,
  phoneNumber: z.string({ error: INITIATE_PHONE_INVALID }).trim().regex(/^\d{8,15}$/, { error: INITIATE_PHONE_INVALID }),
  variables: templateVariables,
  columnId: z.uuid({ error: 'Columna inválida.' }).optional().nullable(),
});
export type InitiateConversationRequest = z.infer<typeof initiateConversationRequest>;
