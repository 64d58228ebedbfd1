import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGupshupServer } from '../../../test/fakes/fake-gupshup-server.ts';
import { createGupshupPartnerClient, MEDIA_HANDLE_MISSING, PartnerApiError } from './gupshup-partner.client.ts';

let server: Awaited<ReturnType<typeof startFakeGupshupServer>>;
beforeAll(async () => {
  server = await startFakeGupshupServer();
  server.fake.templateReviewMs = 10;
  server.apps.push({ appName: 'tienda', sourceNumber: '15550001000', callbackUrl: 'http://127.0.0.1:9/unused', apiKey: 'key-123' });
});
afterAll(async () => server.close());

const client = () => createGupshupPartnerClient({ baseUrl: server.url, credentials: async () => ({ email: 'ops@acme.example', password: 'secreto' }) });
/** A partner token of our own, to read the app token the fake handed out (the call is idempotent). */
async function loginToken() {
  const answer = await fetch(`${server.url}/partner/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'email=test%40acme.example&password=x',
  });
  return ((await answer.json()) as { token: string }).token;
}
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describe('Gupshup partner client against the standalone fake', () => {
  it('logs in once, creates, lists, uploads a sample and deletes', async () => {
    const partner = client();
    const handle = await partner.uploadMedia('tienda', { data: PNG, mime: 'image/png', fileName: 'a.png' });
    expect(handle).toMatch(/^4::/);
    const created = await partner.createTemplate('tienda', {
      elementName: 'promo',
      languageCode: 'es',
      category: 'MARKETING',
      templateType: 'IMAGE',
      vertical: 'promo',
      content: 'Hola {{1}}',
      example: 'Hola [Variable 1]',
      enableSample: 'true',
      exampleMedia: handle,
    });
    expect(created).toMatchObject({ elementName: 'promo', languageCode: 'es', status: 'PENDING' });
    expect((await partner.listTemplates('tienda')).map((template) => template.id)).toEqual([created.id]);
    await partner.deleteTemplate('tienda', 'promo', created.id);
    expect(await partner.listTemplates('tienda')).toEqual([]);
    expect(server.fake.requests.filter((request) => request.path === '/partner/account/login')).toHaveLength(1);
    expect(server.fake.requests.filter((request) => request.path === '/partner/app/tienda/token')).toHaveLength(1);
  });

  it("reports Gupshup's own message, a missing handle, and an unknown app", async () => {
    const partner = client();
    await expect(
      partner.createTemplate('tienda', { elementName: 'x', languageCode: 'es', category: 'PROMO', templateType: 'TEXT', content: 'x', example: 'x' }),
    ).rejects.toThrow(/Invalid category provided/);
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

  it("sends a read receipt as Meta's mark-as-read body to the v3 passthrough, with the app token", async () => {
    const partner = client();
    const { id } = await server.fake.customerSends({ appName: 'tienda', phone: '5215512340001', kind: 'text', text: 'Hola' });
    await partner.markRead('tienda', id);
    const tokenAnswer = await fetch(`${server.url}/partner/app/tienda/token`, { headers: { authorization: await loginToken() } });
    const appToken = ((await tokenAnswer.json()) as { token: { token: string } }).token.token;
    const request = server.fake.requests.filter((sent) => sent.path === '/partner/app/tienda/v3/message').at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.headers.authorization).toBe(appToken);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.json).toEqual({ messaging_product: 'whatsapp', status: 'read', message_id: id });
    expect((await server.fake.conversation('tienda', '5215512340001')).map((message) => message.status)).toEqual(['read']);
  });

  it("accepts either success answer of the passthrough and reports a refusal with Gupshup's message", async () => {
    const partner = client();
    const { id } = await server.fake.customerSends({ appName: 'tienda', phone: '5215512340002', kind: 'text', text: 'Hola' });
    server.fake.failNextPartnerCall('mark-read', { status: 200, body: { messaging_product: 'whatsapp', success: true } });
    await expect(partner.markRead('tienda', id)).resolves.toBeUndefined();
    server.fake.failNextPartnerCall('mark-read', { status: 200, body: { messaging_product: 'whatsapp' } });
    await expect(partner.markRead('tienda', id)).resolves.toBeUndefined();
    server.fake.failNextPartnerCall('mark-read', { status: 200, body: { status: 'error' } });
    await expect(partner.markRead('tienda', id)).rejects.toMatchObject({ status: 200 });
    server.fake.failNextPartnerCall('mark-read', { status: 400, body: { error: { message: '(#100) Invalid parameter', code: 100 } } });
    await expect(partner.markRead('tienda', id)).rejects.toThrow('(#100) Invalid parameter');
    const unknown = await partner.markRead('tienda', 'wamid.desconocido').catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(PartnerApiError);
    expect(unknown).toMatchObject({ status: 400, message: 'Invalid message_id' });
  });

  it('the fake refuses a read receipt without the app token, as its other partner calls do', async () => {
    const { id } = await server.fake.customerSends({ appName: 'tienda', phone: '5215512340003', kind: 'text', text: 'Hola' });
    const body = JSON.stringify({ messaging_product: 'whatsapp', status: 'read', message_id: id });
    for (const authorization of [undefined, await loginToken()]) {
      const answer = await fetch(`${server.url}/partner/app/tienda/v3/message`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body,
      });
      expect(answer.status).toBe(401);
      expect(await answer.json()).toEqual({
        status: 'error',
        message: 'Unauthorised access to the resource. Please review request parameters and headers and retry',
      });
    }
    expect((await server.fake.conversation('tienda', '5215512340003')).map((message) => message.status)).toEqual(['sent']);
  });
});
