import { and, eq } from 'drizzle-orm';
import {
  EMAIL_LOCKED,
  OWNER_CANNOT_DEACTIVATE,
  OWNER_ROLE_LOCKED,
  OWNER_ROW_LOCKED,
  OWNER_SELF_EDIT_REFUSED,
  type InviteUserRequest,
  type UpdateUserRequest,
} from '@embudo/contracts/http/users';
import { users } from '../../../db/schema/index.ts';
import type { Db, DbExecutor } from '../../platform/db/database.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors/app-error.ts';
import { generateTemporaryPassword, hashPassword } from '../../platform/auth/secrets.ts';
import { isOwnerOrAdmin, requireMayEditUser, requireOwnerOrAdmin, type Actor } from '../../platform/policy/policy.ts';
import type { AuthenticatedSession } from '../../platform/auth/authenticated-session.ts';
import type { EventPublisher } from '../../platform/events/index.ts';
import { listFunnelIds } from '../funnels/index.ts';
import { requireMemberSeat } from '../tenants/index.ts';
import { countActiveUsers, createUser, findUser, findUserByEmail, replaceFunnelAccess, setPassword, toSessionUser, type UserRow } from './users.service.ts';

export const EMAIL_IN_USE = 'Ya existe un usuario con ese email en tu empresa.';
export const OWNER_PASSWORD_RESET_REFUSED = 'No se puede resetear la contraseña del propietario.';
export const SELF_DEACTIVATION_REFUSED = 'No puedes desactivarte a ti mismo.';
export const USER_NOT_FOUND = 'Usuario no encontrado.';
export const TEAM_MANAGERS_ONLY = 'Solo el propietario o un administrador pueden gestionar el equipo.';

/** Ends every live session of a member, in the caller's transaction; the auth module (above this one) owns sessions. */
export type RevokeSessions = (executor: DbExecutor, tenantId: string, userId: string) => Promise<void>;

/** What changing a member needs: the database and a way to end the member's sessions. */
export interface TeamDeps {
  db: Db;
  revokeSessions: RevokeSessions;
  /** user.access-changed and session.ended are published in the transaction of the change. */
  events: EventPublisher;
}

export function assertTeamManager(session: AuthenticatedSession) {
  requireOwnerOrAdmin(session.user, TEAM_MANAGERS_ONLY);
}

const actorOfSession = (session: AuthenticatedSession): Pick<Actor, 'role' | 'userId'> => ({ role: session.user.role, userId: session.user.id });

async function assertTenantFunnels(db: Db, tenantId: string, funnelIds: string[]) {
  const own = new Set(await listFunnelIds(db, tenantId));
  if (funnelIds.some((id) => !own.has(id))) throw badRequest('Funnel inválido.');
}

/** Invites a teammate with a temporary password that must be replaced at first sign-in. */
export async function inviteUser(db: Db, session: AuthenticatedSession, input: InviteUserRequest) {
  assertTeamManager(session);
  const tenantId = session.tenant.id;
  if (await findUserByEmail(db, tenantId, input.email)) throw conflict(EMAIL_IN_USE);
  if (input.is_active) requireMemberSeat(session.tenant.subscriptionPlan, await countActiveUsers(db, tenantId));
  const restricted = !isOwnerOrAdmin(input.role);
  if (restricted) await assertTenantFunnels(db, tenantId, input.funnelIds);

  const tempPassword = generateTemporaryPassword();
  const passwordHash = await hashPassword(tempPassword);
  return db.transaction(async (tx) => {
    const created = await createUser(tx, { tenantId, name: input.name, email: input.email, passwordHash, role: input.role, forcePasswordChange: true });
    let user = created;
    if (!input.is_active) {
      [user] = (await tx
        .update(users)
        .set({ isActive: false })
        .where(and(eq(users.tenantId, tenantId), eq(users.id, created.id)))
        .returning()) as [typeof created];
    }
    if (restricted) await replaceFunnelAccess(tx, user.id, [...new Set(input.funnelIds)]);
    return { user: await toSessionUser(tx, user), tempPassword };
  });
}

export interface TeamMemberUpdate {
  user: UserRow;
  /** The member was deactivated: their sessions are revoked and their sockets must end. */
  deactivated: boolean;
  /** Role or funnel access changed: their live connections must follow. */
  accessChanged: boolean;
}

