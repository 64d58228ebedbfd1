import { eq } from 'drizzle-orm';
import type { Role } from '@embudo/contracts/http/auth';
import { tenants } from '../../db/schema/index.ts';
import type { TestApp } from './build-test-app.ts';
import { bearer, type registerTenant } from './factories.ts';

type Owner = Awaited<ReturnType<typeof registerTenant>>;

let invited = 0;

/**
 * Invites a member with this role and funnels (on a plan with room for them) and signs them in with a
 * password of their own: the session a real agent or viewer would have.
 */
export async function signInMember(t: TestApp, owner: Owner, role: Exclude<Role, 'owner'>, funnelIds: string[] = []): Promise<Owner> {
  await t.database.db.update(tenants).set({ subscriptionPlan: 'enterprise' }).where(eq(tenants.id, owner.tenant.id));
  const email = `${role}-${++invited}-${Date.now()}@x.test`;
  const invite = await t.app.inject({ method: 'POST', url: `/t/${owner.tenant.slug}/api/users/invite`, headers: bearer(owner.token), payload: { name: role, email, role, funnelIds } });
  if (invite.statusCode !== 201) throw new Error(`invite failed: ${invite.statusCode} ${invite.body}`);
  const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: invite.json().tempPassword, tenantSlug: owner.tenant.slug } });
  const changed = await t.app.inject({ method: 'PUT', url: '/api/auth/change-password', headers: bearer(login.json().token), payload: { newPassword: 'Miembro123' } });
  return { ...owner, token: changed.json().token as string };
}
