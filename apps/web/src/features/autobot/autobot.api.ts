import type { BotSettings, BotSettingsRequest } from '@embudo/contracts/http/autobot';
import { api } from '../../shared/api-client/api-client.ts';
import type { ColumnSummary } from '../board/board.api.ts';

/** Spec 01 §7 Bot settings, and the columns of every funnel to build the menu from. */
export const autobotApi = {
  load: () => api.get<BotSettings>('/api/bot-settings'),
  save: (settings: BotSettingsRequest) => api.put<BotSettings>('/api/bot-settings', settings),
  columns: () => api.get<ColumnSummary[]>('/api/columns/all'),
};
