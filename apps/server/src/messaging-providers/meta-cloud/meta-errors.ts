import { providerFailure, type FailureKind, type ProviderFailure } from '../provider.ts';

/**
 * WhatsApp's error codes (meta-cloud.md §2.8) in our kinds. Codes 131047, 132000/132001 are unconfirmed in the
 * contract but widely documented; the 1320xx series is about the template, 1310xx about the message or recipient.
 * Gupshup passes these codes through in its failed events too (gupshup.md §8).
 */
const kinds: Record<number, FailureKind> = {
  131047: 'window_closed',
  131026: 'not_on_whatsapp',
  130429: 'rate_limited',
  131056: 'rate_limited',
  131048: 'marketing_limit',
  131049: 'marketing_limit',
  131050: 'opted_out',
  131051: 'other',
  131052: 'media',
  131053: 'media',
  132001: 'template_missing',
  132015: 'template_paused',
  132016: 'template_disabled',
  190: 'token_expired',
  131005: 'unauthorized',
  131031: 'unauthorized',
  131042: 'balance',
};

/** Permission and authorization codes: 0, 3, 10 and 200–299 (meta-cloud.md §2.8). */
const isPermissionCode = (code: number) => code === 0 || code === 3 || code === 10 || (code >= 200 && code <= 299);

export function metaFailureKind(code: number | undefined): FailureKind {
  if (code === undefined) return 'other';
  const known = kinds[code];
  if (known) return known;
  if (code >= 132000 && code < 133000) return 'template_mismatch';
  if (isPermissionCode(code)) return 'unauthorized';
  return 'other';
}

/** Worth trying again later: throughput and pair limits, and Meta's own temporary errors (1, 2, 131000, 131016). */
export function metaRetryable(code: number | undefined, httpStatus?: number): boolean {
  if (code === 130429 || code === 131056 || code === 1 || code === 2 || code === 131000 || code === 131016) return true;
  return httpStatus !== undefined && (httpStatus === 429 || httpStatus >= 500);
}

/** A Meta error (its code and its `error_data.details` or `message`) as a failure people read. */
export function metaFailure(code: number | undefined, detail: string | undefined): ProviderFailure {
  return providerFailure(metaFailureKind(code), code, detail);
}

/** A code Meta sent as a number or a numeric string; anything else is no code. */
export function metaCode(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(number) ? number : undefined;
}
