import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AuthenticatedSession } from '../auth/authenticated-session.ts';
import type { Db } from '../db/database.ts';
import type { Actor } from '../policy/policy.ts';
import { registerRequestScope, requestScope } from './request-scope.ts';
import { registerRouteAccess } from './route-access.ts';

const session = {
  sessionId: 'session-1',
  user: { id: 'user-1', name: 'Ana', forcePasswordChange: false },
  tenant: { id: 'tenant-1', slug: 'acme', timezone: 'America/Lima', subscriptionPlan: 'pro' },
} as unknown as AuthenticatedSession;

async function appWithScopeRoute() {
  const app = Fastify();
  const db = { name: 'the database' } as unknown as Db;
  let actorReads = 0;
  registerRouteAccess(
    app,
    async (token) => (token === 'good' ? session : null),
    async () => null,
    async (s): Promise<Actor> => {
      actorReads += 1;
      return { userId: s.user.id, role: 'agent', funnelIds: ['funnel-1'] };
    },
  );
  registerRequestScope(app, db);
  app.get('/api/scope', async (request) => {
    const [first, second] = [await requestScope(request), await requestScope(request)];
    return {
      sameScope: first === second,
      sameDb: first.db === db,
      tenantId: first.tenantId,
      timezone: first.tenant.timezone,
      actor: first.actor,
      userName: first.userName,
    };
  });
  return { app, actorReads: () => actorReads };
}

describe('requestScope', () => {
  it('gives a tenant route its database, tenant, actor and member name, reading the actor once per request', async () => {
    const { app, actorReads } = await appWithScopeRoute();
    const answer = await app.inject({ method: 'GET', url: '/api/scope', headers: { authorization: 'Bearer good' } });
    expect(answer.json()).toEqual({
      sameScope: true,
      sameDb: true,
      tenantId: 'tenant-1',
      timezone: 'America/Lima',
      actor: { userId: 'user-1', role: 'agent', funnelIds: ['funnel-1'] },
      userName: 'Ana',
    });
    expect(actorReads()).toBe(1);

    await app.inject({ method: 'GET', url: '/api/scope', headers: { authorization: 'Bearer good' } });
    expect(actorReads()).toBe(2);
    await app.close();
  });
});
