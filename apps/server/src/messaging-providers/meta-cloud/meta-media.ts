import { createOutboundHttp, OutboundRefused, type OutboundHttpOptions } from '../../platform/outbound-http/outbound-http.guard.ts';
import { ProviderError, type DownloadedMedia } from '../provider.ts';

/**
 * The second step of a Meta media download (meta-cloud.md §3.4, unconfirmed there): the short-lived URL the
 * Graph API answered for a media id, fetched with the same bearer token. Only Meta's own hosts are reached
 * (`lookaside.fbsbx.com` in every example), on every redirect hop too, through the guarded client (docs/decisions/0009).
 */
export const META_MEDIA_DOMAINS = ['fbsbx.com', 'fbcdn.net', 'whatsapp.net', 'facebook.com'] as const;

export function isMetaMediaHost(hostname: string): boolean {
  return META_MEDIA_DOMAINS.some((domain) => hostname === domain || hostname.endsWith(`.${domain}`));
}

/** WhatsApp's largest media (documents) is 100 MB (§9). */
export const META_MEDIA_MAX_BYTES = 100 * 1024 * 1024;

/** Fetches one media URL with the account's token; a ProviderError says whether trying again may help. */
export type MetaMediaFetcher = (url: string, accessToken: string) => Promise<DownloadedMedia>;

const retryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

export function createMetaMediaFetcher(options: Pick<OutboundHttpOptions, 'allowPrivateNetworks' | 'lookup' | 'connect'> = {}): MetaMediaFetcher {
  const http = createOutboundHttp({ ...options, allowHost: isMetaMediaHost, maxResponseBytes: META_MEDIA_MAX_BYTES, timeoutMs: 60_000 });
  return async (url, accessToken) => {
    let response;
    try {
      response = await http({ url, headers: { authorization: `Bearer ${accessToken}` } });
    } catch (error) {
      throw new ProviderError(error instanceof Error ? error.message : String(error), !(error instanceof OutboundRefused));
    }
    if (response.status < 200 || response.status >= 300) {
      throw new ProviderError(`Meta respondió ${response.status} al descargar el archivo.`, retryableStatus(response.status), response.status);
    }
    return { data: response.body, contentType: response.contentType || undefined };
  };
}
