import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from './app-error.ts';

const INVALID_JSON = 'El cuerpo de la solicitud no es JSON válido.';
const EMPTY_BODY = 'El cuerpo de la solicitud está vacío.';
const BODY_TOO_LARGE = 'El cuerpo de la solicitud es demasiado grande.';

/** The one place that turns errors into HTTP answers `{ code, message }`. */
export function registerErrorHandler(app: FastifyInstance, spaDocumentFor?: (pathname: string) => Buffer) {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      if (error.details.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.details.retryAfterSeconds));
      return reply.status(error.status).send({ code: error.code, message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      if (error.validationContext === 'body' && request.body === undefined) {
        return reply.status(400).send({ code: 'BAD_REQUEST', message: EMPTY_BODY });
      }
      const first = error.validation[0];
      const message = first?.message && !first.message.startsWith('Invalid input') ? first.message : describeIssue(first);
      return reply.status(400).send({ code: 'BAD_REQUEST', message });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(500).send({ code: 'INTERNAL', message: 'Error interno del servidor.' });
    }
    const fastifyError = error as FastifyError;
    const status = fastifyError.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({ code: 'TOO_MANY_REQUESTS', message: 'Demasiadas solicitudes. Inténtalo de nuevo en unos minutos.' });
    }
    if (status >= 400 && status < 500) {
      const message =
        fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
          ? INVALID_JSON
          : fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? 'Tipo de contenido no soportado.'
            : fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
              ? BODY_TOO_LARGE
              : error.message;
      return reply.status(status).send({ code: status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST', message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ code: 'INTERNAL', message: 'Error interno del servidor.' });
  });

  app.setNotFoundHandler((request, reply) => {
    // Client-side routes (/, /login, /t/{slug}/...) all load the SPA; unknown API paths stay 404.
    const pathname = request.url.split('?')[0]!;
    if (spaDocumentFor && request.method === 'GET' && !/^\/(api|t\/[^/]+\/api|socket\.io|webhooks|media)(\/|$)/.test(pathname)) {
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(spaDocumentFor(pathname));
    }
    return reply.status(404).send({ code: 'NOT_FOUND', message: `Ruta no encontrada: ${request.method} ${request.url.split('?')[0]}` });
  });
}

function describeIssue(issue: { instancePath?: string; message?: string } | undefined): string {
  if (!issue) return 'Solicitud inválida.';
  const field = issue.instancePath?.replace(/^\//, '').replaceAll('/', '.');
  return field ? `Campo inválido: ${field}.` : 'Solicitud inválida.';
}
