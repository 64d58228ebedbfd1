import { eq } from 'drizzle-orm';
import type { Role } from '@embudo/contracts/http/auth';
import { tenants } from '../../db/schema/index.ts';
import type { App } from '../../src/app.ts';
import type { Db } from '../../src/platform/db/database.ts';
import { hashPassword } from '../../src/platform/auth/secrets.ts';
import { createUser, replaceFunnelAccess } from '../../src/modules/users/index.ts';
import type { TestApp } from './build-test-app.ts';
import type { registerTenant } from './factories.ts';

export const MEMBER_PASSWORD = 'Miembro123';
// One hash for every test member: argon2 is slow on purpose.
const memberHash = hashPassword(MEMBER_PASSWORD);
let memberCount = 0;

/** A signed-in teammate of the given role and funnels, created directly in the database. */
export async function signedInMember(app: App, db: Db, tenant: { id: string; slug: string }, role: Role, funnelIds: string[] = [], name?: string) {
  memberCount += 1;
  const user = await createUser(db, {
    tenantId: tenant.id,
    name: name ?? `Miembro ${role} ${memberCount}`,
    email: `miembro-${memberCount}-${Date.now()}@equipo.test`,
    passwordHash: await memberHash,
    role,
  });
  if (funnelIds.length > 0) await replaceFunnelAccess(db, user.id, funnelIds);
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: `10.77.${memberCount % 250}.${(memberCount * 7) % 250}`,
    payload: { email: user.email, password: MEMBER_PASSWORD, tenantSlug: tenant.slug },
  });
  if (login.statusCode !== 200) throw new Error(`member login failed: ${login.statusCode} ${login.body}`);
  return { user, token: login.json().token as string };
}

type Owner = Awaited<ReturnType<typeof registerTenant>>;

/** The owner's session answer with a teammate's token instead, on a plan with room for every feature. */
export async function signInMember(t: TestApp, owner: Owner, role: Exclude<Role, 'owner'>, funnelIds: string[] = []): Promise<Owner> {
  await t.database.db.update(tenants).set({ subscriptionPlan: 'enterprise' }).where(eq(tenants.id, owner.tenant.id));
  const member = await signedInMember(t.app, t.database.db, owner.tenant, role, funnelIds);
  return { ...owner, token: member.token };
}
