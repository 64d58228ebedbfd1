import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { funnels, tenants, userFunnelAccess, users } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { signedInMember } from '../../../test/support/members.ts';
import { connectClient, joinTenant, listenOnRandomPort, nextEvent, type TestSocket } from '../../../test/support/realtime-client.ts';
import { listFunnelIds } from '../funnels/index.ts';

let t: TestApp;
let baseUrl: string;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  baseUrl = await listenOnRandomPort(t.app);
});
afterAll(async () => {
  sockets.forEach((socket) => socket.disconnect());
  await t.close();
});

type Owner = Awaited<ReturnType<typeof registerTenant>>;
const put = (owner: { tenant: { slug: string } }, token: string, id: string, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: `/t/${owner.tenant.slug}/api/users/${id}`, headers: bearer(token), payload: payload as object });
const rowOf = async (id: string) => (await t.database.db.select().from(users).where(eq(users.id, id)))[0]!;
const accessOf = async (id: string) =>
  (await t.database.db.select().from(userFunnelAccess).where(eq(userFunnelAccess.userId, id))).map((row) => row.funnelId).sort();
const onPlan = (owner: Owner, plan: 'basic' | 'professional' | 'enterprise') =>
  t.database.db.update(tenants).set({ subscriptionPlan: plan }).where(eq(tenants.id, owner.tenant.id));

async function secondFunnel(owner: Owner) {
  const [row] = await t.database.db.insert(funnels).values({ tenantId: owner.tenant.id, name: 'Postventa', position: 1 }).returning();
  return row!.id;
}

