import { z } from 'zod';
import { botConfig, savedBotConfig } from '../flows/flow.ts';
import { requiredText, TEXT_LIMITS, trimmedText } from '../text.ts';

/** Spec 02 §9 Bot types; a bot's avatar_icon equals its type (§3 Bot). */
export const botTypes = ['scheduling', 'billing'] as const;
export type BotType = (typeof botTypes)[number];

export const BOT_NAME_REQUIRED = 'El nombre del bot es requerido.';
export const BOT_NOT_FOUND = 'Bot no encontrado.';
export const BOT_TYPE_INVALID = 'Tipo de bot inválido: usa scheduling o billing.';
export const SIMULATION_NOT_FOUND = 'La sesión de prueba no existe o ya terminó.';
export const MAX_PLAYGROUND_MESSAGE = TEXT_LIMITS.message;

const botName = requiredText(TEXT_LIMITS.name, BOT_NAME_REQUIRED, `El nombre del bot admite como máximo ${TEXT_LIMITS.name} caracteres.`);

/** POST /api/bots {name, type, avatar_icon}: the avatar always follows the type. */
export const createBotRequest = z.object({
  name: botName,
  type: z.enum(botTypes, { error: BOT_TYPE_INVALID }).default('scheduling'),
  avatar_icon: trimmedText(50).nullish(),
});
export type CreateBotRequest = z.input<typeof createBotRequest>;

export const botSummary = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(botTypes),
  avatar_icon: z.enum(botTypes),
  created_at: z.string(),
  updated_at: z.string(),
});
export type BotSummary = z.infer<typeof botSummary>;
export const botListResponse = z.array(botSummary);

/** GET /api/bots/{id}: id, name, type, avatar_icon and config {nodes, edges}. */
export const botResponse = botSummary.extend({ config: savedBotConfig });
export type BotDetail = z.infer<typeof botResponse>;

/** PUT /api/bots/{id}: name and config; every node checked by its contract. */
export const saveBotRequest = z.object({ name: botName, config: botConfig });
export type SaveBotRequest = z.input<typeof saveBotRequest>;

export const PLAYGROUND_MESSAGE_REQUIRED = 'Escribe un mensaje.';

/** POST /api/bots/{id}/simulate: the editor's unsaved config runs in a server-side test session. */
export const simulateRequest = z.object({
  message: requiredText(MAX_PLAYGROUND_MESSAGE, PLAYGROUND_MESSAGE_REQUIRED, `El mensaje admite como máximo ${MAX_PLAYGROUND_MESSAGE} caracteres.`),
  sessionId: z.uuid({ error: 'sessionId inválido.' }).nullish(),
  botConfig,
});
export type SimulateRequest = z.input<typeof simulateRequest>;

export const playgroundOption = z.object({ id: z.string(), label: z.string(), value: z.string() });

/**
 * {sessionId, reply}; `replies` are the same bot messages and notes one by one, in the order the flow produced
 * them (`reply` joins them); options are the choices the bot waits on, for the playground to offer as buttons.
 */
export const simulateResponse = z.object({
  sessionId: z.string(),
  reply: z.string(),
  replies: z.array(z.string()),
  options: z.array(playgroundOption),
});
export type SimulateResponse = z.infer<typeof simulateResponse>;
