import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors/app-error.ts';

/**
 * The largest JSON body (Fastify's default, stated): a bot flow of 200 nodes fits with room to spare; files go
 * through multipart with their own limits.
 */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** No request of ours nests deeper than a bot flow's node data; this leaves a wide margin. */
export const MAX_JSON_DEPTH = 64;
export const JSON_TOO_DEEP = `El cuerpo de la solicitud anida demasiados niveles (máximo ${MAX_JSON_DEPTH}).`;

/**
 * True when the JSON text opens more than `maxDepth` arrays or objects inside each other. Read on the raw
 * text before JSON.parse, so a 5,000-deep body never reaches a recursive parser, validator or walker.
 */
export function jsonNestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c)
        index += 1; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x5b || char === 0x7b) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (char === 0x5d || char === 0x7d) {
      depth -= 1;
    }
  }
  return false;
}

/**
 * Many HTTP clients send `content-type: application/json` on every call, including a DELETE or a
 * body-less POST (sync, reset-password). Fastify refuses those with "empty JSON body"; here an empty
 * JSON body simply means no body, and every other body is parsed by Fastify's own safe parser
 * (prototype poisoning refused) once its nesting is known to be bounded.
 * A route whose schema needs a body still answers 400 (see the error handler).
 */
export function acceptEmptyJsonBodies(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.length === 0) {
      done(null, undefined);
      return;
    }
    if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(badRequest(JSON_TOO_DEEP), undefined);
      return;
    }
    // Fastify's own parser answers through `done`; its type merely allows a promise.
    void parseJson(request, text, done);
  });
}
