import type { boardColumns } from '../../../db/schema/index.ts';

/** A column as every call answers it (spec 01 §3 Column), without its cards. */
export const columnDto = (row: typeof boardColumns.$inferSelect) => ({
  id: row.id,
  title: row.title,
  funnelId: row.funnelId,
  color: row.color,
  gemini_config: row.geminiConfig ?? null,
  assistant_bot_id: row.assistantBotId ?? null,
});
