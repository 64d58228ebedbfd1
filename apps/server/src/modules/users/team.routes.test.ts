import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { tenants, users } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { listFunnelIds } from '../funnels/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

type Owner = Awaited<ReturnType<typeof registerTenant>>;
const invite = (owner: { tenant: { slug: string }; token: string }, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/t/${owner.tenant.slug}/api/users/invite`, headers: bearer(owner.token), payload });

async function onPlan(owner: Owner, plan: 'basic' | 'professional' | 'enterprise') {
  await t.database.db.update(tenants).set({ subscriptionPlan: plan }).where(eq(tenants.id, owner.tenant.id));
}
async function userCount(tenantId: string) {
  const [row] = await t.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(eq(users.tenantId, tenantId));
  return row!.n;
}
const login = (slug: string, email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password, tenantSlug: slug } });

describe('POST /api/users/invite', () => {
  it('creates an active agent with the ticked funnels and a temporary password that forces a change', async () => {
    const owner = await registerTenant(t.app);
    const [funnelId] = await listFunnelIds(t.database.db, owner.tenant.id);
    const response = await invite(owner, { name: 'Carla Agente', email: 'Carla@Equipo.test', role: 'agent', is_active: true, funnelIds: [funnelId] });
    expect(response.statusCode).toBe(201);
    const { user, tempPassword } = response.json();
    expect(user).toMatchObject({
      name: 'Carla Agente',
      email: 'carla@equipo.test',
      role: 'agent',
      is_active: true,
      funnel_access: [funnelId],
      force_password_change: true,
    });
    const signIn = await login(owner.tenant.slug, 'carla@equipo.test', tempPassword);
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().user.force_password_change).toBe(true);
  });

  it('defaults to an active agent', async () => {
    const owner = await registerTenant(t.app);
    const response = await invite(owner, { name: 'Por Defecto', email: 'defecto@equipo.test' });
    expect(response.json().user).toMatchObject({ role: 'agent', is_active: true, funnel_access: [] });
  });

  it('refuses past the plan limit naming the plan, and allows more on Pro', async () => {
    const owner = await registerTenant(t.app);
    expect((await invite(owner, { name: 'Uno', email: 'uno@equipo.test' })).statusCode).toBe(201);
    const refused = await invite(owner, { name: 'Dos', email: 'dos@equipo.test' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Tu plan Básico (Starter) permite hasta 2 miembros activos. Mejora tu plan para invitar o activar a más usuarios.');
    expect(await userCount(owner.tenant.id)).toBe(2);
    await onPlan(owner, 'professional');
    expect((await invite(owner, { name: 'Dos', email: 'dos@equipo.test' })).statusCode).toBe(201);
  });

  it.each([
    [{ name: '', email: 'a@b.test' }, 'El nombre es requerido.'],
    [{ name: 'X', email: '' }, 'El email es requerido.'],
    [{ name: 'X', email: 'no-email' }, 'Email inválido'],
    [{ name: 'X', email: 'x@b.test', role: 'owner' }, 'Rol inválido.'],
    [{ name: 'X', email: 'x@b.test', is_active: 'si' }, 'Estado inválido.'],
    [{ name: 'X', email: 'x@b.test', funnelIds: ['nope'] }, 'Funnel inválido.'],
  ])('refuses %o with 400 and writes nothing', async (payload, message) => {
    const owner = await registerTenant(t.app);
    const response = await invite(owner, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect(await userCount(owner.tenant.id)).toBe(1);
  });

  it("refuses another tenant's funnel and a duplicate e-mail", async () => {
    const owner = await registerTenant(t.app);
    const other = await registerTenant(t.app);
    await onPlan(owner, 'enterprise');
    const [foreignFunnel] = await listFunnelIds(t.database.db, other.tenant.id);
    const foreign = await invite(owner, { name: 'X', email: 'x@equipo.test', funnelIds: [foreignFunnel] });
    expect(foreign.statusCode).toBe(400);
    const duplicate = await invite(owner, { name: 'Dup', email: owner.user.email.toUpperCase() });
    expect(duplicate.statusCode).toBe(409);
    expect(await userCount(owner.tenant.id)).toBe(1);
  });

  it('is for owners and admins only (403 for an agent)', async () => {
    const owner = await registerTenant(t.app);
    await onPlan(owner, 'enterprise');
    const { tempPassword } = (await invite(owner, { name: 'Agente', email: 'agente@equipo.test' })).json();
    const agentLogin = (await login(owner.tenant.slug, 'agente@equipo.test', tempPassword)).json();
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/change-password',
      headers: bearer(agentLogin.token),
      payload: { newPassword: 'Agente1234' },
    });
    const agent = { tenant: owner.tenant, token: changed.json().token as string };
    const refused = await invite(agent, { name: 'Otro', email: 'otro@equipo.test' });
    expect(refused.statusCode).toBe(403);
    const list = await t.app.inject({ method: 'GET', url: `/t/${owner.tenant.slug}/api/users`, headers: bearer(agent.token) });
    expect(list.statusCode).toBe(403);
  });
});

describe('GET /api/users and POST /api/users/{id}/reset-password', () => {
  it("lists the tenant's users only", async () => {
    const owner = await registerTenant(t.app);
    await registerTenant(t.app);
    await invite(owner, { name: 'Miembro', email: 'miembro@equipo.test' });
    const list = await t.app.inject({ method: 'GET', url: `/t/${owner.tenant.slug}/api/users`, headers: bearer(owner.token) });
    expect(list.statusCode).toBe(200);
    expect(
      list
        .json()
        .map((u: { email: string }) => u.email)
        .sort(),
    ).toEqual([owner.user.email, 'miembro@equipo.test'].sort());
  });

  it("resets a member's password: new temporary password, forced change, old sessions revoked", async () => {
    const owner = await registerTenant(t.app);
    const { user, tempPassword } = (await invite(owner, { name: 'Miembro', email: 'miembro@equipo.test' })).json();
    const memberToken = (await login(owner.tenant.slug, user.email, tempPassword)).json().token;
    const reset = await t.app.inject({ method: 'POST', url: `/t/${owner.tenant.slug}/api/users/${user.id}/reset-password`, headers: bearer(owner.token) });
    expect(reset.statusCode).toBe(200);
    const fresh = reset.json().tempPassword;
    expect(fresh).not.toBe(tempPassword);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(memberToken) })).statusCode).toBe(401);
    const again = await login(owner.tenant.slug, user.email, fresh);
    expect(again.json().user.force_password_change).toBe(true);
  });

  it("never resets the owner's password, and answers 404 for another tenant's user", async () => {
    const owner = await registerTenant(t.app);
    const other = await registerTenant(t.app);
    const self = await t.app.inject({ method: 'POST', url: `/t/${owner.tenant.slug}/api/users/${owner.user.id}/reset-password`, headers: bearer(owner.token) });
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toBe('No se puede resetear la contraseña del propietario.');
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/t/${owner.tenant.slug}/api/users/${other.user.id}/reset-password`,
      headers: bearer(owner.token),
    });
    expect(foreign.statusCode).toBe(404);
  });
});
