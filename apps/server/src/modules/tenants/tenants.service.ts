import { desc, eq, sql } from 'drizzle-orm';
import { tenants } from '../../../db/schema/index.ts';
import type { DbExecutor } from '../../platform/db/database.ts';
import { canonicalTimeZone, isValidTimeZone } from '@embudo/contracts/time/wall-clock';
import { SLUG_MIN_LENGTH, SLUG_PATTERN, type Plan, type SessionTenant } from '@embudo/contracts/http/auth';

export const TRIAL_DAYS = 7;

export type TenantRow = typeof tenants.$inferSelect;

export function toSessionTenant(row: TenantRow): SessionTenant {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    subscription_plan: row.subscriptionPlan,
    trial_ends_at: row.trialEndsAt ? row.trialEndsAt.toISOString() : null,
    timezone: row.timezone,
  };
}

export async function findTenantBySlug(executor: DbExecutor, slug: string): Promise<TenantRow | undefined> {
  const [row] = await executor.select().from(tenants).where(eq(tenants.slug, slug)).limit(1);
  return row;
}

export async function findTenantById(executor: DbExecutor, tenantId: string): Promise<TenantRow | undefined> {
  const [row] = await executor.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return row;
}

/** A slug that breaks the pattern or length rule is never available. */
export async function isSlugAvailable(executor: DbExecutor, rawSlug: string): Promise<boolean> {
  const slug = rawSlug.trim().toLowerCase();
  if (slug.length < SLUG_MIN_LENGTH || !SLUG_PATTERN.test(slug)) return false;
  return (await findTenantBySlug(executor, slug)) === undefined;
}

/** The owner changes it in the agenda; day boundaries and availability are computed in it. */
export async function updateTenantTimezone(executor: DbExecutor, tenantId: string, timezone: string): Promise<string> {
  const canonical = canonicalTimeZone(timezone);
  await executor.update(tenants).set({ timezone: canonical }).where(eq(tenants.id, tenantId));
  return canonical;
}

export async function createTenant(executor: DbExecutor, input: { name: string; slug: string; timezone?: string; now?: Date }) {
  const now = input.now ?? new Date();
  const [row] = await executor
    .insert(tenants)
    .values({
      name: input.name,
      slug: input.slug,
      subscriptionPlan: 'basic',
      trialEndsAt: new Date(now.getTime() + TRIAL_DAYS * 24 * 60 * 60 * 1000),
      timezone: input.timezone && isValidTimeZone(input.timezone) ? canonicalTimeZone(input.timezone) : 'UTC',
    })
    .onConflictDoNothing({ target: tenants.slug })
    .returning();
  return row;
}

/** Every company, newest first (the platform operator's view). */
export async function listTenantsNewestFirst(executor: DbExecutor): Promise<TenantRow[]> {
  return executor.select().from(tenants).orderBy(desc(tenants.createdAt));
}

export async function countTenants(executor: DbExecutor): Promise<number> {
  const [row] = await executor.select({ n: sql<number>`count(*)::int` }).from(tenants);
  return row?.n ?? 0;
}

/** The operator changes a company's plan; undefined when there is no such company. */
export async function setTenantPlan(executor: DbExecutor, tenantId: string, plan: Plan): Promise<TenantRow | undefined> {
  const [row] = await executor.update(tenants).set({ subscriptionPlan: plan }).where(eq(tenants.id, tenantId)).returning();
  return row;
}
