import { and, eq, gte, isNotNull, isNull, lt, sql } from 'drizzle-orm';
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

/**
 * Only what the provider accepted is billed, and a send it later reports as failed is un-billed: the event
 * stays (with its price) for the record and leaves the month's counts and cost.
 */
export async function unbillFailedMessage(executor: DbExecutor, tenantId: string, messageId: string): Promise<void> {
  await executor.update(usageEvents).set({ unbilledAt: new Date() })
    .where(and(eq(usageEvents.tenantId, tenantId), eq(usageEvents.messageId, messageId), isNull(usageEvents.unbilledAt)));
}

export function monthBounds(now: Date) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

const roundCost = (cost: number) => Math.round(cost * 10_000) / 10_000;
const inMonth = (now: Date) => {
  const { start, end } = monthBounds(now);
  return and(gte(usageEvents.createdAt, start), lt(usageEvents.createdAt, end));
};

/** The month's billed counts and cost, and how many accepted sends failed later and were un-billed. */
export async function monthUsage(executor: DbExecutor, tenantId: string, now = new Date()) {
  const rows = await executor
    .select({
      kind: usageEvents.kind,
      billed: sql<number>`(count(*) filter (where ${isNull(usageEvents.unbilledAt)}))::int`,
      unbilled: sql<number>`(count(*) filter (where ${isNotNull(usageEvents.unbilledAt)}))::int`,
      cost: sql<number>`coalesce(sum(${usageEvents.unitPrice}) filter (where ${isNull(usageEvents.unbilledAt)}), 0)::float8`,
    })
    .from(usageEvents)
    .where(and(eq(usageEvents.tenantId, tenantId), inMonth(now)))
    .groupBy(usageEvents.kind);
  const of = (kind: UsageKind) => rows.find((row) => row.kind === kind);
  return {
    totalCost: roundCost(rows.reduce((sum, row) => sum + Number(row.cost), 0)),
    sentCount: of('sent')?.billed ?? 0,
    receivedCount: of('received')?.billed ?? 0,
    marketingTemplateCount: of('template_marketing')?.billed ?? 0,
    utilityTemplateCount: of('template_utility')?.billed ?? 0,
    failedUnbilledCount: rows.reduce((sum, row) => sum + row.unbilled, 0),
  };
}

/** Every tenant's billed cost this month (the operator's tenants page). */
export async function monthCostByTenant(executor: DbExecutor, now = new Date()): Promise<Map<string, number>> {
  const rows = await executor
    .select({ tenantId: usageEvents.tenantId, cost: sql<number>`coalesce(sum(${usageEvents.unitPrice}), 0)::float8` })
    .from(usageEvents)
    .where(and(inMonth(now), isNull(usageEvents.unbilledAt)))
    .groupBy(usageEvents.tenantId);
  return new Map(rows.map((row) => [row.tenantId, roundCost(Number(row.cost))]));
}
