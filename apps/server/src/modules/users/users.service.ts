import { and, asc, eq, sql } from 'drizzle-orm';
import { userFunnelAccess, users } from '../../../db/schema/index.ts';
import type { DbExecutor } from '../../platform/db/database.ts';
import type { AuthenticatedSession } from '../../platform/auth/authenticated-session.ts';
import type { Role, SessionUser } from '@embudo/contracts/http/auth';
import { isOwnerOrAdmin, type Actor } from '../../platform/policy/policy.ts';
import type { FunnelAccess } from '../../platform/realtime/realtime.ts';
import { listFunnelIds } from '../funnels/index.ts';

export type UserRow = typeof users.$inferSelect;

/** Owners and admins see every funnel; agents and viewers only the funnels ticked on them. */
export async function funnelAccessOf(executor: DbExecutor, user: UserRow): Promise<string[]> {
  if (isOwnerOrAdmin(user.role)) return listFunnelIds(executor, user.tenantId);
  const rows = await executor.select({ funnelId: userFunnelAccess.funnelId }).from(userFunnelAccess).where(eq(userFunnelAccess.userId, user.id));
  return rows.map((row) => row.funnelId);
}

export async function toSessionUser(executor: DbExecutor, row: UserRow): Promise<SessionUser> {
  return sessionUserOf(row, await funnelAccessOf(executor, row));
}

/** A member as the API shows them, when their funnel access is already known (read with the session). */
export function sessionUserOf(row: UserRow, funnelIds: readonly string[]): SessionUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    is_active: row.isActive,
    last_login_at: row.lastLoginAt ? row.lastLoginAt.toISOString() : null,
    funnel_access: [...funnelIds],
    force_password_change: row.forcePasswordChange,
  };
}

export async function findUserByEmail(executor: DbExecutor, tenantId: string, email: string): Promise<UserRow | undefined> {
  const [row] = await executor
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.email, email.toLowerCase())))
    .limit(1);
  return row;
}

export async function findUser(executor: DbExecutor, tenantId: string, userId: string): Promise<UserRow | undefined> {
  const [row] = await executor
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .limit(1);
  return row;
}

export async function createUser(
  executor: DbExecutor,
  input: { tenantId: string; name: string; email: string; passwordHash: string; role: Role; forcePasswordChange?: boolean },
): Promise<UserRow> {
  const [row] = await executor
    .insert(users)
    .values({ ...input, email: input.email.toLowerCase(), forcePasswordChange: input.forcePasswordChange ?? false })
    .returning();
  return row!;
}

export async function setPassword(executor: DbExecutor, tenantId: string, userId: string, passwordHash: string, forceChange: boolean) {
  await executor
    .update(users)
    .set({ passwordHash, forcePasswordChange: forceChange })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
}

export async function recordLogin(executor: DbExecutor, tenantId: string, userId: string, at: Date) {
  await executor
    .update(users)
    .set({ lastLoginAt: at })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
}

export async function listUsers(executor: DbExecutor, tenantId: string): Promise<UserRow[]> {
  return executor.select().from(users).where(eq(users.tenantId, tenantId)).orderBy(asc(users.createdAt));
}

/** Active members: what the plan's member limit counts (a deactivated member frees a seat). */
export async function countActiveUsers(executor: DbExecutor, tenantId: string): Promise<number> {
  const [row] = await executor
    .select({ count: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.isActive, true)));
  return row?.count ?? 0;
}

export async function replaceFunnelAccess(executor: DbExecutor, userId: string, funnelIds: string[]) {
  await executor.delete(userFunnelAccess).where(eq(userFunnelAccess.userId, userId));
  if (funnelIds.length > 0) await executor.insert(userFunnelAccess).values(funnelIds.map((funnelId) => ({ userId, funnelId })));
}

/** The policy's view of a signed-in user. */
export async function actorOf(executor: DbExecutor, user: UserRow): Promise<Actor> {
  return { userId: user.id, role: user.role, funnelIds: await funnelAccessOf(executor, user) };
}

/** The signed-in member as the policy sees them: the session already carries their funnel access. */
export function actorOfSession(session: AuthenticatedSession): Actor {
  return { userId: session.user.id, role: session.user.role, funnelIds: session.funnelIds };
}

/** Which funnels' live events a user may receive; nothing once the user is gone or deactivated. */
export async function realtimeFunnelAccess(executor: DbExecutor, tenantId: string, userId: string): Promise<FunnelAccess> {
  const user = await findUser(executor, tenantId, userId);
  if (!user || !user.isActive) return { all: false, funnelIds: [] };
  if (isOwnerOrAdmin(user.role)) return { all: true };
  return { all: false, funnelIds: await funnelAccessOf(executor, user) };
}

/** A user of any company, for the platform operator (tenant routes use findUser, scoped by the session's tenant). */
export async function findUserOfAnyTenant(executor: DbExecutor, userId: string): Promise<UserRow | undefined> {
  const [row] = await executor.select().from(users).where(eq(users.id, userId)).limit(1);
  return row;
}

/** Every user of every company, oldest first (the platform operator's view). */
export async function listAllUsers(executor: DbExecutor): Promise<UserRow[]> {
  return executor.select().from(users).orderBy(users.createdAt);
}

export async function countAllUsers(executor: DbExecutor): Promise<number> {
  const [row] = await executor.select({ count: sql<number>`count(*)::int` }).from(users);
  return row?.count ?? 0;
}

/** How many users each company has (companies without users are absent). */
export async function userCountsByTenant(executor: DbExecutor): Promise<Map<string, number>> {
  const rows = await executor
    .select({ tenantId: users.tenantId, count: sql<number>`count(*)::int` })
    .from(users)
    .groupBy(users.tenantId);
  return new Map(rows.map((row) => [row.tenantId, row.count]));
}

export async function setUserActive(executor: DbExecutor, tenantId: string, userId: string, isActive: boolean) {
  await executor
    .update(users)
    .set({ isActive })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
}
