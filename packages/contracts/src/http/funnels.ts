import { z } from 'zod';
import { clientId, requiredText, safeString, safeText, TEXT_LIMITS, trimmedText } from '../text.ts';
import { columnColors } from './column-colors.ts';

export { columnColors };

const name = (message: string) => requiredText(TEXT_LIMITS.name, message);
/** Spec 01 §5 Renames: a blank value is not an error, it is simply not kept (the service ignores it). */
const rename = (message: string) => trimmedText(TEXT_LIMITS.name, { error: message });

export const createFunnelRequest = z.object({ name: name('El nombre del funnel es requerido.') });
export const renameFunnelRequest = z.object({ name: rename('El nombre del funnel es requerido.') });

export const createColumnRequest = z.object({
  funnelId: z.uuid({ error: 'Funnel inválido.' }),
  title: name('El título de la columna es requerido.'),
});

/** Issue 15: the column assistant's knowledge files; spec 01 suggests CSV, TXT or JSON, and PDF, DOCX, XLSX and MD are read too. */
export const TOOL_FILE_EXTENSIONS = ['pdf', 'docx', 'xlsx', 'csv', 'txt', 'json', 'md'] as const;
export type ToolFileExtension = (typeof TOOL_FILE_EXTENSIONS)[number];
export const TOOL_FILE_PATH = /^\/media\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.(pdf|docx|xlsx|csv|txt|json|md)$/;

/** A file the column's assistant may consult (spec 01 §3 Column AI config). */
export const columnFileToolSchema = z.object({
  type: z.literal('file_upload'),
  id: clientId('Cada herramienta necesita un id.').min(1, { error: 'Cada herramienta necesita un id.' }),
  fileName: requiredText(TEXT_LIMITS.fileName, 'Cada herramienta necesita el nombre del archivo.'),
  filePath: safeString('Cada herramienta necesita la ruta del archivo subido.').regex(TOOL_FILE_PATH, {
    error: 'La ruta del archivo no es un archivo de herramienta subido.',
  }),
  purpose: trimmedText(1000, { error: 'El propósito debe ser texto.', tooLong: 'El propósito admite como máximo 1000 caracteres.' }).default(''),
});
export type ColumnFileTool = z.infer<typeof columnFileToolSchema>;

export const WEBHOOK_URL_INVALID = 'La URL del webhook debe empezar con http:// o https://.';
/** Issue 15: a company service the column's assistant may call (GET, or POST with a JSON body it writes), through the outbound guard. */
export const columnWebhookToolSchema = z.object({
  type: z.literal('webhook'),
  id: clientId('Cada herramienta necesita un id.').min(1, { error: 'Cada herramienta necesita un id.' }),
  label: requiredText(120, 'Cada webhook necesita un nombre.', 'El nombre del webhook admite como máximo 120 caracteres.'),
  method: z.enum(['GET', 'POST'], { error: 'Método inválido: usa GET o POST.' }).default('POST'),
  url: safeString(WEBHOOK_URL_INVALID)
    .max(2048, { error: 'La URL del webhook admite como máximo 2048 caracteres.' })
    .regex(/^https?:\/\/[^\s]+$/i, { error: WEBHOOK_URL_INVALID }),
  purpose: trimmedText(1000, { error: 'El propósito debe ser texto.', tooLong: 'El propósito admite como máximo 1000 caracteres.' }).default(''),
});
export type ColumnWebhookTool = z.infer<typeof columnWebhookToolSchema>;

export const columnToolSchema = z.discriminatedUnion('type', [columnFileToolSchema, columnWebhookToolSchema], {
  error: 'Tipo de herramienta inválido: usa file_upload o webhook.',
});
export type ColumnTool = z.infer<typeof columnToolSchema>;
export const fileTools = (tools: readonly ColumnTool[]) => tools.filter((tool): tool is ColumnFileTool => tool.type === 'file_upload');
export const webhookTools = (tools: readonly ColumnTool[]) => tools.filter((tool): tool is ColumnWebhookTool => tool.type === 'webhook');

