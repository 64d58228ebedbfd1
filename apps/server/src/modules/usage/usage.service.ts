import { and, eq, gte, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { aiUsage, platformSettings, usageEvents } from '../../../db/schema/index.ts';
import type { DbExecutor } from '../../platform/db/database.ts';

export type UsageKind = 'sent' | 'received' | 'template_marketing' | 'template_utility';
export type AiUsageKind = (typeof aiUsage.$inferInsert)['kind'];

export interface Pricing {
  price_per_sent_message: number;
  price_per_received_message: number;
  price_template_marketing: number;
  price_template_utility: number;
  /** Issue 15: per 1,000 AI model tokens (in + out). */
  price_per_1000_ai_tokens: number;
}

const PRICING_KEY = 'pricing';
const zeroPricing: Pricing = {
  price_per_sent_message: 0,
  price_per_received_message: 0,
  price_template_marketing: 0,
  price_template_utility: 0,
  price_per_1000_ai_tokens: 0,
};

export async function currentPricing(executor: DbExecutor): Promise<Pricing> {
  const [row] = await executor.select().from(platformSettings).where(eq(platformSettings.key, PRICING_KEY)).limit(1);
  return { ...zeroPricing, ...((row?.value as Partial<Pricing> | undefined) ?? {}) };
}

/** The operator's new prices: they apply to what is counted from now on. */
export async function savePricing(executor: DbExecutor, pricing: Pricing): Promise<Pricing> {
  await executor
    .insert(platformSettings)
    .values({ key: PRICING_KEY, value: pricing })
    .onConflictDoUpdate({ target: platformSettings.key, set: { value: pricing, updatedAt: new Date() } });
  return pricing;
}

const priceKeyOf: Record<UsageKind, keyof Pricing> = {
  sent: 'price_per_sent_message',
  received: 'price_per_received_message',
  template_marketing: 'price_template_marketing',
  template_utility: 'price_template_utility',
};

/**
 * Counts `quantity` billable events of one kind at the price in force now, as one row: saving new prices changes
 * costs from that moment on without re-pricing what was already counted. For what is never un-billed one by one (a
 * batch's received messages: a row per message was a fifth of a webhook's writes on the embedded database); the
 * caller counts each event once (received messages: only those its insert stored).
 */
export async function recordUsage(executor: DbExecutor, tenantId: string, kind: UsageKind, quantity: number) {
  if (quantity <= 0) return;
  // The price is read in the same statement: no round trip for it.
  await executor.execute(sql`
    insert into ${usageEvents} (tenant_id, kind, quantity, unit_price)
    values (${tenantId}::uuid, ${kind}, ${quantity}, ${unitPriceNow(kind)})`);
}

/**
 * Changes messages and counts each one the change touched, as `recordUsageOfMessages` does, in one statement: `change` is an
 * update (or insert) of messages returning their `id`. The send path stores the provider's acceptance and its charge
 * this way, a round trip less per accepted message.
 */
export async function changeAndRecordUsage(executor: DbExecutor, tenantId: string, kind: UsageKind, change: SQL) {
  await executor.execute(sql`
    with changed as (${change})
    insert into ${usageEvents} (tenant_id, kind, message_id, unit_price)
    select ${tenantId}::uuid, ${kind}, changed.id, ${unitPriceNow(kind)} from changed
    on conflict do nothing`);
}

/** The operator's price for one event of this kind now, read by the statement that counts it. */
function unitPriceNow(kind: UsageKind) {
  return sql<number>`coalesce((select (${platformSettings.value} ->> ${priceKeyOf[kind]})::float8 from ${platformSettings} where ${platformSettings.key} = ${PRICING_KEY}), 0)`;
}

export interface AiUse {
  tenantId: string;
  cardId: string | null;
  kind: AiUsageKind;
  model: string;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  toolCalls?: unknown[];
  /** For an assistant answer: the customer message it answered (one answer per message). */
  answeredMessageId?: string;
}

/**
 * Records one use of the AI model and bills its tokens at the operator's price per 1,000 in force now. Answers false,
 * writing nothing, when that customer message already has its answer recorded (the caller then sends nothing).
 */
export async function recordAiUsage(executor: DbExecutor, use: AiUse): Promise<boolean> {
  const [row] = await executor
    .insert(aiUsage)
    .values({ ...use, toolCalls: use.toolCalls ?? [] })
    .onConflictDoNothing({ target: aiUsage.answeredMessageId })
    .returning({ id: aiUsage.id });
  if (!row) return false;
  const tokens = use.inputTokens + use.outputTokens;
  const pricing = await currentPricing(executor);
  if (tokens > 0)
    await executor.insert(usageEvents).values({ tenantId: use.tenantId, kind: 'ai', unitPrice: (tokens / 1000) * pricing.price_per_1000_ai_tokens });
  return true;
}

/**
 * Only what the provider accepted is billed, and a send it later reports as failed is un-billed: the event
 * stays (with its price) for the record and leaves the month's counts and cost.
 */
export async function unbillFailedMessage(executor: DbExecutor, tenantId: string, messageId: string): Promise<void> {
  await executor
    .update(usageEvents)
    .set({ unbilledAt: new Date() })
    .where(and(eq(usageEvents.tenantId, tenantId), eq(usageEvents.messageId, messageId), isNull(usageEvents.unbilledAt)));
}

/**
 * A send the provider accepted and then refused for the number's throughput goes out again: the charge of its
 * acceptance is dropped, and the resend is billed when accepted (once per message: the charge's key is the message).
 */
export async function dropChargeOfMessage(executor: DbExecutor, tenantId: string, messageId: string): Promise<void> {
  await executor.delete(usageEvents).where(and(eq(usageEvents.tenantId, tenantId), eq(usageEvents.messageId, messageId), isNull(usageEvents.unbilledAt)));
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
      billed: sql<number>`coalesce(sum(${usageEvents.quantity}) filter (where ${isNull(usageEvents.unbilledAt)}), 0)::int`,
      unbilled: sql<number>`coalesce(sum(${usageEvents.quantity}) filter (where ${isNotNull(usageEvents.unbilledAt)}), 0)::int`,
      cost: sql<number>`coalesce(sum(${usageEvents.unitPrice} * ${usageEvents.quantity}) filter (where ${isNull(usageEvents.unbilledAt)}), 0)::float8`,
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
    ...(await monthAiUsage(executor, tenantId, now)),
  };
}

