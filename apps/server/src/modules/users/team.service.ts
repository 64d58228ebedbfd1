import type { InviteUserRequest } from '@embudo/contracts/http/users';
import type { Db } from '../../platform/db/database.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors/app-error.ts';
import { generateTemporaryPassword, hashPassword } from '../../platform/auth/secrets.ts';
import type { AuthenticatedSession } from '../auth/auth.service.ts';
import { revokeAllSessions } from '../auth/auth.service.ts';
import { listFunnelIds } from '../funnels/funnels.service.ts';
import { memberLimitByPlan, memberLimitMessage } from '../tenants/plan-limits.ts';
import { countUsers, createUser, findUser, findUserByEmail, replaceFunnelAccess, setPassword, toSessionUser } from './users.service.ts';
import { users } from '../../../db/schema/index.ts';
import { and, eq } from 'drizzle-orm';

export const EMAIL_IN_USE = 'Ya existe un usuario con ese email en tu empresa.';
export const OWNER_PASSWORD_RESET_REFUSED = 'No se puede resetear la contraseña del propietario.';

export function assertTeamManager(session: AuthenticatedSession) {
  if (session.user.role !== 'owner' && session.user.role !== 'admin') throw forbidden('Solo el propietario o un administrador pueden gestionar el equipo.');
}

async function assertTenantFunnels(db: Db, tenantId: string, funnelIds: string[]) {
  const own = new Set(await listFunnelIds(db, tenantId));
  if (funnelIds.some((id) => !own.has(id))) throw badRequest('Funnel inválido.');
}

/** Invites a teammate with a temporary password that must be replaced at first sign-in. */
export async function inviteUser(db: Db, session: AuthenticatedSession, input: InviteUserRequest) {
  assertTeamManager(session);
  const tenantId = session.tenant.id;
  if (await findUserByEmail(db, tenantId, input.email)) throw conflict(EMAIL_IN_USE);
  if ((await countUsers(db, tenantId)) >= memberLimitByPlan[session.tenant.subscriptionPlan]) {
    throw new AppError('FORBIDDEN', memberLimitMessage(session.tenant.subscriptionPlan));
  }
  const restricted = input.role === 'agent' || input.role === 'viewer';
  if (restricted) await assertTenantFunnels(db, tenantId, input.funnelIds);

  const tempPassword = generateTemporaryPassword();
  const passwordHash = await hashPassword(tempPassword);
  return db.transaction(async (tx) => {
    const created = await createUser(tx, { tenantId, name: input.name, email: input.email, passwordHash, role: input.role, forcePasswordChange: true });
    let user = created;
    if (!input.is_active) {
      [user] = (await tx.update(users).set({ isActive: false }).where(and(eq(users.tenantId, tenantId), eq(users.id, created.id))).returning()) as [typeof created];
    }
    if (restricted) await replaceFunnelAccess(tx, user.id, [...new Set(input.funnelIds)]);
    return { user: await toSessionUser(tx, user), tempPassword };
  });
}

export async function resetUserPassword(db: Db, session: AuthenticatedSession, userId: string) {
  assertTeamManager(session);
  const target = await findUser(db, session.tenant.id, userId);
  if (!target) throw notFound('Usuario no encontrado.');
  if (target.role === 'owner') throw forbidden(OWNER_PASSWORD_RESET_REFUSED);
  const tempPassword = generateTemporaryPassword();
  const passwordHash = await hashPassword(tempPassword);
  await db.transaction(async (tx) => {
    await setPassword(tx, session.tenant.id, target.id, passwordHash, true);
    await revokeAllSessions(tx, session.tenant.id, target.id);
  });
  return { tempPassword };
}
