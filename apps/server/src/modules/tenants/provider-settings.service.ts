import { createHmac, randomBytes } from 'node:crypto';
import { and, eq, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import { providerSettings, tenants } from '../../../db/schema/index.ts';
import type { DbExecutor } from '../../platform/db/database.ts';
import type { SecretBox } from '../../platform/crypto/secret-box.ts';
import { badRequest, conflict } from '../../platform/errors/app-error.ts';
import { isUniqueViolation } from '../../platform/db/unique-violation.ts';
import type { MetaAccount, ProviderAccount, ProviderName } from '../../messaging-providers/provider.ts';

export const APP_NAME_TAKEN = 'Esa app de Gupshup ya está conectada a otra empresa.';
export const META_NUMBER_TAKEN = 'Ese número de WhatsApp (phone number id) ya está conectado a otra empresa.';
export const META_TOKEN_REQUIRED = 'El token de acceso permanente es requerido.';
export const META_APP_SECRET_REQUIRED = 'El secreto de la app (app secret) es requerido.';
const SANDBOX_PREFIX = 'sandbox-';

export const SANDBOX_SOURCE_NUMBER = '15550001000';

export interface EffectiveProviderSettings {
  appName: string | null;
  sourceNumber: string | null;
  webhookSecret: string;
}

const freshToken = () => randomBytes(24).toString('base64url');

/** The tenant's connection row, created on first use with a fresh webhook secret and Meta verify token. */
export async function providerSettingsOf(executor: DbExecutor, tenantId: string) {
  const [existing] = await executor.select().from(providerSettings).where(eq(providerSettings.tenantId, tenantId)).limit(1);
  if (existing?.metaVerifyToken) return existing;
  if (existing) {
    // Rows from before Meta: their verify token is made on first read.
    const [updated] = await executor
      .update(providerSettings)
      .set({ metaVerifyToken: sql`coalesce(${providerSettings.metaVerifyToken}, ${freshToken()})` })
      .where(eq(providerSettings.tenantId, tenantId))
      .returning();
    return updated!;
  }
  await executor.insert(providerSettings).values({ tenantId, webhookSecret: freshToken(), metaVerifyToken: freshToken() }).onConflictDoNothing();
  const [created] = await executor.select().from(providerSettings).where(eq(providerSettings.tenantId, tenantId)).limit(1);
  return created!;
}

export type ProviderSettingsRow = Awaited<ReturnType<typeof providerSettingsOf>>;

/** How much of the company's id its sandbox app name carries. */
const SANDBOX_ID_PART = 10;

/**
 * In sandbox mode a tenant that configured nothing still chats: its app on the fake's number is
 * `sandbox-{slug}-{part of its id}` (not guessable from the slug), so the embedded demo works with no set-up.
 * Companies from before keep the `sandbox-{slug}` they had, saved with their settings (`stored`).
 */
export function sandboxAppName(tenant: { id: string; slug: string }, stored?: string | null) {
  return stored ?? `${SANDBOX_PREFIX}${tenant.slug}-${tenant.id.replace(/-/g, '').slice(0, SANDBOX_ID_PART)}`;
}

export async function effectiveAccount(executor: DbExecutor, tenant: { id: string; slug: string }, sandbox: boolean) {
  const settings = await providerSettingsOf(executor, tenant.id);
  const appName = settings.appName ?? (sandbox ? sandboxAppName(tenant, settings.sandboxAppName) : null);
  const sourceNumber = settings.sourceNumber ?? (sandbox ? SANDBOX_SOURCE_NUMBER : null);
  return { appName, sourceNumber, webhookSecret: settings.webhookSecret };
}

/** Another company's app, saved or its sandbox default, is refused (409): the app name is what picks the app. */
export async function assertGupshupAppFree(executor: DbExecutor, tenant: { id: string; slug: string }, appName: string) {
  const claimed = appName.toLowerCase();
  const own = sandboxAppName(tenant, (await providerSettingsOf(executor, tenant.id)).sandboxAppName).toLowerCase();
  const reservedForSandbox = claimed.startsWith(SANDBOX_PREFIX) && claimed !== own;
  const [takenBySettings] = await executor
    .select({ tenantId: providerSettings.tenantId })
    .from(providerSettings)
    .where(and(sql`lower(${providerSettings.appName}) = ${claimed}`, ne(providerSettings.tenantId, tenant.id)))
    .limit(1);
  if (reservedForSandbox || takenBySettings) throw conflict(APP_NAME_TAKEN);
}

/** Another company's Meta number is refused (409): one number belongs to one company. */
export async function assertMetaNumberFree(executor: DbExecutor, tenant: { id: string }, phoneNumberId: string) {
  const [taken] = await executor
    .select({ tenantId: providerSettings.tenantId })
    .from(providerSettings)
    .where(and(eq(providerSettings.metaPhoneNumberId, phoneNumberId), ne(providerSettings.tenantId, tenant.id)))
    .limit(1);
  if (taken) throw conflict(META_NUMBER_TAKEN);
}

/** Another company's app, saved or its sandbox default, is refused: the app name is what picks the app. */
export async function updateProviderSettings(executor: DbExecutor, tenant: { id: string; slug: string }, input: { appName: string; sourceNumber: string }) {
  await assertGupshupAppFree(executor, tenant, input.appName);
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

/** Where a provider delivers the company's webhooks; the secret in the path is the company's own. */
export function webhookUrlOf(publicUrl: string, tenantId: string, secret: string, provider: ProviderName = 'gupshup') {
  return `${publicUrl}/webhooks/${provider}/${tenantId}/${secret}`;
}

export interface ConnectionOptions {
  sandbox: boolean;
  box: SecretBox;
  /** The Gupshup API key a send of this app goes with: the operator's (live) or the one the sandbox issued ('' when none). */
  gupshupApiKey: (appName: string) => Promise<string>;
}

const open = (box: SecretBox, sealed: string | null) => (sealed ? box.open(sealed) : '');

function metaAccountOf(row: ProviderSettingsRow, box: SecretBox): MetaAccount | undefined {
  if (!row.metaPhoneNumberId || !row.metaWabaId || !row.metaAccessToken) return undefined;
  return {
    provider: 'meta',
    phoneNumberId: row.metaPhoneNumberId,
    wabaId: row.metaWabaId,
    accessToken: open(box, row.metaAccessToken),
    appSecret: open(box, row.metaAppSecret),
    verifyToken: row.metaVerifyToken ?? '',
  };
}

/**
 * The company's saved account with one provider (by default the one it sends through), secrets opened for the
 * adapter; undefined while that provider is not configured.
 */
export async function savedAccount(
  executor: DbExecutor,
  tenant: { id: string; slug: string },
  options: ConnectionOptions,
  provider?: ProviderName,
): Promise<ProviderAccount | undefined> {
  return accountOf(await providerSettingsOf(executor, tenant.id), tenant, options, provider);
}

/**
 * `savedAccount` of a company known by its id, the company and its settings read in one statement (every send asks);
 * undefined as well when the company is gone.
 */
export async function savedAccountById(
  executor: DbExecutor,
  tenantId: string,
  options: ConnectionOptions,
  provider?: ProviderName,
): Promise<ProviderAccount | undefined> {
  const [found] = await executor
    .select({ slug: tenants.slug, settings: providerSettings })
    .from(tenants)
    .leftJoin(providerSettings, eq(providerSettings.tenantId, tenants.id))
    .where(eq(tenants.id, tenantId))
    .limit(1);
  if (!found) return undefined;
  const row = found.settings?.metaVerifyToken ? found.settings : await providerSettingsOf(executor, tenantId);
  return accountOf(row, { id: tenantId, slug: found.slug }, options, provider);
}

async function accountOf(
  row: ProviderSettingsRow,
  tenant: { id: string; slug: string },
  options: ConnectionOptions,
  provider: ProviderName | undefined,
): Promise<ProviderAccount | undefined> {
  const wanted = provider ?? row.provider;
  if (wanted === 'meta') return metaAccountOf(row, options.box);
  const appName = row.appName ?? (options.sandbox ? sandboxAppName(tenant, row.sandboxAppName) : null);
  const sourceNumber = row.sourceNumber ?? (options.sandbox ? SANDBOX_SOURCE_NUMBER : null);
  if (!appName || !sourceNumber) return undefined;
  return { provider: 'gupshup', appName, sourceNumber, apiKey: await options.gupshupApiKey(appName) };
}

/** The account a provider's webhook is checked against, however little of it is saved (the verify token always is). */
export async function webhookAccount(
  executor: DbExecutor,
  tenant: { id: string; slug: string },
  box: SecretBox,
  provider: ProviderName,
): Promise<ProviderAccount> {
  const row = await providerSettingsOf(executor, tenant.id);
  if (provider === 'gupshup')
    return { provider, appName: row.appName ?? sandboxAppName(tenant, row.sandboxAppName), sourceNumber: row.sourceNumber ?? '', apiKey: '' };
  return {
    provider,
    phoneNumberId: row.metaPhoneNumberId ?? '',
    wabaId: row.metaWabaId ?? '',
    accessToken: '',
    appSecret: open(box, row.metaAppSecret),
    verifyToken: row.metaVerifyToken ?? '',
  };
}

/** What the company sends through, for the sandbox phone: its app, or its Meta number. */
export async function activeConnectionOf(executor: DbExecutor, tenant: { id: string; slug: string }, sandbox: boolean) {
  const row = await providerSettingsOf(executor, tenant.id);
  if (row.provider === 'meta')
    return { provider: 'meta' as const, phoneNumberId: row.metaPhoneNumberId, sourceNumber: row.sourceNumber ?? SANDBOX_SOURCE_NUMBER };
  const account = await effectiveAccount(executor, tenant, sandbox);
  return { provider: 'gupshup' as const, appName: account.appName, sourceNumber: account.sourceNumber };
}

export interface MetaSettingsInput {
  phoneNumberId: string;
  wabaId: string;
  /** Blank keeps the saved one. */
  accessToken?: string;
  appSecret?: string;
}

/**
 * A Meta account from the dialog's values, blank secrets taken from the saved ones (Probar conexión before saving,
 * and saving). Refuses a missing secret with nothing saved.
 */
export async function metaAccountFrom(executor: DbExecutor, box: SecretBox, tenantId: string, input: MetaSettingsInput): Promise<MetaAccount> {
  const row = await providerSettingsOf(executor, tenantId);
  const accessToken = input.accessToken?.trim() || open(box, row.metaAccessToken);
  const appSecret = input.appSecret?.trim() || open(box, row.metaAppSecret);
  if (!accessToken) throw badRequest(META_TOKEN_REQUIRED);
  if (!appSecret) throw badRequest(META_APP_SECRET_REQUIRED);
  return { provider: 'meta', phoneNumberId: input.phoneNumberId, wabaId: input.wabaId, accessToken, appSecret, verifyToken: row.metaVerifyToken ?? '' };
}

/** Switches the company to Meta with these settings; chats and history stay as they are (they are the company's, not the provider's). */
export async function saveMetaSettings(executor: DbExecutor, box: SecretBox, tenant: { id: string }, input: MetaSettingsInput) {
  const account = await metaAccountFrom(executor, box, tenant.id, input);
  await assertMetaNumberFree(executor, tenant, account.phoneNumberId);
  try {
    const [row] = await executor
      .update(providerSettings)
      .set({
        provider: 'meta',
        metaPhoneNumberId: account.phoneNumberId,
        metaWabaId: account.wabaId,
        metaAccessToken: box.seal(account.accessToken),
        metaAppSecret: box.seal(account.appSecret),
        updatedAt: new Date(),
      })
      .where(eq(providerSettings.tenantId, tenant.id))
      .returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(META_NUMBER_TAKEN);
    throw error;
  }
}

/** Switches the company to Gupshup with this app (spec 01's settings); Meta's settings are kept for a switch back. */
export async function saveGupshupSettings(executor: DbExecutor, tenant: { id: string; slug: string }, input: { appName: string; sourceNumber: string }) {
  await updateProviderSettings(executor, tenant, input);
  const [row] = await executor
    .update(providerSettings)
    .set({ provider: 'gupshup', updatedAt: new Date() })
    .where(eq(providerSettings.tenantId, tenant.id))
    .returning();
  return row!;
}

/** Every tenant's saved Meta number, secrets opened, for the sandbox's fake Cloud API (which plays Meta for all of them). */
export async function allSandboxMetaNumbers(executor: DbExecutor, box: SecretBox, publicUrl: string) {
  const rows = await executor
    .select({ settings: providerSettings, name: tenants.name })
    .from(providerSettings)
    .innerJoin(tenants, eq(tenants.id, providerSettings.tenantId))
    .where(isNotNull(providerSettings.metaPhoneNumberId));
  return rows.flatMap(({ settings, name }) => {
    const account = metaAccountOf(settings, box);
    if (!account) return [];
    return [
      {
        ...account,
        label: name,
        displayPhoneNumber: settings.sourceNumber ?? SANDBOX_SOURCE_NUMBER,
        callbackUrl: webhookUrlOf(publicUrl, settings.tenantId, settings.webhookSecret, 'meta'),
      },
    ];
  });
}

/**
 * The API key the sandbox's fake Gupshup issues to an app: an HMAC of the app name under APP_SECRET.
 * Derived rather than stored, so it needs no table, survives restarts, never leaves the server and
 * changes with APP_SECRET; only this process can compute it, so a request that guesses reaches nothing.
 */
export function sandboxApiKey(appSecret: string, appName: string) {
  return `sk_sandbox_${createHmac('sha256', appSecret).update(`sandbox-gupshup-api-key:${appName.toLowerCase()}`).digest('hex').slice(0, 40)}`;
}

const sandboxAppColumns = {
  id: tenants.id,
  slug: tenants.slug,
  name: tenants.name,
  appName: providerSettings.appName,
  sandboxAppName: providerSettings.sandboxAppName,
  sourceNumber: providerSettings.sourceNumber,
  secret: providerSettings.webhookSecret,
};

async function sandboxAppOf(
  executor: DbExecutor,
  publicUrl: string,
  appSecret: string,
  row: { id: string; slug: string; name: string; appName: string | null; sandboxAppName: string | null; sourceNumber: string | null; secret: string | null },
) {
  const secret = row.secret ?? (await providerSettingsOf(executor, row.id)).webhookSecret;
  const appName = row.appName ?? sandboxAppName(row, row.sandboxAppName);
  return {
    appName,
    apiKey: sandboxApiKey(appSecret, appName),
    sourceNumber: row.sourceNumber ?? SANDBOX_SOURCE_NUMBER,
    label: row.name,
    callbackUrl: webhookUrlOf(publicUrl, row.id, secret),
  };
}

/** Every tenant's effective app, with the key the fake issued it, for the sandbox fake's app registry. */
export async function allSandboxApps(executor: DbExecutor, publicUrl: string, appSecret: string) {
  const rows = await executor.select(sandboxAppColumns).from(tenants).leftJoin(providerSettings, eq(providerSettings.tenantId, tenants.id));
  const apps = [];
  for (const row of rows) apps.push(await sandboxAppOf(executor, publicUrl, appSecret, row));
  return apps;
}

/**
 * The one app of that name (its saved name, or the name the sandbox gives a company that saved none), read alone:
 * the fake looks its app up on every send and callback, and reading every company's each time grew with the platform.
 */
export async function sandboxAppNamed(executor: DbExecutor, publicUrl: string, appSecret: string, appName: string) {
  const generated = new RegExp(`^${SANDBOX_PREFIX}(.+)-([0-9a-f]{${SANDBOX_ID_PART}})$`).exec(appName);
  const [row] = await executor
    .select(sandboxAppColumns)
    .from(tenants)
    .leftJoin(providerSettings, eq(providerSettings.tenantId, tenants.id))
    .where(
      or(
        eq(providerSettings.appName, appName),
        and(isNull(providerSettings.appName), eq(providerSettings.sandboxAppName, appName)),
        generated
          ? and(
              isNull(providerSettings.appName),
              isNull(providerSettings.sandboxAppName),
              eq(tenants.slug, generated[1]!),
              sql`left(replace(${tenants.id}::text, '-', ''), ${SANDBOX_ID_PART}) = ${generated[2]!}`,
            )
          : undefined,
      ),
    )
    .limit(1);
  return row && sandboxAppOf(executor, publicUrl, appSecret, row);
}

/**
 * The connection dialog's view (GET/PUT /api/whatsapp/settings): the provider the company sends through, both
 * providers' settings and webhook URLs, the verify token, and of Meta's secrets only whether they are saved.
 */
export async function whatsappSettingsView(executor: DbExecutor, tenant: { id: string; slug: string }, options: { publicUrl: string; sandbox: boolean }) {
  const row = await providerSettingsOf(executor, tenant.id);
  const gupshup = await effectiveAccount(executor, tenant, options.sandbox);
  const urlOf = (provider: ProviderName) => webhookUrlOf(options.publicUrl, tenant.id, row.webhookSecret, provider);
  return {
    provider: row.provider,
    webhookUrl: urlOf(row.provider),
    metaWebhookUrl: urlOf('meta'),
    gupshupWebhookUrl: urlOf('gupshup'),
    verifyToken: row.metaVerifyToken ?? '',
    phoneNumberId: row.metaPhoneNumberId,
    wabaId: row.metaWabaId,
    hasAccessToken: Boolean(row.metaAccessToken),
    hasAppSecret: Boolean(row.metaAppSecret),
    appName: gupshup.appName,
    sourceNumber: gupshup.sourceNumber,
    sandbox: options.sandbox,
  };
}

/** What the provider last said about the company's number: quality rating, messaging limit, the event itself. */
export interface NumberHealthUpdate {
  event: string;
  quality?: string;
  dailyLimit?: number | null;
  at: Date;
}

/** Keeps the provider's latest word about the number; an older event arriving late changes nothing. */
export async function recordNumberHealth(executor: DbExecutor, tenantId: string, update: NumberHealthUpdate) {
  await executor
    .update(providerSettings)
    .set({
      numberEvent: update.event,
      numberEventAt: update.at,
      ...(update.quality !== undefined ? { numberQuality: update.quality } : {}),
      ...(update.dailyLimit !== undefined ? { numberDailyLimit: update.dailyLimit } : {}),
    })
    .where(
      and(
        eq(providerSettings.tenantId, tenantId),
        sql`(${providerSettings.numberEventAt} is null or ${providerSettings.numberEventAt} <= ${update.at.toISOString()}::timestamptz)`,
      ),
    );
}

/** The words that stop marketing messages for the company, or null for the defaults. */
export async function optOutKeywordsOf(executor: DbExecutor, tenantId: string): Promise<string[] | null> {
  const [row] = await executor
    .select({ keywords: providerSettings.optOutKeywords })
    .from(providerSettings)
    .where(eq(providerSettings.tenantId, tenantId))
    .limit(1);
  return row?.keywords ?? null;
}

/** Saves the company's own opt-out words (already checked and in capitals), each once, in the order given. */
export async function saveOptOutKeywords(executor: DbExecutor, tenantId: string, keywords: readonly string[]): Promise<string[]> {
  const unique = [...new Set(keywords)];
  await providerSettingsOf(executor, tenantId);
  await executor.update(providerSettings).set({ optOutKeywords: unique, updatedAt: new Date() }).where(eq(providerSettings.tenantId, tenantId));
  return unique;
}

/** The number's health as the provider last reported it; all null when it has said nothing (or no connection yet). */
export async function numberHealthOf(executor: DbExecutor, tenantId: string) {
  const [row] = await executor
    .select({
      quality: providerSettings.numberQuality,
      dailyLimit: providerSettings.numberDailyLimit,
      lastEvent: providerSettings.numberEvent,
      lastEventAt: providerSettings.numberEventAt,
    })
    .from(providerSettings)
    .where(eq(providerSettings.tenantId, tenantId))
    .limit(1);
  return row ?? { quality: null, dailyLimit: null, lastEvent: null, lastEventAt: null };
}
