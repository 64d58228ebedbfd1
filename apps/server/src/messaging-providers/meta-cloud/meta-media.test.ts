import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWebhookServer } from '../../../test/fakes/fake-webhook-server.ts';
import { testNetwork } from '../../../test/fakes/test-network.ts';
import { HOST_NOT_ALLOWED, REFUSED_ADDRESS } from '../../platform/outbound-http/outbound-http.guard.ts';
import { ProviderError } from '../provider.ts';
import { createMetaMediaFetcher, isMetaMediaHost } from './meta-media.ts';

// Meta's media host stands in as a local listener reached through the test network's public address.
let lookaside: Awaited<ReturnType<typeof startFakeWebhookServer>>;
const names = { 'lookaside.fbsbx.com': ['93.184.215.14'], 'rebound.fbsbx.com': ['127.0.0.1'], 'cdn.example.com': ['8.8.8.8'] };

beforeAll(async () => {
  lookaside = await startFakeWebhookServer();
  lookaside.route('/whatsapp_business/attachments/', (request) =>
    request.headers.authorization === 'Bearer EAAG-token'
      ? { contentType: 'image/png', body: 'PNG bytes' }
      : { status: 401, body: '{"error":{"message":"Invalid OAuth access token","code":190}}' },
  );
  lookaside.route('/elsewhere', { status: 302, headers: { location: 'https://cdn.example.com/x.png' }, body: '' });
  lookaside.route('/busy', { status: 503, body: 'Service Unavailable' });
});
afterAll(async () => lookaside.close());

const fetcher = () => {
  const network = testNetwork(Number(new URL(lookaside.url).port), names);
  return { fetch: createMetaMediaFetcher({ lookup: network.lookup, connect: network.connect }), network };
};
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as ProviderError,
  );

describe("Meta media downloads (the second step's URL)", () => {
  it("accept Meta's media domains and their subdomains only", () => {
    for (const host of ['lookaside.fbsbx.com', 'fbsbx.com', 'scontent.xx.fbcdn.net', 'mmg.whatsapp.net', 'graph.facebook.com'])
      expect(isMetaMediaHost(host), host).toBe(true);
    for (const host of ['evilfbsbx.com', 'fbsbx.com.evil.example', 'facebook.co', 'localhost', '127.0.0.1']) expect(isMetaMediaHost(host), host).toBe(false);
  });

  it('fetch the file with the bearer token from Meta', async () => {
    const { fetch, network } = fetcher();
    const media = await fetch('http://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1', 'EAAG-token');
    expect(media).toMatchObject({ contentType: 'image/png' });
    expect(media.data.toString()).toBe('PNG bytes');
    expect(network.dialled).toEqual([{ address: '93.184.215.14', port: 80 }]);
    expect(await failure(fetch('http://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1', 'EAAG-otro'))).toMatchObject({
      status: 401,
      retryable: false,
    });
  });

  it('refuse other hosts, a redirect away from Meta and a Meta name resolving to loopback, for good; retry an outage', async () => {
    const { fetch } = fetcher();
    expect(await failure(fetch('http://cdn.example.com/x.png', 'EAAG-token'))).toMatchObject({ message: HOST_NOT_ALLOWED, retryable: false });
    expect(await failure(fetch('http://lookaside.fbsbx.com/elsewhere', 'EAAG-token'))).toMatchObject({ message: HOST_NOT_ALLOWED, retryable: false });
    expect(await failure(fetch('http://rebound.fbsbx.com/x', 'EAAG-token'))).toMatchObject({ message: REFUSED_ADDRESS, retryable: false });
    expect(await failure(fetch('http://lookaside.fbsbx.com/busy', 'EAAG-token'))).toMatchObject({ status: 503, retryable: true });
  });
});