/**
 * PUT /api/users/{id}: everyone may rename themself (Mi Perfil sends only the name); owners and
 * admins change other members' name, role, status and funnels. Nobody touches the owner's row from
 * the team dialog, not even the owner (spec 01 §4: it "cannot be toggled, edited or reset"; §5, §6).
 */
export async function updateTeamMember(
  { db, revokeSessions, events }: TeamDeps,
  session: AuthenticatedSession,
  userId: string,
  input: UpdateUserRequest,
): Promise<TeamMemberUpdate> {
  const tenantId = session.tenant.id;
  const target = await findUser(db, tenantId, userId);
  if (!target) throw notFound(USER_NOT_FOUND);
  const self = target.id === session.user.id;
  const emailChanged = input.email !== undefined && input.email.toLowerCase() !== target.email;
  const onlyProfileFields = input.role === undefined && input.is_active === undefined && input.funnelIds === undefined;
  requireMayEditUser(actorOfSession(session), target.id, onlyProfileFields && !emailChanged);
  if (emailChanged) throw badRequest(EMAIL_LOCKED);

  if (target.role === 'owner') {
    if (!self) throw forbidden(OWNER_ROW_LOCKED);
    if (input.role !== undefined && input.role !== 'owner') throw forbidden(OWNER_ROLE_LOCKED);
    if (input.is_active === false) throw forbidden(OWNER_CANNOT_DEACTIVATE);
    // The team form sends every field: only the profile's name-only change reaches the owner's row.
    if (!onlyProfileFields || input.email !== undefined) throw forbidden(OWNER_SELF_EDIT_REFUSED);
  } else {
    // There is one owner per company; nobody becomes one from the team form.
    if (input.role === 'owner') throw badRequest('Rol inválido.');
    if (self && input.is_active === false) throw forbidden(SELF_DEACTIVATION_REFUSED);
  }

  const role = input.role ?? target.role;
  const restricted = !isOwnerOrAdmin(role);
  const funnelIds = restricted && input.funnelIds !== undefined ? [...new Set(input.funnelIds)] : undefined;
  if (funnelIds) await assertTenantFunnels(db, tenantId, funnelIds);
  const activating = input.is_active === true && !target.isActive;
  if (activating) requireMemberSeat(session.tenant.subscriptionPlan, await countActiveUsers(db, tenantId));
  const deactivated = input.is_active === false && target.isActive;
  const accessChanged = role !== target.role || funnelIds !== undefined || activating;

  const user = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ ...(input.name !== undefined ? { name: input.name } : {}), role, ...(input.is_active !== undefined ? { isActive: input.is_active } : {}) })
      .where(and(eq(users.tenantId, tenantId), eq(users.id, target.id)))
      .returning();
    if (funnelIds) await replaceFunnelAccess(tx, target.id, funnelIds);
    if (deactivated) {
      await revokeSessions(tx, tenantId, target.id);
      await events.publish(tx, { type: 'session.ended', tenantId, payload: { userId: target.id, reason: 'deactivated' } });
    }
    if (deactivated || accessChanged) await events.publish(tx, { type: 'user.access-changed', tenantId, payload: { userId: target.id, deactivated } });
    return row!;
  });
  return { user, deactivated, accessChanged };
}

export async function resetUserPassword({ db, revokeSessions, events }: TeamDeps, session: AuthenticatedSession, userId: string) {
  assertTeamManager(session);
  const target = await findUser(db, session.tenant.id, userId);
  if (!target) throw notFound(USER_NOT_FOUND);
  if (target.role === 'owner') throw forbidden(OWNER_PASSWORD_RESET_REFUSED);
  const tempPassword = generateTemporaryPassword();
  const passwordHash = await hashPassword(tempPassword);
  await db.transaction(async (tx) => {
    await setPassword(tx, session.tenant.id, target.id, passwordHash, true);
    await revokeSessions(tx, session.tenant.id, target.id);
    await events.publish(tx, { type: 'session.ended', tenantId: session.tenant.id, payload: { userId: target.id, reason: 'revoked' } });
  });
  return { tempPassword };
}
