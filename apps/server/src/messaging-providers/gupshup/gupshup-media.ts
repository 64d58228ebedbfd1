import { createOutboundHttp, OutboundRefused, type OutboundHttpOptions } from '../../platform/outbound-http/outbound-http.guard.ts';
import { ProviderError, type MediaDownloader } from '../provider.ts';

/**
 * Where Gupshup keeps inbound media: `https://filemanager.gupshup.io/…` in every webhook example
 * (provider/gupshup.md §4.1). A subdomain of gupshup.io is accepted too; no other host is, on any
 * redirect hop either, so a webhook cannot point the server anywhere else (docs/decisions/0009).
 */
export const GUPSHUP_MEDIA_DOMAINS = ['gupshup.io'] as const;

export function isGupshupMediaHost(hostname: string): boolean {
  return GUPSHUP_MEDIA_DOMAINS.some((domain) => hostname === domain || hostname.endsWith(`.${domain}`));
}

/** WhatsApp's largest media (documents) is 100 MB. */
export const MEDIA_DOWNLOAD_MAX_BYTES = 100 * 1024 * 1024;
const MEDIA_DOWNLOAD_TIMEOUT_MS = 60_000;

/** A status worth another try later: the file may come back; a 404 or 403 will not. */
const retryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

export function createGupshupMediaDownloader(options: Pick<OutboundHttpOptions, 'allowPrivateNetworks' | 'lookup' | 'connect'> = {}): MediaDownloader {
  const http = createOutboundHttp({
    ...options,
    allowHost: isGupshupMediaHost,
    maxResponseBytes: MEDIA_DOWNLOAD_MAX_BYTES,
    timeoutMs: MEDIA_DOWNLOAD_TIMEOUT_MS,
  });
  return async (url) => {
    let response;
    try {
      response = await http({ url });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new ProviderError(message, !(error instanceof OutboundRefused));
    }
    if (response.status < 200 || response.status >= 300) {
      throw new ProviderError(`Gupshup respondió ${response.status} al descargar el archivo.`, retryableStatus(response.status), response.status);
    }
    return { data: response.body, contentType: response.contentType || undefined };
  };
}
