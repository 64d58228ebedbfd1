import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGupshupServer } from '../../../test/fakes/fake-gupshup-server.ts';
import { createGupshupPartnerClient, MEDIA_HANDLE_MISSING, PartnerApiError } from './gupshup-partner.client.ts';

let server: Awaited<ReturnType<typeof startFakeGupshupServer>>;
beforeAll(async () => {
  server = await startFakeGupshupServer();
  server.fake.templateReviewMs = 10;
  server.apps.push({ appName: 'tienda', sourceNumber: '15550001000', callbackUrl: 'http://127.0.0.1:9/unused' });
});
afterAll(async () => server.close());

const client = () => createGupshupPartnerClient({ baseUrl: server.url, credentials: async () => ({ email: 'ops@acme.example', password: 'secreto' }) });
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describe('Gupshup partner client against the standalone fake', () => {
  it('logs in once, creates, lists, uploads a sample and deletes', async () => {
    const partner = client();
    const handle = await partner.uploadMedia('tienda', { data: PNG, mime: 'image/png', fileName: 'a.png' });
    expect(handle).toMatch(/^4::/);
    const created = await partner.createTemplate('tienda', {
      elementName: 'promo', languageCode: 'es', category: 'MARKETING', templateType: 'IMAGE', vertical: 'promo',
      content: 'Hola {{1}}', example: 'Hola [Variable 1]', enableSample: 'true', exampleMedia: handle,
    });
    expect(created).toMatchObject({ elementName: 'promo', languageCode: 'es', status: 'PENDING' });
    expect((await partner.listTemplates('tienda')).map((template) => template.id)).toEqual([created.id]);
    await partner.deleteTemplate('tienda', 'promo', created.id);
    expect(await partner.listTemplates('tienda')).toEqual([]);
    expect(server.fake.requests.filter((request) => request.path === '/partner/account/login')).toHaveLength(1);
    expect(server.fake.requests.filter((request) => request.path === '/partner/app/tienda/token')).toHaveLength(1);
  });

  it('reports Gupshup\'s own message, a missing handle, and an unknown app', async () => {
    const partner = client();
    await expect(partner.createTemplate('tienda', { elementName: 'x', languageCode: 'es', category: 'PROMO', templateType: 'TEXT', content: 'x', example: 'x' }))
      .rejects.toThrow(/Invalid category provided/);
    await expect(partner.deleteTemplate('tienda', 'nada')).rejects.toThrow('Template Does not exists.');
    await expect(partner.uploadMedia('tienda', { data: Buffer.from('x'), mime: 'text/plain', fileName: 'a.txt' })).rejects.toThrow(MEDIA_HANDLE_MISSING);
    await expect(partner.listTemplates('otra')).rejects.toBeInstanceOf(PartnerApiError);
  });

  it('fetches fresh tokens once when the app token is refused', async () => {
    const partner = client();
    await partner.listTemplates('tienda');
    server.fake.failNextPartnerCall('list', { status: 401, body: { status: 'error', message: 'Authentication Failed' } });
    const logins = server.fake.requests.filter((request) => request.path === '/partner/account/login').length;
    // One injected refusal: the client drops both tokens, logs in again and retries once.
    await expect(partner.listTemplates('tienda')).resolves.toEqual([]);
    expect(server.fake.requests.filter((request) => request.path === '/partner/account/login').length).toBe(logins + 1);
  });
});
