import { queryRows } from '../../src/platform/db/database.ts';
import { bootstrapPlatformAdmin } from '../../src/modules/admin/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { bearer, registerTenant } from '../support/factories.ts';
import { isApiRoute, TENANT_PREFIX } from '../../src/platform/http/route-access.ts';

/**
 * Walks the server's own route table, so every API route a later change adds is covered here
 * without anyone remembering to. Public routes must be listed explicitly below.
 */
const PUBLIC_ROUTES = new Set([
  'POST /api/auth/login',
  'POST /api/auth/register',
  'GET /api/tenants/check-slug/:slug',
  'POST /api/auth/admin/login',
  // The API documentation (test/http/openapi.test.ts): the page, its assets and the generated document.
  'GET /api/docs',
  'GET /api/docs/static/index.html',
  'GET /api/docs/static/swagger-initializer.js',
  'GET /api/docs/static/*',
  'GET /api/docs/json',
  'GET /api/docs/yaml',
  'GET /api/docs/openapi.json',
]);

let t: TestApp;
let a: Awaited<ReturnType<typeof registerTenant>>;
let b: Awaited<ReturnType<typeof registerTenant>>;
let tenantBIds: string[];
let adminToken: string;

beforeAll(async () => {
  t = await buildTestApp();
  a = await registerTenant(t.app, { companyName: 'Tenant Alfa Secreta' });
  b = await registerTenant(t.app, { companyName: 'Tenant Beta Secreta', userName: 'Beto Confidencial' });
  tenantBIds = await idsOwnedBy(b.tenant.id);
  await bootstrapPlatformAdmin(t.database.db, { email: 'seguridad@embudo.test', password: 'Seguridad123' });
  adminToken = (
    await t.app.inject({ method: 'POST', url: '/api/auth/admin/login', payload: { email: 'seguridad@embudo.test', password: 'Seguridad123' } })
  ).json().token;
});
afterAll(async () => t.close());