async function monthAiUsage(executor: DbExecutor, tenantId: string, now: Date) {
  const { start, end } = monthBounds(now);
  const [row] = await executor
    .select({
      answers: sql<number>`(count(*) filter (where ${aiUsage.kind} = 'answer'))::int`,
      tokens: sql<number>`coalesce(sum(${aiUsage.inputTokens} + ${aiUsage.outputTokens}), 0)::int`,
    })
    .from(aiUsage)
    .where(and(eq(aiUsage.tenantId, tenantId), gte(aiUsage.createdAt, start), lt(aiUsage.createdAt, end)));
  return { aiAnswerCount: row?.answers ?? 0, aiTokenCount: row?.tokens ?? 0 };
}

/** Every tenant's billed cost this month (the operator's tenants page). */
export async function monthCostByTenant(executor: DbExecutor, now = new Date()): Promise<Map<string, number>> {
  const rows = await executor
    .select({ tenantId: usageEvents.tenantId, cost: sql<number>`coalesce(sum(${usageEvents.unitPrice} * ${usageEvents.quantity}), 0)::float8` })
    .from(usageEvents)
    .where(and(inMonth(now), isNull(usageEvents.unbilledAt)))
    .groupBy(usageEvents.tenantId);
  return new Map(rows.map((row) => [row.tenantId, roundCost(Number(row.cost))]));
}
