import { randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { providerSettings, tenants } from '../../../db/schema/index.ts';
import type { DbExecutor } from '../../platform/db/database.ts';

export const SANDBOX_SOURCE_NUMBER = '15550001000';

export interface EffectiveProviderSettings {
  appName: string | null;
  sourceNumber: string | null;
  webhookSecret: string;
}

/** The tenant's connection row, created on first use with a fresh webhook secret. */
export async function providerSettingsOf(executor: DbExecutor, tenantId: string) {
  const [existing] = await executor.select().from(providerSettings).where(eq(providerSettings.tenantId, tenantId)).limit(1);
  if (existing) return existing;
  await executor.insert(providerSettings).values({ tenantId, webhookSecret: randomBytes(24).toString('base64url') }).onConflictDoNothing();
  const [created] = await executor.select().from(providerSettings).where(eq(providerSettings.tenantId, tenantId)).limit(1);
  return created!;
}

/**
 * In sandbox mode a tenant that configured nothing still chats: its app is `sandbox-{slug}` on the
 * fake's number, so the embedded demo works with no set-up.
 */
export function sandboxAppName(slug: string) {
  return `sandbox-${slug}`;
}

export async function effectiveAccount(executor: DbExecutor, tenant: { id: string; slug: string }, sandbox: boolean) {
  const settings = await providerSettingsOf(executor, tenant.id);
  const appName = settings.appName ?? (sandbox ? sandboxAppName(tenant.slug) : null);
  const sourceNumber = settings.sourceNumber ?? (sandbox ? SANDBOX_SOURCE_NUMBER : null);
  return { appName, sourceNumber, webhookSecret: settings.webhookSecret };
}

export async function updateProviderSettings(executor: DbExecutor, tenantId: string, input: { appName: string; sourceNumber: string }) {
  await providerSettingsOf(executor, tenantId);
  const [row] = await executor
    .update(providerSettings)
    .set({ appName: input.appName, sourceNumber: input.sourceNumber, updatedAt: new Date() })
    .where(eq(providerSettings.tenantId, tenantId))
    .returning();
  return row!;
}

export function webhookUrlOf(publicUrl: string, tenantId: string, secret: string) {
  return `${publicUrl}/webhooks/gupshup/${tenantId}/${secret}`;
}

export function secretMatches(expected: string, given: string) {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Every tenant's effective app, for the sandbox fake's app registry. */
export async function allSandboxApps(executor: DbExecutor, publicUrl: string) {
  const rows = await executor
    .select({ id: tenants.id, slug: tenants.slug, name: tenants.name, appName: providerSettings.appName, sourceNumber: providerSettings.sourceNumber, secret: providerSettings.webhookSecret })
    .from(tenants)
    .leftJoin(providerSettings, eq(providerSettings.tenantId, tenants.id));
  const apps = [];
  for (const row of rows) {
    const secret = row.secret ?? (await providerSettingsOf(executor, row.id)).webhookSecret;
    apps.push({
      appName: row.appName ?? sandboxAppName(row.slug),
      sourceNumber: row.sourceNumber ?? SANDBOX_SOURCE_NUMBER,
      label: row.name,
      callbackUrl: webhookUrlOf(publicUrl, row.id, secret),
    });
  }
  return apps;
}
