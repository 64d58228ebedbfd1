import { createHmac, randomBytes } from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
import { providerSettings, tenants } from '../../../db/schema/index.ts';
import type { DbExecutor } from '../../platform/db/database.ts';
import { conflict } from '../../platform/errors/app-error.ts';
import { isUniqueViolation } from '../../platform/db/unique-violation.ts';

export const APP_NAME_TAKEN = 'Esa app de Gupshup ya está conectada a otra empresa.';
const SANDBOX_PREFIX = 'sandbox-';

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
  await executor
    .insert(providerSettings)
    .values({ tenantId, webhookSecret: randomBytes(24).toString('base64url') })
    .onConflictDoNothing();
  const [created] = await executor.select().from(providerSettings).where(eq(providerSettings.tenantId, tenantId)).limit(1);
  return created!;
}

/**
 * In sandbox mode a tenant that configured nothing still chats: its app is `sandbox-{slug}` on the
 * fake's number, so the embedded demo works with no set-up.
 */
export function sandboxAppName(slug: string) {
  return `${SANDBOX_PREFIX}${slug}`;
}

export async function effectiveAccount(executor: DbExecutor, tenant: { id: string; slug: string }, sandbox: boolean) {
  const settings = await providerSettingsOf(executor, tenant.id);
  const appName = settings.appName ?? (sandbox ? sandboxAppName(tenant.slug) : null);
  const sourceNumber = settings.sourceNumber ?? (sandbox ? SANDBOX_SOURCE_NUMBER : null);
  return { appName, sourceNumber, webhookSecret: settings.webhookSecret };
}

/** Another company's app, saved or its sandbox default, is refused: the app name is what picks the app. */
export async function updateProviderSettings(executor: DbExecutor, tenant: { id: string; slug: string }, input: { appName: string; sourceNumber: string }) {
  const claimed = input.appName.toLowerCase();
  const reservedForSandbox = claimed.startsWith(SANDBOX_PREFIX) && claimed !== sandboxAppName(tenant.slug).toLowerCase();
  const [takenBySettings] = await executor
    .select({ tenantId: providerSettings.tenantId })
    .from(providerSettings)
    .where(and(sql`lower(${providerSettings.appName}) = ${claimed}`, ne(providerSettings.tenantId, tenant.id)))
    .limit(1);
  if (reservedForSandbox || takenBySettings) throw conflict(APP_NAME_TAKEN);
  await providerSettingsOf(executor, tenant.id);
  try {
    const [row] = await executor
      .update(providerSettings)
      .set({ appName: input.appName, sourceNumber: input.sourceNumber, updatedAt: new Date() })
      .where(eq(providerSettings.tenantId, tenant.id))
      .returning();
    return row!;
  } catch (error) {
    // Two companies saving the same app at once: the unique index decides.
    if (isUniqueViolation(error)) throw conflict(APP_NAME_TAKEN);
    throw error;
  }
}

export function webhookUrlOf(publicUrl: string, tenantId: string, secret: string) {
  return `${publicUrl}/webhooks/gupshup/${tenantId}/${secret}`;
}

/**
 * The API key the sandbox's fake Gupshup issues to an app: an HMAC of the app name under APP_SECRET.
 * Derived rather than stored, so it needs no table, survives restarts, never leaves the server and
 * changes with APP_SECRET; only this process can compute it, so a request that guesses reaches nothing.
 */
export function sandboxApiKey(appSecret: string, appName: string) {
  return `sk_sandbox_${createHmac('sha256', appSecret).update(`sandbox-gupshup-api-key:${appName.toLowerCase()}`).digest('hex').slice(0, 40)}`;
}

/** Every tenant's effective app, with the key the fake issued it, for the sandbox fake's app registry. */
export async function allSandboxApps(executor: DbExecutor, publicUrl: string, appSecret: string) {
  const rows = await executor
    .select({
      id: tenants.id,
      slug: tenants.slug,
      name: tenants.name,
      appName: providerSettings.appName,
      sourceNumber: providerSettings.sourceNumber,
      secret: providerSettings.webhookSecret,
    })
    .from(tenants)
    .leftJoin(providerSettings, eq(providerSettings.tenantId, tenants.id));
  const apps = [];
  for (const row of rows) {
    const secret = row.secret ?? (await providerSettingsOf(executor, row.id)).webhookSecret;
    const appName = row.appName ?? sandboxAppName(row.slug);
    apps.push({
      appName,
      apiKey: sandboxApiKey(appSecret, appName),
      sourceNumber: row.sourceNumber ?? SANDBOX_SOURCE_NUMBER,
      label: row.name,
      callbackUrl: webhookUrlOf(publicUrl, row.id, secret),
    });
  }
  return apps;
}
