import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { API_DOCS_PREFIX, OPENAPI_DOCUMENT_PATH } from '../../src/platform/http/api-docs.ts';
import { TENANT_PREFIX } from '../../src/platform/http/route-access.ts';
import { FAKE_GUPSHUP_PREFIX, FAKE_META_PREFIX } from '../../src/messaging-providers/sandbox/sandbox-phone.routes.ts';

/**
 * The API description is generated from the routes' own zod schemas: a route without a response schema would be
 * undocumented (and its answer unchecked), so every route of the app's route table must declare one, except the
 * few listed here with their reason.
 */
const WITHOUT_RESPONSE_SCHEMA: Array<[(url: string) => boolean, string]> = [
  [(url) => url === API_DOCS_PREFIX || url.startsWith(`${API_DOCS_PREFIX}/`), 'the documentation itself (page, assets, the document)'],
  [(url) => url.startsWith(`${FAKE_GUPSHUP_PREFIX}/`), "the sandbox's fake of Gupshup's API, which answers Gupshup's shapes (../shared/provider/)"],
  [(url) => url.startsWith(`${FAKE_META_PREFIX}/`), "the sandbox's fake of Meta's Cloud API, which answers Meta's shapes (../shared/provider/)"],
];

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { tags?: string[]; security?: unknown[]; responses: Record<string, unknown> }>>;
  components: { securitySchemes: Record<string, unknown> };
}

let t: TestApp;
let document: OpenApiDocument;

beforeAll(async () => {
  t = await buildTestApp();
  const response = await t.app.inject({ method: 'GET', url: OPENAPI_DOCUMENT_PATH });
  expect(response.statusCode).toBe(200);
  document = response.json();
});
afterAll(async () => t.close());

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const operations = () =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
  );

/** Fastify's `/api/cards/:id` is OpenAPI's `/api/cards/{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z]+)/g, '{$1}');

describe('OpenAPI document', () => {
  it('declares a response schema for a success status on every route', () => {
    const missing = t.app.routeTable
      .filter((route) => !WITHOUT_RESPONSE_SCHEMA.some(([matches]) => matches(route.url)))
      .filter((route) => !route.responseStatuses.some((status) => /^2(\d\d|xx)$/i.test(status)))
      .map((route) => `${route.method} ${route.url}`);
    expect(missing, 'routes without a response schema').toEqual([]);
  });

  it('is a valid OpenAPI 3.1 document whose references all resolve', async () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)?.slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it('lists every route but the /t/{slug} twins and the hidden ones, each tagged by domain', () => {
    const listed = new Set(operations().map(({ key }) => key));
    const expected = t.app.routeTable
      .filter((route) => !route.url.startsWith(TENANT_PREFIX) && !route.hidden && !WITHOUT_RESPONSE_SCHEMA.some(([matches]) => matches(route.url)))
      .map((route) => `${route.method} ${openApiPath(route.url)}`);
    expect(expected.length).toBeGreaterThan(80);
    expect(
      expected.filter((key) => !listed.has(key)),
      'routes missing from the document',
    ).toEqual([]);
    expect(
      [...listed].filter((key) => !expected.includes(key)),
      'operations that are no route',
    ).toEqual([]);
    expect(
      operations()
        .filter(({ operation }) => !operation.tags?.length || operation.tags.includes('other'))
        .map(({ key }) => key),
    ).toEqual([]);
  });

  it('describes bearer sign-in, and marks the public routes as needing none', () => {
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const open = operations()
      .filter(({ operation }) => Array.isArray(operation.security) && operation.security.length === 0)
      .map(({ key }) => key);
    expect(open).toEqual(
      expect.arrayContaining(['POST /api/auth/login', 'POST /api/auth/register', 'GET /api/tenants/check-slug/{slug}', 'POST /api/auth/admin/login']),
    );
    expect(open).not.toContain('GET /api/funnels/summary');
  });

  it('serves a readable page whose scripts and styles all come from this server', async () => {
    const page = await t.app.inject({ method: 'GET', url: `${API_DOCS_PREFIX}/` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThan(2);
    for (const asset of assets) {
      expect(asset, 'no asset from another origin').not.toMatch(/^(https?:)?\/\//);
      const url = new URL(asset, `http://localhost${API_DOCS_PREFIX}/`).pathname;
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
    // The page's own script may run under the app's content security policy (scripts from 'self' only).
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
  });
});
