import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import type { SessionResponse } from '@embudo/contracts/http/auth';
import { tenants } from '../../db/schema/index.ts';
import type { Db } from '../../src/platform/db/database.ts';

export const STRONG_PASSWORD = 'Secreto123';

export function uniqueSlug(prefix = 'acme') {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

export function registrationPayload(overrides: Record<string, unknown> = {}) {
  const slug = uniqueSlug();
  return {
    companyName: `Empresa ${slug}`,
    companySlug: slug,
    userName: 'Ana María López',
    userEmail: `owner@${slug}.test`,
    userPassword: STRONG_PASSWORD,
    timezone: 'America/Bogota',
    ...overrides,
  };
}

/** Registers a company through the public API and returns its session answer. */
export async function registerTenant(app: FastifyInstance, overrides: Record<string, unknown> = {}) {
  const payload = registrationPayload(overrides);
  const response = await app.inject({ method: 'POST', url: '/api/auth/register', payload });
  if (response.statusCode !== 201) throw new Error(`register failed: ${response.statusCode} ${response.body}`);
  return { ...(response.json() as SessionResponse), password: payload.userPassword };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * A member of the owner's company with that role, signed in with a password of their own. The plan
 * is raised first so the invitation fits whatever the test's plan limit.
 */
export async function signInMember(app: FastifyInstance, db: Db, owner: SessionResponse, role: 'admin' | 'agent' | 'viewer', funnelIds: string[] = []) {
  await db.update(tenants).set({ subscriptionPlan: 'enterprise' }).where(eq(tenants.id, owner.tenant.id));
  const email = `${role}-${randomBytes(4).toString('hex')}@${owner.tenant.slug}.test`;
  const invited = await app.inject({ method: 'POST', url: `/t/${owner.tenant.slug}/api/users/invite`, headers: bearer(owner.token), payload: { name: role, email, role, funnelIds } });
  if (invited.statusCode !== 201) throw new Error(`invite failed: ${invited.statusCode} ${invited.body}`);
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: invited.json().tempPassword, tenantSlug: owner.tenant.slug } });
  const changed = await app.inject({ method: 'PUT', url: '/api/auth/change-password', headers: bearer(login.json().token), payload: { newPassword: 'Miembro123' } });
  return { ...owner, token: changed.json().token as string };
}
