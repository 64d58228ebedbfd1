import type { Role } from '@embudo/contracts/http/auth';
import type { App } from '../../src/app.ts';
import type { Db } from '../../src/platform/db/database.ts';
import { hashPassword } from '../../src/platform/auth/secrets.ts';
import { createUser, replaceFunnelAccess } from '../../src/modules/users/users.service.ts';

export const MEMBER_PASSWORD = 'Miembro123';
// One hash for every test member: argon2 is slow on purpose.
const memberHash = hashPassword(MEMBER_PASSWORD);
let memberCount = 0;

/** A signed-in teammate of the given role and funnels, created directly in the database. */
export async function signedInMember(app: App, db: Db, tenant: { id: string; slug: string }, role: Role, funnelIds: string[] = [], name?: string) {
  memberCount += 1;
  const user = await createUser(db, {
    tenantId: tenant.id, name: name ?? `Miembro ${role} ${memberCount}`, email: `miembro-${memberCount}-${Date.now()}@equipo.test`, passwordHash: await memberHash, role,
  });
  if (funnelIds.length > 0) await replaceFunnelAccess(db, user.id, funnelIds);
  const login = await app.inject({
    method: 'POST', url: '/api/auth/login', remoteAddress: `10.77.${memberCount % 250}.${(memberCount * 7) % 250}`,
    payload: { email: user.email, password: MEMBER_PASSWORD, tenantSlug: tenant.slug },
  });
  if (login.statusCode !== 200) throw new Error(`member login failed: ${login.statusCode} ${login.body}`);
  return { user, token: login.json().token as string };
}
