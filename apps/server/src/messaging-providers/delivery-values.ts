import { TEXT_LIMITS, withoutForbiddenCharacters } from '@embudo/contracts/text';
import { MalformedDelivery } from './provider.ts';

/**
 * How any provider's webhook values are taken in (docs/decisions/0014): ids and phones that are too long or carry
 * forbidden characters make the delivery malformed; texts are cleaned and cut; timestamps out of range become the
 * receive time. Shared by the Gupshup and Meta parsers, which know their formats; this file knows none.
 */
export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
export const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : typeof value === 'number' ? String(value) : undefined;

/** WhatsApp ids (`wamid.…`) and providers' ids are well under this; a longer one is not an id. */
export const MAX_PROVIDER_ID = 256;
/** Phones and group ids. */
export const MAX_PROVIDER_PHONE = 64;
/** Providers' signed media links are long, but not this long. */
export const MAX_MEDIA_URL = 4096;
/** Names, captions' companions, content types, reasons: cut, not refused. */
export const MAX_SHORT_TEXT = 500;

export const TRUNCATED_NOTE = `\n\n[Mensaje recortado: superaba los ${TEXT_LIMITS.message} caracteres de WhatsApp]`;

/**
 * An id or phone the provider sent: it is stored in indexed columns and matched on, so one that is too long or
 * carries bad characters makes the whole delivery malformed rather than being altered.
 */
export function identifier(value: unknown, field: string, max: number): string | undefined {
  const text = str(value);
  if (text === undefined) return undefined;
  if (text.length > max) throw new MalformedDelivery(`${field} demasiado largo (${text.length} caracteres, máximo ${max}).`);
  if (withoutForbiddenCharacters(text) !== text) throw new MalformedDelivery(`${field} con caracteres no permitidos.`);
  return text;
}

/** A text we keep even when it is bad: without NUL bytes and lone surrogates, cut to `max`. */
export function cleanText(value: unknown, max = MAX_SHORT_TEXT): string | undefined {
  const text = str(value);
  return text === undefined ? undefined : withoutForbiddenCharacters(withoutForbiddenCharacters(text).slice(0, max)) || undefined;
}

/** The customer's words: cleaned, and past WhatsApp's 4,096 characters cut with a note saying so. */
export function messageText(value: unknown): string | undefined {
  const text = cleanText(value, Number.MAX_SAFE_INTEGER);
  if (text === undefined || text.length <= TEXT_LIMITS.message) return text;
  return `${withoutForbiddenCharacters(text.slice(0, TEXT_LIMITS.message))}${TRUNCATED_NOTE}`;
}

/** WhatsApp did not exist before 2009; a timestamp past tomorrow is a clock or a payload gone wrong. */
const EARLIEST_TIMESTAMP = Date.UTC(2009, 0, 1);
const LATEST_AHEAD_MS = 24 * 60 * 60 * 1000;

/** Timestamps come in ms (Gupshup's envelope) or s (Gupshup's `payload.ts`, Meta's strings); anything below 1e12 is seconds. Out of range: the receive time. */
export function toDate(value: unknown, receivedAt: Date): Date {
  const number = typeof value === 'string' ? Number(value) : typeof value === 'number' ? value : NaN;
  if (!Number.isFinite(number) || number <= 0) return receivedAt;
  const ms = number < 1e12 ? number * 1000 : number;
  return ms >= EARLIEST_TIMESTAMP && ms <= receivedAt.getTime() + LATEST_AHEAD_MS ? new Date(ms) : receivedAt;
}

/** Strings and keys of the original delivery, cleaned so PostgreSQL's JSONB takes them (kept for unsupported types). */
export function storableRaw(value: unknown): unknown {
  if (typeof value === 'string') return withoutForbiddenCharacters(value);
  if (Array.isArray(value)) return value.map(storableRaw);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [withoutForbiddenCharacters(key), storableRaw(inner)]));
  return value;
}

export const coordinate = (value: unknown, limit: number) => {
  const number = Number(value);
  return Number.isFinite(number) && Math.abs(number) <= limit ? number : undefined;
};
