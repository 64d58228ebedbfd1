import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWebhookServer } from '../../../test/fakes/fake-webhook-server.ts';
import { testNetwork } from '../../../test/fakes/test-network.ts';
import { HOST_NOT_ALLOWED, REFUSED_ADDRESS } from '../../platform/outbound-http/outbound-http.guard.ts';
import { ProviderError } from '../provider.ts';
import { createGupshupMediaDownloader, isGupshupMediaHost } from './gupshup-media.ts';

// Gupshup's file manager stands in as a local listener reached through the test network's public address.
let fileManager: Awaited<ReturnType<typeof startFakeWebhookServer>>;
let loopback: Awaited<ReturnType<typeof startFakeWebhookServer>>;
const names = {
  'filemanager.gupshup.io': ['93.184.215.14'],
  'rebound.gupshup.io': ['127.0.0.1'],
  'cdn.example.com': ['8.8.8.8'],
};

beforeAll(async () => {
  fileManager = await startFakeWebhookServer();
  loopback = await startFakeWebhookServer();
  fileManager.route('/wa/doc.pdf', { contentType: 'application/pdf', body: '%PDF-1.4 boleto' });
  fileManager.route('/wa/elsewhere', { status: 302, headers: { location: 'https://cdn.example.com/doc.pdf' }, body: '' });
  fileManager.route('/wa/loopback', { status: 302, headers: { location: `${loopback.url}/secret` }, body: '' });
  fileManager.route('/wa/gone', { status: 404, body: 'Not Found' });
  fileManager.route('/wa/busy', { status: 503, body: 'Service Unavailable' });
});
afterAll(async () => {
  await fileManager.close();
  await loopback.close();
});

function downloader() {
  const network = testNetwork(Number(new URL(fileManager.url).port), names);
  return { download: createGupshupMediaDownloader({ lookup: network.lookup, connect: network.connect }), network };
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('Gupshup media downloads', () => {
  it('accept gupshup.io and its subdomains only', () => {
    for (const host of ['gupshup.io', 'filemanager.gupshup.io', 'a.b.gupshup.io']) expect(isGupshupMediaHost(host), host).toBe(true);
    for (const host of ['evilgupshup.io', 'gupshup.io.evil.example', 'gupshup.com', 'localhost', '127.0.0.1'])
      expect(isGupshupMediaHost(host), host).toBe(false);
  });

  it("fetch the file from Gupshup's file manager", async () => {
    const { download, network } = downloader();
    const media = await download('http://filemanager.gupshup.io/wa/doc.pdf');
    expect(media.data.toString()).toBe('%PDF-1.4 boleto');
    expect(media.contentType).toBe('application/pdf');
    expect(network.dialled).toEqual([{ address: '93.184.215.14', port: 80 }]);
  });

  it('refuse other hosts, a redirect away from Gupshup and a Gupshup name resolving to loopback, for good', async () => {
    const { download, network } = downloader();
    const foreign = await failure(download('http://cdn.example.com/doc.pdf'));
    expect(foreign).toMatchObject({ message: HOST_NOT_ALLOWED, retryable: false });
    expect(await failure(download('http://filemanager.gupshup.io/wa/elsewhere'))).toMatchObject({ message: HOST_NOT_ALLOWED, retryable: false });
    expect(await failure(download('http://filemanager.gupshup.io/wa/loopback'))).toMatchObject({ message: HOST_NOT_ALLOWED, retryable: false });
    expect(await failure(download('http://rebound.gupshup.io/secret'))).toMatchObject({ message: REFUSED_ADDRESS, retryable: false });
    expect(network.dialled.every((target) => target.address === '93.184.215.14')).toBe(true);
    expect(loopback.received).toHaveLength(0);
  });

  it('give up on a missing file and retry an outage', async () => {
    const { download } = downloader();
    expect(await failure(download('http://filemanager.gupshup.io/wa/gone'))).toMatchObject({ status: 404, retryable: false });
    expect(await failure(download('http://filemanager.gupshup.io/wa/busy'))).toMatchObject({ status: 503, retryable: true });
  });
});
