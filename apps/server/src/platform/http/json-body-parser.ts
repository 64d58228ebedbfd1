import type { FastifyInstance } from 'fastify';

/**
 * Many HTTP clients send `content-type: application/json` on every call, including a DELETE or a
 * body-less POST (sync, reset-password). Fastify refuses those with "empty JSON body"; here an empty
 * JSON body simply means no body, and every other body is parsed by Fastify's own safe parser.
 * A route whose schema needs a body still answers 400 (see the error handler).
 */
export function acceptEmptyJsonBodies(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    parseJson(request, body.toString(), done);
  });
}
