import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_UPLOAD_INVALID_RESPONSE } from '@embudo/contracts/http/templates';
import { startFakeGupshupServer } from '../../../test/fakes/fake-gupshup-server.ts';
import { startUnansweringServers } from '../../../test/support/unanswering-servers.ts';
import { ProviderError } from '../provider.ts';
import { createGupshupProvider, NO_PLATFORM_API_KEY } from './gupshup.provider.ts';
import { createGupshupPartnerClient } from './gupshup-partner.client.ts';
import { GUPSHUP_ERRORS, GUPSHUP_SEND_ERRORS } from './gupshup-errors.ts';

let server: Awaited<ReturnType<typeof startFakeGupshupServer>>;
const account = { provider: 'gupshup' as const, appName: 'LojaDemo', sourceNumber: '5511888880000', apiKey: 'key-123' };

beforeAll(async () => {
  server = await startFakeGupshupServer();
  server.apps.push({ appName: 'LojaDemo', sourceNumber: '5511888880000', callbackUrl: 'http://127.0.0.1:9/unused', apiKey: account.apiKey });
});
afterAll(async () => server.close());

const noMedia = async () => Promise.reject(new ProviderError('no media in this test', false));
const partnerAt = (url: string) => createGupshupPartnerClient({ baseUrl: url, credentials: async () => ({ email: 'ops@acme.example', password: 'secreto' }) });