export const AI_QUIET_SECONDS_DEFAULT = 4;
export const MAX_COLUMN_TOOLS = 20;
export const TOO_MANY_TOOLS = `Como máximo ${MAX_COLUMN_TOOLS} herramientas por columna.`;
/** Issue 44: what the customer reads when the assistant cannot answer, unless the column says otherwise. */
export const AI_FALLBACK_REPLY_DEFAULT = 'Déjame consultarlo con el equipo y te respondo en breve.';
export const AI_FALLBACK_REPLY_MAX = 500;

export const geminiConfigSchema = z.object({
  isEnabled: z.boolean({ error: 'Indica isEnabled: true o false.' }),
  systemPrompt: safeText(TEXT_LIMITS.longText, {
    error: 'Las instrucciones deben ser texto.',
    tooLong: `Las instrucciones admiten como máximo ${TEXT_LIMITS.longText} caracteres.`,
  }).default(''),
  tools: z.array(columnToolSchema, { error: 'tools debe ser una lista.' }).max(MAX_COLUMN_TOOLS, { error: TOO_MANY_TOOLS }).default([]),
  /** Issue 15: customer messages this close together (seconds) get one answer. */
  quietSeconds: z
    .number({ error: 'La espera debe ser un número de segundos.' })
    .int({ error: 'La espera debe ser un número entero de segundos.' })
    .min(0, { error: 'La espera no puede ser negativa.' })
    .max(60, { error: 'La espera admite como máximo 60 segundos.' })
    .default(AI_QUIET_SECONDS_DEFAULT),
  /** Issue 15: "Pausar la IA cuando alguien del equipo responde" — a team member's message switches the card's AI off. */
  pauseOnHumanReply: z.boolean({ error: 'Indica pauseOnHumanReply: true o false.' }).default(true),
  /**
   * Issue 44: sent to a customer waiting for an answer when the model failed for good (the reason goes to a note), and
   * what the model hears of a tool that failed. Empty: nothing is sent, the note stays.
   */
  fallbackReply: trimmedText(AI_FALLBACK_REPLY_MAX, {
    error: 'La respuesta cuando la IA no puede responder debe ser texto.',
    tooLong: `La respuesta cuando la IA no puede responder admite como máximo ${AI_FALLBACK_REPLY_MAX} caracteres.`,
  }).default(AI_FALLBACK_REPLY_DEFAULT),
});
export type GeminiConfig = z.infer<typeof geminiConfigSchema>;

export const updateColumnRequest = z.object({
  title: rename('El título de la columna es requerido.').optional(),
  color: z.enum(columnColors, { error: 'Color inválido: usa blue, orange, purple o green.' }).optional(),
  gemini_config: geminiConfigSchema.nullable().optional(),
  assistant_bot_id: z.uuid({ error: 'Bot inválido.' }).nullable().optional(),
});
export type UpdateColumnRequest = z.infer<typeof updateColumnRequest>;

export const toggleAiRequest = z.object({ enabled: z.boolean({ error: 'Indica enabled: true o false.' }) });

export const moveCardRequest = z.object({
  cardId: z.uuid({ error: 'Chat inválido.' }),
  targetColumnId: z.uuid({ error: 'Columna inválida.' }),
});

export const renameCardRequest = z.object({ title: rename('El nombre del chat es requerido.') });

export const COLUMN_HAS_CHATS = 'No se puede eliminar una columna con chats. Mueve los chats primero.';

export const QUICK_REPLY_TITLE_REQUIRED = 'El título es requerido.';
export const QUICK_REPLY_TEXT_REQUIRED = 'El texto es requerido.';

const quickReplyFields = {
  title: requiredText(100, QUICK_REPLY_TITLE_REQUIRED, 'El título admite como máximo 100 caracteres.'),
  text: requiredText(TEXT_LIMITS.message, QUICK_REPLY_TEXT_REQUIRED, `El texto admite como máximo ${TEXT_LIMITS.message} caracteres.`),
};

export const createQuickReplyRequest = z.object({ columnId: z.uuid({ error: 'Columna inválida.' }), ...quickReplyFields });
export const updateQuickReplyRequest = z.object(quickReplyFields);

