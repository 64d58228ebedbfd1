import { providerFailure, type FailureKind, type ProviderFailure } from '../provider.ts';
import { metaCode, metaFailure } from '../meta-cloud/meta-errors.ts';

/** Gupshup's own failure codes (gupshup.md §8) in our kinds; WhatsApp's 13xxxx codes pass through as Meta's. */
const kinds: Record<number, FailureKind> = {
  1002: 'not_on_whatsapp',
  1003: 'balance',
  1004: 'window_closed',
  1005: 'template_mismatch',
  1006: 'window_closed',
  1007: 'window_closed',
  1008: 'window_closed',
  1010: 'media',
  1011: 'media',
  1012: 'opted_out',
  4001: 'rate_limited',
  4003: 'template_missing',
  4005: 'template_paused',
};

/** A failed event's `code` and `reason` as a failure people read. */
export function gupshupFailure(code: unknown, reason: string | undefined): ProviderFailure {
  const number = metaCode(code);
  if (number !== undefined && number >= 100_000) return metaFailure(number, reason);
  const kind = number === undefined ? 'other' : (kinds[number] ?? 'other');
  return providerFailure(kind, number ?? (typeof code === 'string' ? code : null), reason);
}

/** What Gupshup's answer to a send says, by HTTP status and its own message (gupshup.md §3, §8). */
export function gupshupSendFailure(status: number, message: string | undefined): ProviderFailure {
  if (status === 429) return providerFailure('rate_limited', status, message);
  if (status === 401 || message === 'Authentication Failed') return providerFailure('unauthorized', status, message);
  if (message === 'Invalid Destination') return providerFailure('other', status, 'El número de destino no es válido (Invalid Destination)');
  return providerFailure('other', status, message ?? `Gupshup respondió ${status}`);
}