/** Every id of every row that carries this tenant's id, whatever table a later issue adds. */
async function idsOwnedBy(tenantId: string): Promise<string[]> {
  const tables = await queryRows<{ table_name: string }>(
    t.database.db,
    sql`
    select c.table_name from information_schema.columns c
    join information_schema.columns i on i.table_schema = c.table_schema and i.table_name = c.table_name and i.column_name = 'id'
    where c.table_schema = 'public' and c.column_name = 'tenant_id'`,
  );
  const ids: string[] = [];
  for (const { table_name } of tables) {
    const rows = await queryRows<{ id: string }>(t.database.db, sql`select id::text as id from ${sql.identifier(table_name)} where tenant_id = ${tenantId}`);
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}

const apiRoutes = () => t.app.routeTable.filter((route) => isApiRoute(route.url));

function fillPath(url: string, slug: string, id: string) {
  return url.replace(':tenantSlug', slug).replace(/:[A-Za-z]+/g, id);
}

const payloadFor = (method: string) => (method === 'GET' || method === 'DELETE' ? undefined : {});

describe('route table', () => {
  it('has public API routes only from the explicit list', () => {
    const publicRoutes = apiRoutes()
      .filter((route) => route.access === 'public')
      .map((route) => `${route.method} ${route.url}`);
    expect(new Set(publicRoutes)).toEqual(PUBLIC_ROUTES);
    expect(apiRoutes().length).toBeGreaterThan(PUBLIC_ROUTES.size);
  });

  it('answers 401 to every non-public API route called without a valid token', async () => {
    const guarded = apiRoutes().filter((route) => route.access !== 'public');
    for (const route of guarded) {
      const url = fillPath(route.url, a.tenant.slug, a.user.id);
      for (const headers of [{}, bearer('not-a-real-token')]) {
        const response = await t.app.inject({ method: route.method as 'GET', url, headers, payload: payloadFor(route.method) });
        expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
      }
    }
  });

  it('keeps token kinds apart: a tenant token opens no admin route and an admin token no tenant route', async () => {
    for (const route of apiRoutes().filter((entry) => entry.access !== 'public')) {
      const token = route.access === 'admin' ? a.token : adminToken;
      const response = await t.app.inject({
        method: route.method as 'GET',
        url: fillPath(route.url, a.tenant.slug, a.user.id),
        headers: bearer(token),
        payload: payloadFor(route.method),
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it("answers 404 to every tenant-scoped route called with another tenant's slug", async () => {
    const scoped = apiRoutes().filter((route) => route.url.startsWith(TENANT_PREFIX));
    expect(scoped.length).toBeGreaterThan(0);
    for (const route of scoped) {
      for (const id of [a.user.id, ...tenantBIds]) {
        const response = await t.app.inject({
          method: route.method as 'GET',
          url: fillPath(route.url, b.tenant.slug, id),
          headers: bearer(a.token),
          payload: payloadFor(route.method),
        });
        expect(response.statusCode, `${route.method} ${route.url}`).toBe(404);
      }
    }
  });

  it("never returns another tenant's data when its ids are used with one's own token and slug", async () => {
    expect(tenantBIds.length).toBeGreaterThan(0);
    const withIds = apiRoutes().filter((route) => route.access === 'tenant' && /:(?!tenantSlug)[A-Za-z]+/.test(route.url));
    expect(withIds.length).toBeGreaterThan(0);
    for (const route of withIds) {
      for (const id of tenantBIds) {
        const response = await t.app.inject({
          method: route.method as 'GET',
          url: fillPath(route.url, a.tenant.slug, id),
          headers: bearer(a.token),
          payload: payloadFor(route.method),
        });
        const context = `${route.method} ${route.url} with ${id}`;
        expect(response.statusCode, context).toBeGreaterThanOrEqual(400);
        expect(response.body, context).not.toContain('Tenant Beta Secreta');
        expect(response.body, context).not.toContain('Beto Confidencial');
        expect(response.body, context).not.toContain(b.user.email);
      }
    }
  });

  // One sign-in (argon2, slow on purpose) per call, for every body route: more than the default 30 s on a busy machine.
  it('never answers 500 to malformed JSON, missing fields or wrong types', async () => {
    const withBody = apiRoutes().filter((route) => ['POST', 'PUT', 'PATCH'].includes(route.method));
    expect(withBody.length).toBeGreaterThan(0);
    const bodies: Array<{ body: string; expected?: number }> = [
      { body: '{"broken":', expected: 400 },
      { body: '[]' },
      { body: '"text"' },
      { body: '{}' },
      { body: '{"name":123,"email":false,"newPassword":[],"tenantSlug":{}}' },
    ];
    const signIn = {
      tenant: async () =>
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/auth/login',
            remoteAddress: '10.9.9.9',
            payload: { email: a.user.email, password: a.password, tenantSlug: a.tenant.slug },
          })
        ).json().token as string,
      admin: async () =>
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/auth/admin/login',
            remoteAddress: '10.9.9.8',
            payload: { email: 'seguridad@embudo.test', password: 'Seguridad123' },
          })
        ).json().token as string,
    };
    const tokens: Partial<Record<keyof typeof signIn, string>> = {};
    for (const route of withBody) {
      const kind = route.access === 'admin' ? 'admin' : 'tenant';
      for (const { body, expected } of bodies) {
        const send = async () => {
          tokens[kind] ??= await signIn[kind]();
          return t.app.inject({
            method: route.method as 'POST',
            url: fillPath(route.url, a.tenant.slug, crypto.randomUUID()),
            headers: { ...bearer(tokens[kind]), 'content-type': 'application/json' },
            body,
          });
        };
        // Some routes (logout, change-password) end the session they are called with: sign in again
        // (argon2 makes a sign-in per call too slow) and call once more with a live session.
        let response = await send();
        if (response.statusCode === 401) {
          tokens[kind] = undefined;
          response = await send();
        }
        const context = `${route.method} ${route.url} with ${body}`;
        expect(response.statusCode, context).toBeLessThan(500);
        if (expected) expect(response.statusCode, context).toBe(expected);
        if (response.statusCode >= 400) expect(response.json().message, context).toEqual(expect.any(String));
      }
    }
    // Every route signs in afresh for each body (argon2), so the time grows with the API surface.
  }, 180_000);
});
