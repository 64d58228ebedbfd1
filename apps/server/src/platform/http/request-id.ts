import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyInstance } from 'fastify';
import { runWithLogContext } from '../logger/log-context.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * One id per request: the one a proxy in front sent (X-Request-Id, when it looks like an id) or a new UUID. Fastify
 * binds it to the request's logger as `requestId`.
 */
export const requestIdOptions = {
  requestIdHeader: false as const,
  logController: new LogController({ requestIdLogLabel: 'requestId' }),
  genReqId: (request: IncomingMessage) => {
    const given = request.headers[REQUEST_ID_HEADER];
    return typeof given === 'string' && ACCEPTED_ID.test(given) ? given : randomUUID();
  },
};

/**
 * Runs the rest of each request inside its log context, so every log line, job and domain event it causes carries
 * its id (platform/logger/log-context.ts), and answers the id in X-Request-Id for whoever reports a problem.
 */
export function registerRequestContext(app: FastifyInstance) {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    runWithLogContext({ requestId: request.id }, done);
  });
}
