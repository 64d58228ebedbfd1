import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

const WEBHOOKS_PREFIX = '/webhooks/';

/**
 * Helmet's security headers on every answer, from one middleware built at start. @fastify/helmet built helmet's
 * middleware anew for each request, parsing the CSP directives each time: about 1.5 ms of CPU per request, paid by
 * each of the twenty-odd requests that open the board. `inlineScriptSources`: the web build's inline scripts.
 */
export function registerSecurityHeaders(app: FastifyInstance, inlineScriptSources: string[] = []) {
  const setHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        // The web build's own inline scripts, each by its hash (spa-documents.ts), and no other.
        'script-src': ["'self'", ...inlineScriptSources],
        'img-src': ["'self'", 'data:', 'blob:'],
        'media-src': ["'self'", 'data:', 'blob:'],
        'connect-src': ["'self'", 'ws:', 'wss:'],
      },
    },
  });
  app.addHook('onRequest', (request, reply, done) => {
    // A provider's webhook call is answered to a machine that renders nothing: the dozen headers would only cost the
    // busiest route of all its time.
    if (request.url.startsWith(WEBHOOKS_PREFIX)) return done();
    setHeaders(request.raw, reply.raw, (error) => done(error instanceof Error ? error : undefined));
  });
}