describe('PUT /api/users/{id} from the team form', () => {
  it('saves name, role, status and funnels together, keeping the email', async () => {
    const owner = await registerTenant(t.app);
    await onPlan(owner, 'enterprise');
    const [first] = await listFunnelIds(t.database.db, owner.tenant.id);
    const second = await secondFunnel(owner);
    const { user } = await signedInMember(t.app, t.database.db, owner.tenant, 'agent', [first!]);
    const response = await put(owner, owner.token, user.id, {
      name: 'Carla Editada',
      email: user.email,
      role: 'viewer',
      is_active: true,
      funnelIds: [second, second],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: user.id, name: 'Carla Editada', email: user.email, role: 'viewer', is_active: true, funnel_access: [second] });
    expect(await accessOf(user.id)).toEqual([second]);
  });

  it('answers only is_active from the status toggle, and only name from the profile', async () => {
    const owner = await registerTenant(t.app);
    const { user } = await signedInMember(t.app, t.database.db, owner.tenant, 'agent');
    const off = await put(owner, owner.token, user.id, { is_active: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ is_active: false, name: user.name, role: 'agent' });
    const on = await put(owner, owner.token, user.id, { is_active: true });
    expect(on.json().is_active).toBe(true);
    const renamed = await put(owner, owner.token, user.id, { name: '  Nombre Nuevo ' });
    expect(renamed.json()).toMatchObject({ name: 'Nombre Nuevo', is_active: true, role: 'agent' });
  });

  it('gives owners and admins every funnel and ignores ticked ones for them', async () => {
    const owner = await registerTenant(t.app);
    const funnelIds = await listFunnelIds(t.database.db, owner.tenant.id);
    const { user } = await signedInMember(t.app, t.database.db, owner.tenant, 'agent');
    const response = await put(owner, owner.token, user.id, { role: 'admin', funnelIds: [] });
    expect(response.json()).toMatchObject({ role: 'admin', funnel_access: funnelIds });
  });

  it.each([
    [{ email: 'otro@equipo.test' }, 'El email no se puede cambiar.'],
    [{ role: 'owner' }, 'Rol inválido.'],
    [{ role: 'jefe' }, 'Rol inválido.'],
    [{ is_active: 'no' }, 'Estado inválido.'],
    [{ funnelIds: ['x'] }, 'Funnel inválido.'],
    [{ name: '' }, 'El nombre es requerido.'],
    [{}, 'El nombre es requerido.'],
  ])('refuses %o with 400 and changes nothing', async (payload, message) => {
    const owner = await registerTenant(t.app);
    const { user } = await signedInMember(t.app, t.database.db, owner.tenant, 'agent');
    const response = await put(owner, owner.token, user.id, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect(await rowOf(user.id)).toMatchObject({ name: user.name, email: user.email, role: 'agent', isActive: true });
  });

  it("refuses another tenant's funnel with 400 and another tenant's user with 404", async () => {
    const owner = await registerTenant(t.app);
    const other = await registerTenant(t.app);
    const { user } = await signedInMember(t.app, t.database.db, owner.tenant, 'agent');
    const [foreignFunnel] = await listFunnelIds(t.database.db, other.tenant.id);
    const foreign = await put(owner, owner.token, user.id, { funnelIds: [foreignFunnel] });
    expect(foreign.statusCode).toBe(400);
    expect(await accessOf(user.id)).toEqual([]);
    const { user: stranger } = await signedInMember(t.app, t.database.db, other.tenant, 'agent');
    const crossed = await put(owner, owner.token, stranger.id, { is_active: false });
    expect(crossed.statusCode).toBe(404);
    expect((await rowOf(stranger.id)).isActive).toBe(true);
  });

  it('lets only owners and admins change members: agents and viewers get 403', async () => {
    const owner = await registerTenant(t.app);
    await onPlan(owner, 'enterprise');
    const { user: target } = await signedInMember(t.app, t.database.db, owner.tenant, 'agent');
    const admin = await signedInMember(t.app, t.database.db, owner.tenant, 'admin');
    const agent = await signedInMember(t.app, t.database.db, owner.tenant, 'agent');
    const viewer = await signedInMember(t.app, t.database.db, owner.tenant, 'viewer');
    expect((await put(owner, admin.token, target.id, { role: 'viewer' })).statusCode).toBe(200);
    for (const member of [agent, viewer]) {
      const refused = await put(owner, member.token, target.id, { is_active: false });
      expect(refused.statusCode).toBe(403);
    }
    const ownRole = await put(owner, agent.token, agent.user.id, { role: 'admin' });
    expect(ownRole.statusCode).toBe(403);
    expect(ownRole.json().message).toBe('Solo el propietario o un administrador pueden realizar esta acción.');
    expect((await put(owner, viewer.token, viewer.user.id, { name: 'Visor Renombrado' })).statusCode).toBe(200);
    expect(await rowOf(target.id)).toMatchObject({ role: 'viewer', isActive: true });
  });
});

describe('owner protections', () => {
  it('the owner cannot change their own role or deactivate themself, but may rename themself', async () => {
    const owner = await registerTenant(t.app);
    const role = await put(owner, owner.token, owner.user.id, { name: owner.user.name, email: owner.user.email, role: 'admin', funnelIds: [] });
    expect(role.statusCode).toBe(403);
    expect(role.json().message).toBe('El propietario no puede cambiar su propio rol.');
    const off = await put(owner, owner.token, owner.user.id, { is_active: false });
    expect(off.statusCode).toBe(403);
    expect(off.json().message).toBe('El propietario no puede desactivarse a sí mismo.');
    const renamed = await put(owner, owner.token, owner.user.id, { name: 'Dueña' });
    expect(renamed.statusCode).toBe(200);
    expect(await rowOf(owner.user.id)).toMatchObject({ name: 'Dueña', role: 'owner', isActive: true });
  });

  it("the owner's own row cannot be edited from the team form, even with nothing but the name changed", async () => {
    const owner = await registerTenant(t.app);
    const teamForms = [
      { name: 'Otra Dueña', email: owner.user.email, role: 'owner', funnelIds: [] },
      { name: 'Otra Dueña', role: 'owner' },
      { name: 'Otra Dueña', email: owner.user.email },
      { is_active: true },
      { funnelIds: [] },
    ];
    for (const payload of teamForms) {
      const refused = await put(owner, owner.token, owner.user.id, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(403);
      expect(refused.json().message).toBe('El propietario no puede editar su propia fila del equipo: cambia tu nombre en Mi Perfil.');
    }
    expect(await rowOf(owner.user.id)).toMatchObject({ name: owner.user.name, role: 'owner', isActive: true });
  });

  it('nobody else edits, deactivates or resets the owner, not even an admin', async () => {
    const owner = await registerTenant(t.app);
    const admin = await signedInMember(t.app, t.database.db, owner.tenant, 'admin');
    for (const payload of [{ name: 'Cambiado' }, { is_active: false }, { role: 'agent' }]) {
      const refused = await put(owner, admin.token, owner.user.id, payload);
      expect(refused.statusCode).toBe(403);
    }
    expect((await put(owner, admin.token, owner.user.id, { is_active: false })).json().message).toBe('Solo el propietario puede modificar sus propios datos.');
    const reset = await t.app.inject({
      method: 'POST',
      url: `/t/${owner.tenant.slug}/api/users/${owner.user.id}/reset-password`,
      headers: bearer(admin.token),
    });
    expect(reset.statusCode).toBe(403);
    expect(await rowOf(owner.user.id)).toMatchObject({ name: owner.user.name, role: 'owner', isActive: true });
  });

  it('an admin cannot deactivate themself either', async () => {
    const owner = await registerTenant(t.app);
    const admin = await signedInMember(t.app, t.database.db, owner.tenant, 'admin');
    const refused = await put(owner, admin.token, admin.user.id, { is_active: false });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('No puedes desactivarte a ti mismo.');
  });
});

describe('deactivation and plan seats', () => {
  it("deactivating ends the member's sessions and live connection; they cannot sign in", async () => {
    const owner = await registerTenant(t.app);
    const member = await signedInMember(t.app, t.database.db, owner.tenant, 'agent');
    const socket = connectClient(baseUrl, member.token, owner.tenant.slug);
    sockets.push(socket);
    await joinTenant(socket, owner.tenant.slug, member.token);
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    expect((await put(owner, owner.token, member.user.id, { is_active: false })).statusCode).toBe(200);
    expect(await disconnected).toBe('io server disconnect');
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(member.token) })).statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: member.user.email, password: 'Miembro123', tenantSlug: owner.tenant.slug },
    });
    expect(login.statusCode).toBe(403);
  });

  it('counts active members against the plan: a deactivated one frees a seat, reactivating past the limit is refused', async () => {
    const owner = await registerTenant(t.app);
    const { user: first } = await signedInMember(t.app, t.database.db, owner.tenant, 'agent');
    await put(owner, owner.token, first.id, { is_active: false });
    const invited = await t.app.inject({
      method: 'POST',
      url: `/t/${owner.tenant.slug}/api/users/invite`,
      headers: bearer(owner.token),
      payload: { name: 'Segunda', email: 'segunda@equipo.test' },
    });
    expect(invited.statusCode).toBe(201);
    const refused = await put(owner, owner.token, first.id, { is_active: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Tu plan Básico (Starter) permite hasta 2 miembros activos. Mejora tu plan para invitar o activar a más usuarios.');
    expect((await rowOf(first.id)).isActive).toBe(false);
    await onPlan(owner, 'professional');
    expect((await put(owner, owner.token, first.id, { is_active: true })).statusCode).toBe(200);
  });

  it('Pro allows 10 members and Enterprise more', async () => {
    const owner = await registerTenant(t.app);
    await onPlan(owner, 'professional');
    for (let i = 0; i < 9; i++) await signedInMember(t.app, t.database.db, owner.tenant, 'agent');
    const invite = (email: string) =>
      t.app.inject({ method: 'POST', url: `/t/${owner.tenant.slug}/api/users/invite`, headers: bearer(owner.token), payload: { name: 'Once', email } });
    const refused = await invite('once@equipo.test');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('Profesional (Pro) permite hasta 10 miembros');
    await onPlan(owner, 'enterprise');
    expect((await invite('once@equipo.test')).statusCode).toBe(201);
  });
});

describe('live access follows the team form', () => {
  it('a ticked funnel starts delivering its events at once, an unticked one stops, and the user hears about it', async () => {
    const owner = await registerTenant(t.app);
    const [first] = await listFunnelIds(t.database.db, owner.tenant.id);
    const second = await secondFunnel(owner);
    const member = await signedInMember(t.app, t.database.db, owner.tenant, 'agent', [first!]);
    const socket = connectClient(baseUrl, member.token, owner.tenant.slug);
    sockets.push(socket);
    await joinTenant(socket, owner.tenant.slug, member.token);

    const updated = nextEvent(socket, 'user_updated');
    await put(owner, owner.token, member.user.id, { funnelIds: [second] });
    expect((await updated).funnel_access).toEqual([second]);

    const seen: string[] = [];
    socket.on('board_updated', (payload) => seen.push(payload.funnelId));
    const secondEvent = nextEvent(socket, 'board_updated');
    t.app.realtime.emitToFunnel(owner.tenant.id, first!, 'board_updated', { funnelId: first! });
    t.app.realtime.emitToFunnel(owner.tenant.id, second, 'board_updated', { funnelId: second });
    expect(await secondEvent).toEqual({ funnelId: second });
    expect(seen).toEqual([second]);
  });
});
