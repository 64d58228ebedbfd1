import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { SAME_AS_TEMPORARY_PASSWORD, type LoginRequest, type MeResponse, type RegisterRequest, type SessionResponse } from '@embudo/contracts/http/auth';
import { funnels, sessions, tenants, userFunnelAccess, users } from '../../../db/schema/index.ts';
import type { EventPublisher } from '../../platform/events/index.ts';
import type { Db, DbExecutor } from '../../platform/db/database.ts';
import { builtOnce } from '../../platform/db/built-once.ts';
import { AppError, badRequest, unauthorized } from '../../platform/errors/app-error.ts';
import type { AuthenticatedSession } from '../../platform/auth/authenticated-session.ts';
import { generateToken, hashPassword, hashToken, verifyPassword, verifySignInPassword } from '../../platform/auth/secrets.ts';
import { createTenant, findTenantBySlug, toSessionTenant, type TenantRow } from '../tenants/index.ts';
import { createUser, findUserByEmail, recordLogin, sessionUserOf, setPassword, toSessionUser, type UserRow } from '../users/index.ts';
import { createDefaultFunnel } from '../funnels/index.ts';
import { claimSignInAttempt, signInFailed, signInSucceeded, throttleKeys, type ThrottleLimits } from './login-throttle.ts';
import { lastUsedStaleBefore, sessionExpired, type SessionPolicy } from './session-lifetime.ts';

export const WRONG_CREDENTIALS = 'Email, contraseña o empresa incorrectos.';
export const SLUG_TAKEN = 'Este identificador ya está en uso';
export const PASSWORD_CHANGED = 'Contraseña actualizada exitosamente.';

async function startSession(executor: DbExecutor, user: UserRow, now: Date): Promise<string> {
  const token = generateToken();
  await executor.insert(sessions).values({ tokenHash: hashToken(token), tenantId: user.tenantId, userId: user.id, createdAt: now, lastUsedAt: now });
  return token;
}

async function sessionAnswer(executor: DbExecutor, token: string, user: UserRow, tenant: TenantRow): Promise<SessionResponse> {
  return { token, user: await toSessionUser(executor, user), tenant: toSessionTenant(tenant) };
}

export async function register(db: Db, input: RegisterRequest, now: Date): Promise<SessionResponse> {
  const passwordHash = await hashPassword(input.userPassword);
  return db.transaction(async (tx) => {
    const tenant = await createTenant(tx, { name: input.companyName, slug: input.companySlug, timezone: input.timezone });
    if (!tenant) throw new AppError('CONFLICT', SLUG_TAKEN);
    await createDefaultFunnel(tx, tenant.id);
    const owner = await createUser(tx, { tenantId: tenant.id, name: input.userName, email: input.userEmail, passwordHash, role: 'owner' });
    await recordLogin(tx, tenant.id, owner.id, now);
    const token = await startSession(tx, owner, now);
    return sessionAnswer(tx, token, { ...owner, lastLoginAt: now }, tenant);
  });
}

/** The attempt is claimed against the throttle before the password is verified (docs/decisions/0010). */
export async function login(db: Db, input: LoginRequest, clientAddress: string, limits: ThrottleLimits, now: Date): Promise<SessionResponse> {
  const keys = throttleKeys('tenant', `${input.tenantSlug}/${input.email}`, clientAddress);
  await claimSignInAttempt(db, keys, limits, now);

  const tenant = await findTenantBySlug(db, input.tenantSlug);
  const user = tenant ? await findUserByEmail(db, tenant.id, input.email) : undefined;
  const passwordMatches = await verifySignInPassword(user?.passwordHash, input.password);
  if (!tenant || !user || !passwordMatches) {
    await signInFailed(db, limits, now);
    throw unauthorized(WRONG_CREDENTIALS);
  }
  await signInSucceeded(db, keys, limits);
  if (!user.isActive) throw new AppError('FORBIDDEN', 'Tu usuario está desactivado. Contacta al administrador de tu empresa.');

  await recordLogin(db, tenant.id, user.id, now);
  const token = await startSession(db, user, now);
  return sessionAnswer(db, token, { ...user, lastLoginAt: now }, tenant);
}

