import type { Usage } from '@embudo/contracts/http/chats';
import { api } from '../../shared/api-client/api-client.ts';

/** Spec 01 §3 Usage, for the current month. */
export type { Usage };

const usageFields = ['totalCost', 'sentCount', 'receivedCount', 'marketingTemplateCount', 'utilityTemplateCount'] as const;

function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The answer is the usage itself or an object holding it (spec 01 §7); null when there is none. */
export function extractUsage(answer: unknown): Usage | null {
  const record = asRecord(answer);
  if (!record) return null;
  const hasUsage = (candidate: Record<string, unknown> | null) => candidate !== null && usageFields.some((field) => field in candidate);
  const found = hasUsage(record) ? record : [record.usage, record.data].map(asRecord).find(hasUsage);
  if (!found) return null;
  const number = (value: unknown) => {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : 0;
  };
  return {
    totalCost: number(found.totalCost),
    sentCount: number(found.sentCount),
    receivedCount: number(found.receivedCount),
    marketingTemplateCount: number(found.marketingTemplateCount),
    utilityTemplateCount: number(found.utilityTemplateCount),
    failedUnbilledCount: number(found.failedUnbilledCount),
    aiAnswerCount: number(found.aiAnswerCount),
    aiTokenCount: number(found.aiTokenCount),
  };
}

export const usageApi = {
  currentMonth: async () => extractUsage(await api.get<unknown>('/api/usage')),
};