export const quickReplyResponse = z.object({ id: z.string(), columnId: z.string(), title: z.string(), text: z.string() });
export type QuickReply = z.infer<typeof quickReplyResponse>;

export const assignedTemplatesRequest = z.object({
  templateIds: z
    .array(z.uuid({ error: 'Plantilla inválida.' }), { error: 'templateIds debe ser una lista de plantillas.' })
    .max(200, { error: 'Como máximo 200 plantillas por columna.' }),
});
export const assignedTemplatesResponse = assignedTemplatesRequest;

export const TOOL_FILE_MAX_BYTES = 5 * 1024 * 1024;
export const TOOL_FILE_REFUSED = 'Sube un archivo PDF, DOCX, XLSX, CSV, TXT, JSON o MD.';
const columnFileToolResponse = z.object({
  type: z.literal('file_upload'),
  id: z.string(),
  fileName: z.string(),
  filePath: z.string(),
  purpose: z.string(),
});
/**
 * Spec 01's answer (fileName, filePath) is the file tool the upload added to the column's assistant config (issue 44:
 * the server keeps every uploaded file, so two uploads at once cannot replace each other).
 */
export const toolUploadResponse = columnFileToolResponse;
export type ToolUpload = z.infer<typeof toolUploadResponse>;
/**
 * Issue 44: GET /api/columns/{id}/tools/files, each of the column assistant's knowledge files with where its
 * indexing stands (indexing while its passages get their vectors; error says why).
 */
export const toolFileStateResponse = z.object({
  filePath: z.string(),
  fileName: z.string(),
  state: z.enum(['indexing', 'indexed', 'error']),
  passages: z.number().int(),
  error: z.string().optional(),
});
export type ToolFileState = z.infer<typeof toolFileStateResponse>;
export const toolFileStatesResponse = z.array(toolFileStateResponse);

// Answers (spec 01 §3 Funnel, Column, Card). Plain shapes: a response schema only describes what the server sends.

export const funnelResponse = z.object({ id: z.string(), name: z.string(), unreadCount: z.number().int() });
export type Funnel = z.infer<typeof funnelResponse>;
export const funnelSummaryResponse = z.array(funnelResponse);

const columnToolResponse = z.discriminatedUnion('type', [
  columnFileToolResponse,
  z.object({ type: z.literal('webhook'), id: z.string(), label: z.string(), method: z.enum(['GET', 'POST']), url: z.string(), purpose: z.string() }),
]);
export const geminiConfigResponse = z.object({
  isEnabled: z.boolean(),
  systemPrompt: z.string(),
  tools: z.array(columnToolResponse),
  quietSeconds: z.number().int(),
  pauseOnHumanReply: z.boolean(),
  fallbackReply: z.string(),
});

export const columnResponse = z.object({
  id: z.string(),
  title: z.string(),
  funnelId: z.string(),
  color: z.enum(columnColors),
  gemini_config: geminiConfigResponse.nullable(),
  assistant_bot_id: z.string().nullable(),
});
export type Column = z.infer<typeof columnResponse>;
/** A column with the name of its funnel (GET /api/columns/all, GET /api/funnels/{id}/columns). */
export const namedColumnResponse = columnResponse.extend({ funnelName: z.string() });
export type NamedColumn = z.infer<typeof namedColumnResponse>;
export const namedColumnListResponse = z.array(namedColumnResponse);

/**
 * Why a chat's AI is off, when someone decided it (null otherwise: its column had no assistant when it came in).
 * `team_reply`, `by_hand` and `handed_over` mean a person took the chat: a move never switches its AI back on, only the
 * chat's switch does. `column_off` ("Desactivar AI en todos") holds in that column; a move to another one forgets it.
 */
export const cardAiOffReasons = ['team_reply', 'by_hand', 'handed_over', 'column_off'] as const;
export type CardAiOffReason = (typeof cardAiOffReasons)[number];
/** The reasons a move keeps: the chat was taken over by a person. */
export const aiTakeOverReasons: readonly CardAiOffReason[] = ['team_reply', 'by_hand', 'handed_over'];

