import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, notFound, unauthorized } from '../errors/app-error.ts';
import type { AuthenticatedSession } from '../auth/authenticated-session.ts';
import type { Actor } from '../policy/policy.ts';

/** A platform operator's session: a separate token kind that opens no tenant route. */
export interface AdminSession {
  sessionId: string;
  admin: { id: string; email: string; name: string };
}

/**
 * Who may call a route. Every route under /api or /t/{slug}/api needs a tenant session unless
 * it says otherwise; `public` routes sit on an explicit list that the route-table test reads.
 */
export type RouteAccess = 'public' | 'tenant' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** Reachable while the user must still replace a temporary password (me, change-password, logout). */
    allowDuringPasswordChange?: boolean;
  }
  interface FastifyRequest {
    tenantSession: AuthenticatedSession | null;
    adminSession: AdminSession | null;
  }
  interface FastifyInstance {
    /** The policy's view of a signed-in member (role, visible funnels); the users module provides it. */
    tenantActorOf: ActorResolver;
    /**
     * The signed-in member of a request outside the tenant routes (members-only media), by the same rules as a
     * tenant route: 401 without a valid session, 403 while a temporary password must still be replaced.
     */
    signedInMember: (request: FastifyRequest) => Promise<AuthenticatedSession>;
  }
}

export type ActorResolver = (session: AuthenticatedSession) => Promise<Actor>;

export const TENANT_PREFIX = '/t/:tenantSlug';

/** The sandbox phone's API (sandbox mode only) takes the tenant from the session, like /api. */
export const SANDBOX_API_PREFIX = '/sandbox/api/';

export function isApiRoute(url: string): boolean {
  return url.startsWith('/api/') || url.startsWith(`${TENANT_PREFIX}/api/`) || url.startsWith(SANDBOX_API_PREFIX);
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value : undefined;
}

export const PASSWORD_CHANGE_REQUIRED = 'Debes cambiar tu contraseña antes de continuar.';

export function registerRouteAccess(
  app: FastifyInstance,
  resolveSession: (token: string | undefined) => Promise<AuthenticatedSession | null>,
  resolveAdminSession: (token: string | undefined) => Promise<AdminSession | null>,
  resolveActor: ActorResolver,
) {
  const validSession = async (request: FastifyRequest) => {
    const session = await resolveSession(bearerToken(request));
    if (!session) throw unauthorized('Sesión inválida o expirada.');
    return session;
  };
  const requirePasswordReplaced = (request: FastifyRequest, session: AuthenticatedSession) => {
    if (session.user.forcePasswordChange && !request.routeOptions.config.allowDuringPasswordChange) {
      throw new AppError('PASSWORD_CHANGE_REQUIRED', PASSWORD_CHANGE_REQUIRED);
    }
  };
  const signedInMember = async (request: FastifyRequest) => {
    const session = await validSession(request);
    requirePasswordReplaced(request, session);
    return session;
  };
  app.decorate('tenantActorOf', resolveActor);
  app.decorate('signedInMember', signedInMember);
  app.decorateRequest('tenantSession', null);
  app.decorateRequest('adminSession', null);
  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    if (!url || !isApiRoute(url)) return;
    const access = request.routeOptions.config.access ?? 'tenant';
    if (access === 'public') return;
    if (access === 'admin') {
      const adminSession = await resolveAdminSession(bearerToken(request));
      if (!adminSession) throw unauthorized('Sesión de administrador inválida o expirada.');
      request.adminSession = adminSession;
      return;
    }

    const session = await validSession(request);
    if (url.startsWith(TENANT_PREFIX)) {
      const { tenantSlug } = request.params as { tenantSlug?: string };
      // Another tenant's slug answers exactly like a missing resource.
      if (tenantSlug !== session.tenant.slug) throw notFound();
    }
    requirePasswordReplaced(request, session);
    request.tenantSession = session;
  });
}

export function adminSessionOf(request: FastifyRequest): AdminSession {
  if (!request.adminSession) throw unauthorized();
  return request.adminSession;
}

/** The session of a tenant route; the onRequest hook guarantees it is there. */
export function sessionOf(request: FastifyRequest): AuthenticatedSession {
  if (!request.tenantSession) throw unauthorized();
  return request.tenantSession;
}

/**
 * Registers tenant-scoped routes twice: under /api (tenant from the session) and under
 * /t/{slug}/api, the form the web client uses, where the slug must be the session's tenant.
 */
export async function registerTenantRoutes(app: FastifyInstance, routes: (scope: FastifyInstance) => PromiseLike<unknown> | void) {
  await app.register(async (scope) => routes(scope), { prefix: '/api' });
  await app.register(async (scope) => routes(scope), { prefix: `${TENANT_PREFIX}/api` });
}

/** The signed-in member as the policy sees them, read fresh for this request (access may change at any time). */
export function actorOfRequest(request: FastifyRequest): Promise<Actor> {
  return request.server.tenantActorOf(sessionOf(request));
}

export interface RouteTableEntry {
  method: string;
  url: string;
  access: RouteAccess;
  /** The status codes (or ranges) the route declares a response schema for. */
  responseStatuses: string[];
  /** Left out of the API description (the docs' own pages, the fake provider's Gupshup surface). */
  hidden: boolean;
}

/**
 * Records every route as it is added, so tests can walk the whole API surface. Read when asked, not when
 * added: a plugin's own onRoute hook (the API docs make theirs public) runs after this root one.
 */
export function recordRouteTable(app: FastifyInstance): RouteTableEntry[] {
  const table: RouteTableEntry[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      table.push({
        method,
        url: route.url,
        get access() {
          return route.config?.access ?? 'tenant';
        },
        get responseStatuses() {
          return Object.keys((route.schema?.response as object | undefined) ?? {});
        },
        get hidden() {
          return (route.schema as { hide?: boolean } | undefined)?.hide === true;
        },
      });
    }
  });
  return table;
}
