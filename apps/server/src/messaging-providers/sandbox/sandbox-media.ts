import { ProviderError, type MediaDownloader } from '../provider.ts';
import type { FakeGupshup } from './fake-gupshup.ts';
import type { FakeMetaCloud } from './fake-meta-cloud.ts';
import type { MetaMediaFetcher } from '../meta-cloud/meta-media.ts';

export const SANDBOX_MEDIA_MISSING = 'El archivo no está en el sandbox.';

/**
 * In sandbox mode inbound media can only be a file the sandbox phone uploaded to the in-process fake:
 * it is read from the fake directly, so no URL in a webhook ever makes the server open a connection
 * (not even to its own loopback) and no loopback exception exists in the outbound client.
 */
export function sandboxMediaDownloader(fake: FakeGupshup): MediaDownloader {
  return async (url) => {
    const file = await fake.fileAt(url);
    if (!file) throw new ProviderError(SANDBOX_MEDIA_MISSING, false);
    return { data: file.data, contentType: file.contentType };
  };
}

/**
 * The second step of a Meta media download in sandbox mode: the URL the fake's Graph answered names one of its own
 * uploads, read from the fake directly, never over a connection.
 */
export function sandboxMetaMediaFetcher(fake: FakeMetaCloud, fakeUrl: () => string): MetaMediaFetcher {
  return async (url) => {
    const prefix = `${fakeUrl()}/media-download/`;
    const file = url.startsWith(prefix) ? await fake.file(url.slice(prefix.length)) : undefined;
    if (!file) throw new ProviderError(SANDBOX_MEDIA_MISSING, false);
    return { data: file.data, contentType: file.contentType };
  };
}
