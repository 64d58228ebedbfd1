import { z } from 'zod';

/**
 * Input hygiene in one place: every text a request carries is built from these blocks, so no field takes a
 * NUL byte (PostgreSQL refuses it in text columns) or a lone UTF-16 surrogate (not valid UTF-8, refused in
 * JSONB), and every text has a maximum length (an indexed column refuses a huge value).
 */

/** Caps shared by the contracts; none is stricter than the specs (they only fix the template limits). */
export const TEXT_LIMITS = {
  /** Ids the client chooses or echoes back (temp ids, flow element ids, cursors). */
  id: 200,
  /** Fastify matches a path parameter (the slug in /t/{slug}/api) of at most 100 characters. */
  slug: 100,
  /** RFC 5321's longest usable address. */
  email: 254,
  password: 256,
  /** People, companies, funnels, columns, bots, services. */
  name: 120,
  companyName: 200,
  /** A WhatsApp text message is at most 4,096 characters. */
  message: 4096,
  url: 2048,
  fileName: 255,
  /** Assistant instructions and similar long settings. */
  longText: 20_000,
} as const;

export const FORBIDDEN_CHARACTERS = 'El texto contiene caracteres no permitidos (un byte nulo o un carácter Unicode incompleto).';
export const tooLongMessage = (max: number) => `Máximo ${max} caracteres.`;

// NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
// eslint-disable-next-line no-control-regex -- NUL is one of the characters refused
const FORBIDDEN = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const FORBIDDEN_ALL = new RegExp(FORBIDDEN.source, 'g');

export function hasForbiddenCharacters(text: string): boolean {
  return FORBIDDEN.test(text);
}

/** The text without its NUL bytes and lone surrogates: for text we must keep (a customer's message), not refuse. */
export function withoutForbiddenCharacters(text: string): string {
  return text.replace(FORBIDDEN_ALL, '');
}

interface TextMessages {
  /** When the value is missing or not a string. */
  error?: string;
  /** When the value is longer than the cap. */
  tooLong?: string;
}

/** A string without NUL bytes or lone surrogates; the base of every other block. */
export const safeString = (error?: string) =>
  z.string(error ? { error } : undefined).refine((text) => !hasForbiddenCharacters(text), { error: FORBIDDEN_CHARACTERS });

/** A safe string of at most `max` characters, kept as sent. */
export const safeText = (max: number, messages: TextMessages = {}) => safeString(messages.error).max(max, { error: messages.tooLong ?? tooLongMessage(max) });

/** A safe string, trimmed, of at most `max` characters (counted after trimming); may be empty. */
export const trimmedText = (max: number, messages: TextMessages = {}) =>
  safeString(messages.error)
    .trim()
    .max(max, { error: messages.tooLong ?? tooLongMessage(max) });

/** A safe, trimmed, non-empty string of at most `max` characters; `required` when missing or blank. */
export const requiredText = (max: number, required: string, tooLong?: string) =>
  safeString(required)
    .trim()
    .min(1, { error: required })
    .max(max, { error: tooLong ?? tooLongMessage(max) });

/** An id chosen by a client (not one of ours): safe and short. */
export const clientId = (error?: string) => trimmedText(TEXT_LIMITS.id, { error, tooLong: `Los ids admiten como máximo ${TEXT_LIMITS.id} caracteres.` });
