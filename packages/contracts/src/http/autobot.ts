import { z } from 'zod';
import { trimmedText } from '../text.ts';

/** WhatsApp shows at most this many reply buttons; longer menus are sent as a numbered list. */
export const MAX_QUICK_REPLY_BUTTONS = 3;
export const MAX_MENU_OPTIONS = 10;
export const MAX_WELCOME_LENGTH = 1000;

export const BOT_MESSAGE_REQUIRED = 'Escribe el mensaje de bienvenida.';
export const BOT_TRIGGER_REQUIRED = 'Elige la columna de espera.';
export const BOT_MENU_REQUIRED = 'Elige al menos una columna para el menú.';
export const BOT_TRIGGER_IN_MENU = 'La columna de espera no puede ser una opción del menú.';
export const BOT_COLUMN_INVALID = 'Columna inválida.';

/** GET /api/bot-settings (spec 01 §3 Bot settings, sent as enabled, message, triggerColumnId, menuColumnIds). */
export const botSettingsResponse = z.object({
  enabled: z.boolean(),
  message: z.string(),
  triggerColumnId: z.string().nullable(),
  menuColumnIds: z.array(z.string()),
});
export type BotSettings = z.infer<typeof botSettingsResponse>;

const columnId = z.uuid({ error: BOT_COLUMN_INVALID });

/** PUT /api/bot-settings: enabling needs a message, a waiting-room column and at least one menu column (spec 01 §5). */
export const botSettingsRequest = z
  .object({
    enabled: z.boolean({ error: 'Indica si el bot está activado (enabled).' }),
    message: trimmedText(MAX_WELCOME_LENGTH, {
      error: BOT_MESSAGE_REQUIRED,
      tooLong: `El mensaje de bienvenida admite hasta ${MAX_WELCOME_LENGTH} caracteres.`,
    }).default(''),
    triggerColumnId: columnId.nullable().default(null),
    menuColumnIds: z
      .array(columnId, { error: BOT_COLUMN_INVALID })
      .max(MAX_MENU_OPTIONS, { error: `El menú admite hasta ${MAX_MENU_OPTIONS} columnas.` })
      .default([]),
  })
  .superRefine((body, ctx) => {
    if (body.triggerColumnId && body.menuColumnIds.includes(body.triggerColumnId))
      ctx.addIssue({ code: 'custom', message: BOT_TRIGGER_IN_MENU, path: ['menuColumnIds'] });
    if (!body.enabled) return;
    if (!body.message) ctx.addIssue({ code: 'custom', message: BOT_MESSAGE_REQUIRED, path: ['message'] });
    if (!body.triggerColumnId) ctx.addIssue({ code: 'custom', message: BOT_TRIGGER_REQUIRED, path: ['triggerColumnId'] });
    if (body.menuColumnIds.length === 0) ctx.addIssue({ code: 'custom', message: BOT_MENU_REQUIRED, path: ['menuColumnIds'] });
  });
export type BotSettingsRequest = z.infer<typeof botSettingsRequest>;
