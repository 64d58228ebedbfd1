import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { hashPassword } from '../../platform/auth/secrets.ts';
import { createUser } from './users.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const rename = (slug: string, id: string, token: string, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: `/t/${slug}/api/users/${id}`, headers: bearer(token), payload: payload as object });

async function signedInAgent(owner: Awaited<ReturnType<typeof registerTenant>>) {
  const agent = await createUser(t.database.db, {
    tenantId: owner.tenant.id,
    name: 'Agente',
    email: `agente-${Date.now()}@x.test`,
    passwordHash: await hashPassword('Agente123'),
    role: 'agent',
  });
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: agent.email, password: 'Agente123', tenantSlug: owner.tenant.slug },
  });
  return { agent, token: login.json().token as string };
}

describe('PUT /api/users/{id} with only a name', () => {
  it('renames the signed-in user, trimmed, under both path forms', async () => {
    const owner = await registerTenant(t.app);
    const prefixed = await rename(owner.tenant.slug, owner.user.id, owner.token, { name: '  Nuevo Nombre ' });
    expect(prefixed.statusCode).toBe(200);
    expect(prefixed.json()).toMatchObject({ id: owner.user.id, name: 'Nuevo Nombre', email: owner.user.email });
    const plain = await t.app.inject({ method: 'PUT', url: `/api/users/${owner.user.id}`, headers: bearer(owner.token), payload: { name: 'Otro Nombre' } });
    expect(plain.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, owner.user.id));
    expect(row!.name).toBe('Otro Nombre');
  });

  it('refuses a blank or missing name with 400 and keeps the old one', async () => {
    const owner = await registerTenant(t.app);
    for (const payload of [{ name: '   ' }, {}, { name: 12 }]) {
      const response = await rename(owner.tenant.slug, owner.user.id, owner.token, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('El nombre es requerido.');
    }
    const [row] = await t.database.db.select().from(users).where(eq(users.id, owner.user.id));
    expect(row!.name).toBe(owner.user.name);
  });

  it('answers 404 for a user of another tenant and changes nothing', async () => {
    const a = await registerTenant(t.app);
    const b = await registerTenant(t.app);
    const response = await rename(a.tenant.slug, b.user.id, a.token, { name: 'Intruso' });
    expect(response.statusCode).toBe(404);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, b.user.id));
    expect(row!.name).toBe(b.user.name);
  });

  it('answers 404 when the path names another tenant than the session', async () => {
    const a = await registerTenant(t.app);
    const b = await registerTenant(t.app);
    const response = await rename(b.tenant.slug, a.user.id, a.token, { name: 'Cruzado' });
    expect(response.statusCode).toBe(404);
  });

  it('lets an agent rename themself but not a teammate (403)', async () => {
    const owner = await registerTenant(t.app);
    const { agent, token } = await signedInAgent(owner);
    expect((await rename(owner.tenant.slug, agent.id, token, { name: 'Agente Renombrado' })).statusCode).toBe(200);
    const other = await rename(owner.tenant.slug, owner.user.id, token, { name: 'Hackeado' });
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe('No tienes permiso para realizar esta acción.');
  });

  it('answers 400 for an id that is not a UUID', async () => {
    const owner = await registerTenant(t.app);
    const response = await rename(owner.tenant.slug, 'abc', owner.token, { name: 'X' });
    expect(response.statusCode).toBe(400);
  });
});
