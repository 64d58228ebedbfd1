import { providerContract } from '../../../test/contracts/provider-contract.ts';
import { startFakeMetaServer } from '../../../test/fakes/fake-meta-server.ts';
import { startFakeWebhookServer } from '../../../test/fakes/fake-webhook-server.ts';
import { FAKE_META_REJECT_WORD, FAKE_META_UNKNOWN_NUMBER_PREFIX } from '../sandbox/fake-meta-cloud.ts';
import { createMetaCloudProvider } from './meta-cloud.provider.ts';
import type { MetaAccount } from '../provider.ts';

// The Meta adapter against the standalone fake Cloud API; its signed webhooks land on a local receiver.
providerContract('Meta Cloud API', async () => {
  const meta = await startFakeMetaServer();
  const hooks = await startFakeWebhookServer();
  hooks.route('/hook', { status: 200, body: '' });
  const account: MetaAccount = {
    provider: 'meta',
    phoneNumberId: '109876543210987',
    wabaId: '204567890123456',
    accessToken: 'EAAG-contrato',
    appSecret: 'secreto-de-la-app',
    verifyToken: 'verificar-123',
  };
  meta.numbers.push({ ...account, callbackUrl: `${hooks.url}/hook`, displayPhoneNumber: '5215500000088', label: 'Tienda Contrato' });
  // The fake's media URLs are its own: the test reads them over loopback, where live mode only reaches Meta's hosts.
  const provider = createMetaCloudProvider({
    graphUrl: meta.url,
    version: 'v25.0',
    fetchMedia: async (url, token) => {
      const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      return { data: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') ?? undefined };
    },
  });
  return {
    line: provider.line(account),
    lineWithWrongCredentials: provider.line({ ...account, accessToken: 'EAAG-vencido' }),
    deliveries: () => hooks.received.map((request) => ({ headers: request.headers, rawBody: Buffer.from(request.body) })),
    async customerWrites(phone, message) {
      if (message.kind === 'text') return (await meta.fake.customerSends({ phoneNumberId: account.phoneNumberId, phone, kind: 'text', text: message.text })).id;
      const mediaId = await meta.fake.storeFile(message.data, message.contentType);
      return (await meta.fake.customerSends({ phoneNumberId: account.phoneNumberId, phone, kind: 'image', url: mediaId, contentType: message.contentType })).id;
    },
    phoneStatuses: async (phone) => (await meta.fake.conversation(account.phoneNumberId, phone)).map(({ direction, status }) => ({ direction, status })),
    numberNotOnWhatsApp: `${FAKE_META_UNKNOWN_NUMBER_PREFIX}5215500000000`,
    rejectWord: FAKE_META_REJECT_WORD,
    close: async () => {
      await hooks.close();
      await meta.close();
    },
  };
});