/**
 * The funnels a member works, computed in the session's own read: every funnel of the company for owners and admins
 * (in board order), the ticked ones for agents and viewers.
 */
const memberFunnelIds = sql<string[]>`case when ${users.role} in ('owner', 'admin')
  then array(select ${funnels.id}::text from ${funnels} where ${funnels.tenantId} = ${users.tenantId} order by ${funnels.position})
  else array(select ${userFunnelAccess.funnelId}::text from ${userFunnelAccess} where ${userFunnelAccess.userId} = ${users.id}) end`;

const liveSessionQuery = builtOnce((db) =>
  db
    .select({ session: sessions, user: users, tenant: tenants, funnelIds: memberFunnelIds })
    .from(sessions)
    .innerJoin(users, and(eq(users.id, sessions.userId), eq(users.tenantId, sessions.tenantId)))
    .innerJoin(tenants, eq(tenants.id, sessions.tenantId))
    .where(and(eq(sessions.tokenHash, sql.placeholder('tokenHash')), isNull(sessions.revokedAt)))
    .limit(1)
    .prepare('embudo_live_session'),
);

/**
 * Resolves a bearer token to its live session; anything else (unknown, revoked, expired, inactive) is null. Every
 * request pays this, so it is one indexed read of the session joined with its member, company and funnel access
 * (docs/decisions/0012: the one read model that reads other modules' tables), and a write at most once a minute.
 */
export async function resolveSession(db: Db, token: string | undefined, policy: SessionPolicy): Promise<AuthenticatedSession | null> {
  if (!token) return null;
  const [row] = await liveSessionQuery(db).execute({ tokenHash: hashToken(token) });
  const now = policy.clock();
  if (!row || sessionExpired(row.session, policy.lifetime, now) || !row.user.isActive) return null;
  const staleBefore = lastUsedStaleBefore(now);
  if (row.session.lastUsedAt < staleBefore) {
    await db
      .update(sessions)
      .set({ lastUsedAt: now })
      .where(and(eq(sessions.id, row.session.id), lt(sessions.lastUsedAt, staleBefore)));
  }
  return { sessionId: row.session.id, user: row.user, tenant: row.tenant, funnelIds: row.funnelIds };
}

export async function logout(db: Db, session: { sessionId: string; tenantId: string; userId: string }, events: EventPublisher) {
  await db.transaction(async (tx) => {
    await tx.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, session.sessionId));
    await events.publish(tx, {
      type: 'session.ended',
      tenantId: session.tenantId,
      payload: { userId: session.userId, sessionId: session.sessionId, reason: 'logout' },
    });
  });
}

export async function revokeAllSessions(executor: DbExecutor, tenantId: string, userId: string) {
  await executor
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

export function me(session: AuthenticatedSession): MeResponse {
  return { user: sessionUserOf(session.user, session.funnelIds), tenant: toSessionTenant(session.tenant) };
}

/**
 * Spec 01: the forced-change screen applies the four rules; the account dialog only needs a
 * non-empty value. The server enforces the four rules when a change is being forced, and that the
 * new password is not the temporary one again.
 */
export async function changePassword(
  db: Db,
  session: AuthenticatedSession,
  newPassword: string,
  passwordRuleViolation: string | undefined,
  now: Date,
  events: EventPublisher,
) {
  if (session.user.forcePasswordChange) {
    if (passwordRuleViolation) throw badRequest(passwordRuleViolation);
    if (await verifyPassword(session.user.passwordHash, newPassword)) throw badRequest(SAME_AS_TEMPORARY_PASSWORD);
  }
  const passwordHash = await hashPassword(newPassword);
  return db.transaction(async (tx) => {
    await setPassword(tx, session.tenant.id, session.user.id, passwordHash, false);
    await revokeAllSessions(tx, session.tenant.id, session.user.id);
    await events.publish(tx, { type: 'session.ended', tenantId: session.tenant.id, payload: { userId: session.user.id, reason: 'password_changed' } });
    const user = { ...session.user, passwordHash, forcePasswordChange: false };
    const token = await startSession(tx, user, now);
    return { message: PASSWORD_CHANGED, token, user: await toSessionUser(tx, user) };
  });
}