describe('Gupshup adapter against the fake', () => {
  const provider = (of = account) => createGupshupProvider({ apiUrl: server.url, partner: partnerAt(server.url), downloadMedia: noMedia }).line(of);

  it('sends a text as Gupshup form fields with the apikey header and returns the Gupshup id', async () => {
    const result = await provider().send('5511999990000', { type: 'text', text: 'Hola', replyToProviderId: 'wamid.Q' });
    const request = server.fake.requests.at(-1)!;
    expect(request.path).toBe('/wa/api/v1/msg');
    expect(request.headers.apikey).toBe('key-123');
    expect(request.form).toEqual({
      channel: 'whatsapp',
      source: '5511888880000',
      destination: '5511999990000',
      'src.name': 'LojaDemo',
      message: JSON.stringify({ context: { msgId: 'wamid.Q' }, type: 'text', text: 'Hola', previewUrl: false }),
    });
    expect(result.providerMessageId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('maps media to Gupshup message JSON (image originalUrl, document as file with filename, audio, video)', async () => {
    await provider().send('5511999990000', { type: 'image', url: 'https://x/p.jpg', caption: 'Foto' });
    expect(JSON.parse(server.fake.requests.at(-1)!.form.message!)).toEqual({
      type: 'image',
      originalUrl: 'https://x/p.jpg',
      previewUrl: 'https://x/p.jpg',
      caption: 'Foto',
    });
    await provider().send('5511999990000', { type: 'document', url: 'https://x/b.pdf', fileName: 'b.pdf' });
    expect(JSON.parse(server.fake.requests.at(-1)!.form.message!)).toEqual({ type: 'file', url: 'https://x/b.pdf', filename: 'b.pdf' });
    await provider().send('5511999990000', { type: 'audio', url: 'https://x/n.ogg' });
    expect(JSON.parse(server.fake.requests.at(-1)!.form.message!)).toEqual({ type: 'audio', url: 'https://x/n.ogg' });
    await provider().send('5511999990000', { type: 'video', url: 'https://x/v.mp4', caption: 'Demo' });
    expect(JSON.parse(server.fake.requests.at(-1)!.form.message!)).toEqual({ type: 'video', url: 'https://x/v.mp4', caption: 'Demo' });
  });

  it('maps quick replies with msgid, content and options', async () => {
    await provider().send('5511999990000', {
      type: 'quick_reply',
      msgId: 'menu-1',
      text: '¿Qué necesitas?',
      options: [{ title: 'Ventas', postbackText: '1' }],
    });
    expect(JSON.parse(server.fake.requests.at(-1)!.form.message!)).toEqual({
      type: 'quick_reply',
      msgid: 'menu-1',
      content: { type: 'text', text: '¿Qué necesitas?' },
      options: [{ type: 'text', title: 'Ventas', postbackText: '1' }],
    });
  });

  it('sends templates to /template/msg with the template JSON and an optional media header', async () => {
    await provider().send('5511999990000', {
      type: 'template',
      templateProviderId: 'tpl-uuid',
      name: 'pedido_enviado',
      languageCode: 'es',
      params: ['Maria', '#1042'],
      headerMedia: { type: 'image', url: 'https://x/promo.jpg' },
    });
    const request = server.fake.requests.at(-1)!;
    expect(request.path).toBe('/wa/api/v1/template/msg');
    expect(request.form.template).toBe(JSON.stringify({ id: 'tpl-uuid', params: ['Maria', '#1042'] }));
    expect(request.form.message).toBe(JSON.stringify({ type: 'image', image: { link: 'https://x/promo.jpg' } }));
  });

  it('reports a 5xx as retryable and a 400 as final', async () => {
    server.fake.failNextSends({ status: 503 });
    const outage = await provider()
      .send('5511999990000', { type: 'text', text: 'x' })
      .catch((error) => error);
    expect(outage).toBeInstanceOf(ProviderError);
    // Gupshup's words stay in the message for the logs; people read the failure, an outage's too.
    expect(outage).toMatchObject({ retryable: true, status: 503, uncertain: false, message: 'Internal Server Error' });
    expect(outage.failure).toEqual({ kind: 'provider_error', code: '503', reason: GUPSHUP_ERRORS[500]!.reason });
    const invalid = await provider()
      .send('abc', { type: 'text', text: 'x' })
      .catch((error) => error);
    expect(invalid).toMatchObject({ retryable: false, status: 400, message: 'Invalid Destination' });
    expect(invalid.failure).toEqual({
      kind: 'invalid_number',
      code: '400',
      reason: 'El número del cliente no es válido: revisa que tenga código de país y solo dígitos',
    });
    const wrongApp = await provider({ ...account, appName: 'Other' })
      .send('5511999990000', { type: 'text', text: 'x' })
      .catch((error) => error);
    expect(wrongApp).toMatchObject({ retryable: false, message: 'Invalid App Details', failure: { kind: 'account_setup', code: '400' } });
    expect(wrongApp.failure.reason).toBe(GUPSHUP_SEND_ERRORS['Invalid App Details']!.reason);
    const wrongKey = await provider({ ...account, apiKey: 'not-the-key' })
      .send('5511999990000', { type: 'text', text: 'x' })
      .catch((error) => error);
    expect(wrongKey).toMatchObject({ status: 401, message: 'Authentication Failed', failure: { kind: 'unauthorized', code: '401' } });
    // Without the operator's key nothing reaches Gupshup, and the reason says who must act.
    const sends = server.fake.requests.length;
    const noKey = await provider({ ...account, apiKey: '' })
      .send('5511999990000', { type: 'text', text: 'x' })
      .catch((error) => error);
    expect(noKey).toMatchObject({ retryable: false, message: NO_PLATFORM_API_KEY });
    expect(server.fake.requests).toHaveLength(sends);
  });

  it('reports a refused connection as retryable and certain (nothing was sent)', async () => {
    const closed = createGupshupProvider({ apiUrl: 'http://127.0.0.1:9', partner: partnerAt('http://127.0.0.1:9'), downloadMedia: noMedia }).line(account);
    const error = await closed.send('5511999990000', { type: 'text', text: 'x' }).catch((e) => e);
    expect(error).toMatchObject({ retryable: true, uncertain: false });
    const receipt = await closed.markRead('wamid.X').catch((e) => e);
    expect(receipt).toBeInstanceOf(ProviderError);
    expect(receipt).toMatchObject({ retryable: true });
  });

  it('reports a send left unanswered, or answered in part, as uncertain (it may have reached Gupshup)', async () => {
    const unanswering = await startUnansweringServers();
    try {
      for (const url of unanswering.urls) {
        const line = createGupshupProvider({ apiUrl: url, partner: partnerAt(url), downloadMedia: noMedia, sendTimeoutMs: 200 }).line(account);
        const error = await line.send('5511999990000', { type: 'text', text: 'x' }).catch((e) => e);
        expect(error).toBeInstanceOf(ProviderError);
        expect(error).toMatchObject({ retryable: true, uncertain: true });
      }
      expect(unanswering.received).toEqual(['/wa/api/v1/msg']);
    } finally {
      unanswering.close();
    }
  });

  it('marks a customer message read through the partner API, with the app name as app id', async () => {
    const { id } = await server.fake.customerSends({ appName: 'LojaDemo', phone: '5511999990001', kind: 'text', text: 'Oi' });
    await provider().markRead(id);
    expect(server.fake.requests.at(-1)).toMatchObject({ method: 'POST', path: '/partner/app/LojaDemo/v3/message', json: { message_id: id } });
    expect((await server.fake.conversation('LojaDemo', '5511999990001')).map((message) => message.status)).toEqual(['read']);
  });

  it('reports a partner 5xx as a retryable read-receipt failure and an unknown message as final', async () => {
    server.fake.failNextPartnerCall('mark-read', { status: 503 });
    const outage = await provider()
      .markRead('wamid.X')
      .catch((error) => error);
    expect(outage).toBeInstanceOf(ProviderError);
    expect(outage).toMatchObject({ retryable: true, status: 503 });
    const unknown = await provider()
      .markRead('wamid.NOPE')
      .catch((error) => error);
    expect(unknown).toMatchObject({ retryable: false, status: 400, message: 'Invalid message_id' });
  });

  it('serves the template port through the partner API: submit, list in our statuses, remove (already gone is removed), sample upload', async () => {
    const { templates } = provider();
    const submitted = await templates.submit({
      name: 'promo_port',
      category: 'MARKETING',
      languageCode: 'es',
      header: null,
      bodyText: 'Hola {{1}}',
      footer: null,
      buttons: [],
      variablesSchema: { 1: { type: 'text', label: 'Nombre' } },
    });
    expect(submitted).toMatchObject({ name: 'promo_port', languageCode: 'es', status: 'PENDING', reason: null });
    expect(server.fake.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/partner/app/LojaDemo/templates',
      form: { elementName: 'promo_port', content: 'Hola {{1}}', example: 'Hola [Nombre]' },
    });
    expect((await templates.list()).find((template) => template.id === submitted.id)).toMatchObject({ name: 'promo_port', languageCode: 'es' });

    await templates.remove('promo_port', submitted.id);
    expect(server.fake.requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/partner/app/LojaDemo/template/promo_port/${submitted.id}` });
    await expect(templates.remove('promo_port', submitted.id)).resolves.toBeUndefined();

    const handle = await templates.uploadSample({ data: Buffer.from('%PDF-1.4'), mime: 'application/pdf', fileName: 'muestra.pdf' });
    expect(handle).toMatch(/^4::/);
  });

  it('reports template failures as ProviderErrors: an outage retryable, a refusal final', async () => {
    server.fake.failNextPartnerCall('list', { status: 503 });
    const outage = await provider()
      .templates.list()
      .catch((error) => error);
    expect(outage).toBeInstanceOf(ProviderError);
    expect(outage).toMatchObject({ retryable: true, status: 503, message: 'Internal Server Error' });
    const refused = await provider()
      .templates.uploadSample({ data: Buffer.from('x'), mime: 'text/plain', fileName: 'a.txt' })
      .catch((error) => error);
    expect(refused).toBeInstanceOf(ProviderError);
    // An answer without a handle carries the wording the templates module shows as is.
    expect(refused).toMatchObject({ retryable: false, status: 400, message: MEDIA_UPLOAD_INVALID_RESPONSE });
  });
});
