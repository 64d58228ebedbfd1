import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '@embudo/contracts/http/common';
import { isApiRoute, TENANT_PREFIX } from './route-access.ts';

export const API_DOCS_PREFIX = '/api/docs';
export const OPENAPI_DOCUMENT_PATH = `${API_DOCS_PREFIX}/openapi.json`;
/** The API's version in the document; the paths carry none, so it changes only with a breaking change. */
const API_VERSION = '1.0.0';

/** The tag of an operation: its domain, read from the path; the first match wins. */
const DOMAIN_TAGS: Array<[tag: string, path: RegExp]> = [
  ['admin', /^\/api\/(admin|auth\/admin)\//],
  ['auth', /^\/api\/(auth|tenants)\//],
  ['bulk-sends', /^\/api\/(batches(\/:id\/failures)?|funnels\/:id\/batches)$/],
  // What the board does to a chat (move, rename, AI switch, archive) is the funnels'; its messages are the chats'.
  ['funnels', /^\/api\/(funnels|columns|quick-replies)(\/|$)|^\/api\/card\/move$|^\/api\/cards\/:id(\/toggle-ai|\/archive)?$/],
  ['whatsapp-activity', /^\/api\/whatsapp\/activity(\/|$)/],
  ['chats', /^\/api\/(cards|messages?|note|initiate-conversation|gupshup|whatsapp|usage)(\/|$)/],
  ['users', /^\/api\/users(\/|$)/],
  ['templates', /^\/api\/templates(\/|$)/],
  ['agenda', /^\/api\/agenda\//],
  ['bots', /^\/api\/bots(\/|$)/],
  ['autobot', /^\/api\/bot-settings$/],
  ['ai', /^\/api\/ai\//],
  ['sandbox-phone', /^\/sandbox\/api\//],
  ['webhooks-and-media', /^\/(webhooks|media)\//],
  ['operations', /^\/(healthz|readyz|metrics)$/],
];

const { $schema: _dialect, ...errorJson } = z.toJSONSchema(errorResponse, { target: 'draft-2020-12', io: 'output' });

export function domainTagOf(url: string): string | undefined {
  return DOMAIN_TAGS.find(([, path]) => path.test(url))?.[0];
}

const DESCRIPTION = [
  'The HTTP API of Embudo, generated from the zod schemas in `packages/contracts/src/http`.',
  '',
  'Every tenant route answers under `/api/...` (the tenant comes from the session) and, identically, under',
  "`/t/{tenantSlug}/api/...` (the form the web client uses; the slug must be the session's tenant, any other answers 404).",
  'Only the `/api/...` form is listed here.',
  '',
  'Sign in with `POST /api/auth/login` (tenant users) or `POST /api/auth/admin/login` (platform operators) and send the',
  'answered token as `Authorization: Bearer <token>`. Operator tokens open only `/api/admin/...`; tenant tokens everything else.',
  'Errors answer `{ code, message }`; `message` is meant for people.',
].join('\n');

/**
 * OpenAPI 3.1 from the routes' zod schemas, the JSON at /api/docs/openapi.json and Swagger UI at /api/docs, with
 * its assets served from our own package (no CDN; helmet's CSP stays as it is). Must be registered before the routes
 * it describes: @fastify/swagger learns them as they are added.
 */
export async function registerApiDocs(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Embudo API', version: API_VERSION, description: DESCRIPTION },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An opaque session token from a sign-in.' } } },
      security: [{ bearer: [] }],
    },
    transform: (document) => {
      const { url, route } = document;
      // The /t/{slug}/api twins, the fake provider's Gupshup surface and the docs themselves are not ours to list.
      const isTwin = url.startsWith(TENANT_PREFIX);
      const isDocumented = !isTwin && (isApiRoute(url) || domainTagOf(url) !== undefined) && !url.startsWith(API_DOCS_PREFIX);
      if (!isDocumented) return { schema: { hide: true }, url };
      const transformed = jsonSchemaTransform(document);
      const schema = (transformed.schema ?? {}) as Record<string, unknown> & { response?: Record<string, unknown> };
      const access = route.config?.access ?? 'tenant';
      return {
        url,
        schema: {
          ...schema,
          tags: [domainTagOf(url) ?? 'other'],
          ...(access === 'public' || !isApiRoute(url) ? { security: [] } : {}),
          // Errors are documented, not serialized: the error handler already answers one shape.
          response: { ...schema.response, '4XX': { description: 'Refused.', ...errorJson }, '5XX': { description: 'Failed.', ...errorJson } },
        },
      };
    },
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(async (docs) => {
    // Everything this plugin adds (page, assets, document) is public API documentation.
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, access: 'public' };
    });
    await docs.register(swaggerUi, { routePrefix: API_DOCS_PREFIX, uiConfig: { deepLinking: true }, validatorUrl: false });
    docs.get(OPENAPI_DOCUMENT_PATH, { schema: { hide: true } }, async () => app.swagger());
  });
}
