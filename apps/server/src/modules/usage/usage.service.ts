import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { platformSettings, usageEvents } from '../../../db/schema/index.ts';
import type { DbExecutor } from '../../platform/db/database.ts';

export type UsageKind = 'sent' | 'received' | 'template_marketing' | 'template_utility';

export interface Pricing {
  price_per_sent_message: number;
  price_per_received_message: number;
  price_template_marketing: number;
  price_template_utility: number;
}

export const PRICING_KEY = 'pricing';
const zeroPricing: Pricing = { price_per_sent_message: 0, price_per_received_message: 0, price_template_marketing: 0, price_template_utility: 0 };

export async function currentPricing(executor: DbExecutor): Promise<Pricing> {
  const [row] = await executor.select().from(platformSettings).where(eq(platformSettings.key, PRICING_KEY)).limit(1);
  return { ...zeroPricing, ...((row?.value as Partial<Pricing> | undefined) ?? {}) };
}

const priceOf = (pricing: Pricing, kind: UsageKind) =>
  ({ sent: pricing.price_per_sent_message, received: pricing.price_per_received_message, template_marketing: pricing.price_template_marketing, template_utility: pricing.price_template_utility })[kind];

/**
 * Counts one billable event at the price in force now, so saving new prices changes costs from
 * that moment on without re-pricing what was already counted. Counting a message twice is a no-op.
 */
export async function recordUsage(executor: DbExecutor, tenantId: string, kind: UsageKind, messageId: string) {
  const pricing = await currentPricing(executor);
  await executor.insert(usageEvents).values({ tenantId, kind, messageId, unitPrice: priceOf(pricing, kind) }).onConflictDoNothing();
}

export function monthBounds(now: Date) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

export async function monthUsage(executor: DbExecutor, tenantId: string, now = new Date()) {
  const { start, end } = monthBounds(now);
  const rows = await executor
    .select({ kind: usageEvents.kind, count: sql<number>`count(*)::int`, cost: sql<number>`coalesce(sum(${usageEvents.unitPrice}), 0)::float8` })
    .from(usageEvents)
    .where(and(eq(usageEvents.tenantId, tenantId), gte(usageEvents.createdAt, start), lt(usageEvents.createdAt, end)))
    .groupBy(usageEvents.kind);
  const of = (kind: UsageKind) => rows.find((row) => row.kind === kind);
  const totalCost = rows.reduce((sum, row) => sum + Number(row.cost), 0);
  return {
    totalCost: Math.round(totalCost * 10_000) / 10_000,
    sentCount: of('sent')?.count ?? 0,
    receivedCount: of('received')?.count ?? 0,
    marketingTemplateCount: of('template_marketing')?.count ?? 0,
    utilityTemplateCount: of('template_utility')?.count ?? 0,
  };
}
