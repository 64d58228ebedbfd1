import { providerContract } from '../../../test/contracts/provider-contract.ts';
import { startFakeGupshupServer } from '../../../test/fakes/fake-gupshup-server.ts';
import { startFakeWebhookServer } from '../../../test/fakes/fake-webhook-server.ts';
import { FAKE_REJECT_WORD, FAKE_UNKNOWN_NUMBER_PREFIX } from '../sandbox/fake-gupshup.ts';
import { sandboxMediaDownloader } from '../sandbox/sandbox-media.ts';
import { createGupshupPartnerClient } from './gupshup-partner.client.ts';
import { createGupshupProvider } from './gupshup.provider.ts';

// The Gupshup adapter against the standalone fake Gupshup; its callbacks land on a local webhook receiver.
providerContract('Gupshup', async () => {
  const gupshup = await startFakeGupshupServer();
  gupshup.fake.templateReviewMs = 20;
  const hooks = await startFakeWebhookServer();
  hooks.route('/hook', { status: 200, body: '' });
  const account = { provider: 'gupshup' as const, appName: 'contrato', sourceNumber: '5215500000077', apiKey: 'key-contrato' };
  gupshup.apps.push({ appName: account.appName, sourceNumber: account.sourceNumber, apiKey: account.apiKey, callbackUrl: `${hooks.url}/hook` });
  const provider = createGupshupProvider({
    apiUrl: gupshup.url,
    partner: createGupshupPartnerClient({ baseUrl: gupshup.url, credentials: async () => ({ email: 'ops@embudo.test', password: 'secreto' }) }),
    downloadMedia: sandboxMediaDownloader(gupshup.fake),
  });
  return {
    line: provider.line(account),
    lineWithWrongCredentials: provider.line({ ...account, apiKey: 'not-the-key' }),
    deliveries: () => hooks.received.map((request) => ({ headers: request.headers, rawBody: Buffer.from(request.body) })),
    async customerWrites(phone, message) {
      if (message.kind === 'text') return (await gupshup.fake.customerSends({ appName: account.appName, phone, kind: 'text', text: message.text })).id;
      const url = await gupshup.fake.storeFile(message.data, message.contentType);
      return (await gupshup.fake.customerSends({ appName: account.appName, phone, kind: 'image', url, contentType: message.contentType })).id;
    },
    phoneStatuses: async (phone) => (await gupshup.fake.conversation(account.appName, phone)).map(({ direction, status }) => ({ direction, status })),
    numberNotOnWhatsApp: `${FAKE_UNKNOWN_NUMBER_PREFIX}5215500000000`,
    rejectWord: FAKE_REJECT_WORD,
    close: async () => {
      await hooks.close();
      await gupshup.close();
    },
  };
});
