import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Plan } from '@embudo/contracts/http/auth';
import { adminSessions, platformAdmins, platformSettings } from '../../../db/schema/index.ts';
import type { Db } from '../../platform/db/database.ts';
import { forbidden, notFound, unauthorized } from '../../platform/errors/app-error.ts';
import { generateTemporaryPassword, generateToken, hashPassword, hashToken, verifySignInPassword } from '../../platform/auth/secrets.ts';
import type { SecretBox } from '../../platform/crypto/secret-box.ts';
import {
  claimSignInAttempt,
  lastUsedStaleBefore,
  revokeAllSessions,
  sessionExpired,
  signInFailed,
  signInSucceeded,
  throttleKeys,
  type SessionPolicy,
  type ThrottleLimits,
} from '../auth/index.ts';
import type { AdminStats, AdminTenant, GupshupSettings, SendRate } from '@embudo/contracts/http/admin';
import type { SendPacer } from '../send-pacing/index.ts';
import { countMessagesSentBetween } from '../chats/index.ts';
import { templateCounts } from '../templates/index.ts';
import { countTenants, findTenantById, listTenantsNewestFirst, requireMemberSeat, setTenantPlan as savePlan } from '../tenants/index.ts';
import { monthBounds, monthCostByTenant, currentPricing, savePricing as saveUsagePricing, type Pricing } from '../usage/index.ts';
import { countActiveUsers, countAllUsers, findUserOfAnyTenant, listAllUsers, setPassword, setUserActive, userCountsByTenant } from '../users/index.ts';

export const ADMIN_WRONG_CREDENTIALS = 'Email o contraseña incorrectos.';
export const OWNER_STATUS_LOCKED = 'El estado del propietario no se puede cambiar.';
export const GUPSHUP_KEY = 'gupshup';
export const TENANT_NOT_FOUND = 'Empresa no encontrada.';

export type AdminRow = typeof platformAdmins.$inferSelect;
const adminDto = (row: AdminRow) => ({ id: row.id, email: row.email, name: row.name });

/** Throttled like the tenant sign-in: the attempt is claimed before the password is verified (docs/decisions/0010). */
export async function adminLogin(db: Db, input: { email: string; password: string }, address: string, limits: ThrottleLimits, now: Date) {
  const keys = throttleKeys('admin', input.email, address);
  await claimSignInAttempt(db, keys, limits, now);
  const [admin] = await db.select().from(platformAdmins).where(eq(platformAdmins.email, input.email.toLowerCase())).limit(1);
  const passwordMatches = await verifySignInPassword(admin?.passwordHash, input.password);
  if (!admin || !passwordMatches) {
    await signInFailed(db, limits, now);
    throw unauthorized(ADMIN_WRONG_CREDENTIALS);
  }
  await signInSucceeded(db, keys, limits);
  const token = generateToken();
  await db.insert(adminSessions).values({ tokenHash: hashToken(token), adminId: admin.id, createdAt: now, lastUsedAt: now });
  return { token, user: adminDto(admin) };
}

/** An operator session expires like a tenant one (idle and absolute), and answers null once revoked or expired. */
export async function resolveAdminSession(db: Db, token: string | undefined, policy: SessionPolicy) {
  if (!token) return null;
  const [row] = await db
    .select({ session: adminSessions, admin: platformAdmins })
    .from(adminSessions)
    .innerJoin(platformAdmins, eq(platformAdmins.id, adminSessions.adminId))
    .where(and(eq(adminSessions.tokenHash, hashToken(token)), isNull(adminSessions.revokedAt)))
    .limit(1);
  const now = policy.clock();
  if (!row || sessionExpired(row.session, policy.lifetime, now)) return null;
  const staleBefore = lastUsedStaleBefore(now);
  if (row.session.lastUsedAt < staleBefore) {
    await db
      .update(adminSessions)
      .set({ lastUsedAt: now })
      .where(and(eq(adminSessions.id, row.session.id), lt(adminSessions.lastUsedAt, staleBefore)));
  }
  return { sessionId: row.session.id, admin: row.admin };
}

export async function adminLogout(db: Db, sessionId: string) {
  await db.update(adminSessions).set({ revokedAt: new Date() }).where(eq(adminSessions.id, sessionId));
}

export const adminMe = (admin: AdminRow) => ({ user: adminDto(admin) });

export async function platformStats(db: Db, activeConnections: number, now = new Date()): Promise<AdminStats> {
  const { start, end } = monthBounds(now);
  return {
    totalTenants: await countTenants(db),
    totalUsers: await countAllUsers(db),
    activeConnections,
    messagesSentThisMonth: await countMessagesSentBetween(db, start, end),
    ...(await templateCounts(db)),
  };
}

export async function tenantsSummary(db: Db) {
  const [tenantRows, userCounts] = await Promise.all([listTenantsNewestFirst(db), userCountsByTenant(db)]);
  return tenantRows.map((tenant) => ({
    id: tenant.id,
    name: tenant.name,
    slug: tenant.slug,
    subscription_plan: tenant.subscriptionPlan,
    userCount: userCounts.get(tenant.id) ?? 0,
  }));
}

