import { AI_FALLBACK_REPLY_DEFAULT, AI_QUIET_SECONDS_DEFAULT, type Column, type GeminiConfig } from '@embudo/contracts/http/funnels';
import type { boardColumns } from '../../../db/schema/index.ts';

/** A column as every call answers it (spec 01 §3 Column), without its cards. */
export const columnDto = (row: typeof boardColumns.$inferSelect): Column => ({
  id: row.id,
  title: row.title,
  funnelId: row.funnelId,
  color: row.color,
  gemini_config: row.geminiConfig ? withAssistantDefaults(row.geminiConfig) : null,
  assistant_bot_id: row.assistantBotId ?? null,
});

/** Configs saved before issues 15 and 44 lack the settings they added (the stored JSON was never migrated): they read as the defaults. */
export function withAssistantDefaults(config: GeminiConfig): GeminiConfig {
  return {
    ...config,
    quietSeconds: config.quietSeconds ?? AI_QUIET_SECONDS_DEFAULT,
    pauseOnHumanReply: config.pauseOnHumanReply ?? true,
    fallbackReply: config.fallbackReply ?? AI_FALLBACK_REPLY_DEFAULT,
  };
}