/** A chat as the board shows it: what a board answer and card_updated carry, never messages. */
export const cardSummaryResponse = z.object({
  id: z.string(),
  funnelId: z.string(),
  columnId: z.string(),
  title: z.string(),
  phone: z.string(),
  isGroup: z.boolean(),
  unreadCount: z.number().int(),
  lastMessageType: z.string().nullable(),
  lastMessageText: z.string().nullable(),
  lastActivityAt: z.string(),
  contactLastMessageAt: z.string().nullable(),
  aiEnabled: z.boolean(),
  /** Why the AI is off, when someone decided it (see cardAiOffReasons). */
  aiOffReason: z.enum(cardAiOffReasons).nullable().optional(),
});
export type CardSummary = z.infer<typeof cardSummaryResponse>;

/**
 * A board carries the first page of each column (newest activity first) with the column's total; the rest comes
 * page by page from GET /api/columns/{id}/cards, so a funnel with thousands of chats answers in one screenful.
 */
export const BOARD_PAGE_SIZE = 50;
export const BOARD_PAGE_MAX = 200;
const pageLimit = z.coerce
  .number({ error: 'Límite inválido.' })
  .int({ error: 'Límite inválido.' })
  .min(1, { error: 'Límite inválido.' })
  .max(BOARD_PAGE_MAX, { error: `El límite máximo es ${BOARD_PAGE_MAX}.` });
export const boardQuery = z.object({ perColumn: pageLimit.optional() });
export const columnCardOrders = ['recent', 'unread'] as const;
export const columnCardsQuery = z.object({
  /** Opaque: the nextCursor of the previous page. */
  cursor: safeText(TEXT_LIMITS.id, { error: 'Cursor inválido.' }).optional(),
  limit: pageLimit.optional(),
  /** Chats whose title, phone or last message contains this text. */
  search: safeText(TEXT_LIMITS.name, { error: 'La búsqueda debe ser texto.' }).optional(),
  /** `unread`: chats with unread messages first (spec 01 §2 unread-first sort). */
  sort: z.enum(columnCardOrders, { error: 'Orden inválido: usa recent o unread.' }).optional(),
});
export type ColumnCardsQuery = z.infer<typeof columnCardsQuery>;
export const columnCardsResponse = z.object({ cards: z.array(cardSummaryResponse), total: z.number().int(), nextCursor: z.string().nullable() });
export type ColumnCardsPage = z.infer<typeof columnCardsResponse>;

export const boardColumnResponse = namedColumnResponse.extend({
  cards: z.array(cardSummaryResponse),
  /** How many chats the column holds, shown or not. */
  cardCount: z.number().int(),
  /** Where the next page starts; null when `cards` is the whole column. */
  nextCursor: z.string().nullable(),
});
export type BoardColumn = z.infer<typeof boardColumnResponse>;
export const boardResponse = z.object({
  funnel: z.object({ id: z.string(), name: z.string() }),
  columns: z.array(boardColumnResponse),
  counters: z.object({ unreadIndividual: z.number().int(), unreadGroup: z.number().int(), totalContacts: z.number().int() }),
});
export type Board = z.infer<typeof boardResponse>;

/** `selected`: the funnel last chosen in the board's selector; shown while the member still sees it. */
export const shownBoardQuery = z.object({ selected: safeText(TEXT_LIMITS.id, { error: 'Funnel inválido.' }).optional() });
/**
 * What the board shows on opening, in one read: the funnels of its selector and the shown funnel's board (null when
 * the member sees no funnel). Two reads, the second waiting on the first, held the board's first paint.
 */
export const shownBoardResponse = z.object({ funnels: funnelSummaryResponse, board: boardResponse.nullable() });
export type ShownBoard = z.infer<typeof shownBoardResponse>;

export const toggleColumnCardsAiResponse = z.object({ updated: z.number().int(), enabled: z.boolean() });
export const quickReplyListResponse = z.array(quickReplyResponse);
