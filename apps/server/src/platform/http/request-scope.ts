import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import type { AuthenticatedSession } from '../auth/authenticated-session.ts';
import type { Actor } from '../policy/policy.ts';
import { actorOfRequest, sessionOf } from './route-access.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The database tenant routes' request scopes carry. */
    requestScopeDb: Db;
  }
}

/**
 * The one calling convention of tenant services (docs/decisions/0012-module-boundaries.md): the database, the
 * signed-in member's tenant and the member as the policy sees them. A module that needs more spreads it into its own
 * scope (`{ ...await requestScope(request), events }`).
 */
export interface RequestScope {
  db: Db;
  tenantId: string;
  tenant: AuthenticatedSession['tenant'];
  actor: Actor;
  /** The member's name, as messages and notes they write are signed. */
  userName: string;
}

export function registerRequestScope(app: FastifyInstance, db: Db) {
  app.decorate('requestScopeDb', db);
}

// Computed once per request: the actor is read from the database, and a route may ask more than once.
const scopes = new WeakMap<FastifyRequest, Promise<RequestScope>>();

/** The request scope of a tenant route; the route guard has already checked the session. */
export function requestScope(request: FastifyRequest): Promise<RequestScope> {
  let scope = scopes.get(request);
  if (!scope) {
    const session = sessionOf(request);
    scope = actorOfRequest(request).then((actor) => ({
      db: request.server.requestScopeDb,
      tenantId: session.tenant.id,
      tenant: session.tenant,
      actor,
      userName: session.user.name,
    }));
    scopes.set(request, scope);
  }
  return scope;
}
