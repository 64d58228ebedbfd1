import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { SessionResponse } from '@embudo/contracts/http/auth';

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