export async function tenantsWithUsers(db: Db, pacer: SendPacer): Promise<AdminTenant[]> {
  const [tenantRows, userRows, costs] = await Promise.all([listTenantsNewestFirst(db), listAllUsers(db), monthCostByTenant(db)]);
  const sendRates = new Map<string, SendRate>();
  for (const tenant of tenantRows) sendRates.set(tenant.id, await pacer.rateOf(tenant.id));
  return tenantRows.map((tenant) => ({
    id: tenant.id,
    name: tenant.name,
    slug: tenant.slug,
    subscription_plan: tenant.subscriptionPlan,
    trial_ends_at: tenant.trialEndsAt ? tenant.trialEndsAt.toISOString() : null,
    usage: { totalCost: costs.get(tenant.id) ?? 0 },
    send_rate: sendRates.get(tenant.id),
    users: userRows
      .filter((user) => user.tenantId === tenant.id)
      .map((user) => ({
        id: user.id,
        name: user.name,
        email: user.email,
        role: user.role,
        is_active: user.isActive,
        last_login_at: user.lastLoginAt ? user.lastLoginAt.toISOString() : null,
      })),
  }));
}

export async function setTenantPlan(db: Db, tenantId: string, plan: Plan) {
  const row = await savePlan(db, tenantId, plan);
  if (!row) throw notFound(TENANT_NOT_FOUND);
  return { id: row.id, subscription_plan: row.subscriptionPlan };
}

/** Issue 16: the operator's send rate for a company's WhatsApp number; it applies to the sends from now on. */
export async function setTenantSendRate(db: Db, pacer: SendPacer, tenantId: string, messagesPerSecond: number): Promise<SendRate> {
  if (!(await findTenantById(db, tenantId))) throw notFound(TENANT_NOT_FOUND);
  return pacer.setRate(tenantId, messagesPerSecond);
}

/**
 * An owner's status never changes; deactivating a user ends their sessions at once. Reactivating one
 * takes a seat of the company's plan, the same limit (and message) as the team dialog.
 */
export async function setUserStatus(db: Db, userId: string, isActive: boolean) {
  const user = await findUserOfAnyTenant(db, userId);
  if (!user) throw notFound('Usuario no encontrado.');
  if (user.role === 'owner') throw forbidden(OWNER_STATUS_LOCKED);
  if (isActive && !user.isActive) {
    const tenant = await findTenantById(db, user.tenantId);
    if (tenant) requireMemberSeat(tenant.subscriptionPlan, await countActiveUsers(db, user.tenantId));
  }
  await db.transaction(async (tx) => {
    await setUserActive(tx, user.tenantId, user.id, isActive);
    if (!isActive) await revokeAllSessions(tx, user.tenantId, user.id);
  });
  return { id: user.id, is_active: isActive };
}

export async function adminResetPassword(db: Db, userId: string) {
  const user = await findUserOfAnyTenant(db, userId);
  if (!user) throw notFound('Usuario no encontrado.');
  const tempPassword = generateTemporaryPassword();
  const passwordHash = await hashPassword(tempPassword);
  await db.transaction(async (tx) => {
    await setPassword(tx, user.tenantId, user.id, passwordHash, true);
    await revokeAllSessions(tx, user.tenantId, user.id);
  });
  return { tempPassword };
}

async function saveSetting(db: Db, key: string, value: unknown) {
  await db
    .insert(platformSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: platformSettings.key, set: { value, updatedAt: new Date() } });
}

export const getPricing = (db: Db) => currentPricing(db);

export const savePricing = (db: Db, pricing: Pricing) => saveUsagePricing(db, pricing);

interface StoredGupshup {
  apiKey?: string;
  partnerEmail?: string;
  partnerPassword?: string;
}

async function storedGupshup(db: Db): Promise<StoredGupshup> {
  const [row] = await db.select().from(platformSettings).where(eq(platformSettings.key, GUPSHUP_KEY)).limit(1);
  return (row?.value as StoredGupshup | undefined) ?? {};
}

/** Never returns a secret: only whether each is set, and a masked hint of the API key. */
export async function getGupshupSettings(db: Db, box: SecretBox): Promise<GupshupSettings> {
  const stored = await storedGupshup(db);
  const apiKey = stored.apiKey ? box.open(stored.apiKey) : '';
  return {
    apiKey: apiKey ? `••••${apiKey.slice(-4)}` : '',
    apiKeySet: Boolean(apiKey),
    partnerEmail: stored.partnerEmail ?? '',
    partnerPassword: '',
    partnerPasswordSet: Boolean(stored.partnerPassword),
  };
}

/** A blank password (or API key) keeps the stored one. */
export async function saveGupshupSettings(
  db: Db,
  box: SecretBox,
  input: { apiKey: string; partnerEmail: string; partnerPassword: string },
): Promise<GupshupSettings> {
  const stored = await storedGupshup(db);
  const keepsMaskedKey = input.apiKey.startsWith('••••');
  await saveSetting(db, GUPSHUP_KEY, {
    apiKey: input.apiKey && !keepsMaskedKey ? box.seal(input.apiKey) : stored.apiKey,
    partnerEmail: input.partnerEmail,
    partnerPassword: input.partnerPassword ? box.seal(input.partnerPassword) : stored.partnerPassword,
  });
  return getGupshupSettings(db, box);
}

/** The decrypted credentials, for the provider adapters only. */
export async function gupshupCredentials(db: Db, box: SecretBox) {
  const stored = await storedGupshup(db);
  return {
    apiKey: stored.apiKey ? box.open(stored.apiKey) : undefined,
    partnerEmail: stored.partnerEmail || undefined,
    partnerPassword: stored.partnerPassword ? box.open(stored.partnerPassword) : undefined,
  };
}
