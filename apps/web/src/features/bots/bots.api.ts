import type { BotDetail, BotSummary, BotType, SaveBotRequest, SimulateRequest, SimulateResponse } from '@embudo/contracts/http/bots';
import { api } from '../../shared/api-client/api-client.ts';

const botPath = (botId: string) => `/api/bots/${encodeURIComponent(botId)}`;

export const botsKeys = {
  all: ['bots'] as const,
  one: (botId: string) => ['bots', 'one', botId] as const,
};

/** Spec 02 §7 Bots. */
export const botsApi = {
  list: () => api.get<BotSummary[]>('/api/bots'),
  create: (input: { name: string; type: BotType }) => api.post<BotDetail>('/api/bots', { name: input.name, type: input.type, avatar_icon: input.type }),
  get: (botId: string) => api.get<BotDetail>(botPath(botId)),
  save: (botId: string, input: SaveBotRequest) => api.put<BotDetail>(botPath(botId), input),
  remove: (botId: string) => api.delete<void>(botPath(botId)),
  simulate: (botId: string, input: SimulateRequest) => api.post<SimulateResponse>(`${botPath(botId)}/simulate`, input),
  endSimulation: (sessionId: string) => api.delete<void>(`/api/bots/simulation/${encodeURIComponent(sessionId)}`),
};

export const botTypeLabels: Record<BotType, string> = { scheduling: 'Agendamiento', billing: 'Cobranza' };
