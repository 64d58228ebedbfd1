import { z } from 'zod';
import { errorCodes } from '../errors.ts';

/** Every refusal and failure answers this shape (spec 01 §8: the client shows `message`). */
export const errorResponse = z.object({ code: z.enum(errorCodes), message: z.string() });

/** A 204 answer: no body at all. */
export const noContent = z.undefined().describe('Sin contenido.');

/** An instant as the server sends it: an ISO 8601 string in UTC. */
export const isoDateTime = z.string().describe('ISO 8601, UTC.');

/**
 * An answer that is a file, sent as its bytes with its own content type. Fastify never serializes a Buffer, so
 * the schema only documents the answer.
 */
export const fileResponse = (description: string) => ({ description, content: { '*/*': { schema: z.file() } } });
