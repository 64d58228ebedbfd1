import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeMetaServer } from '../../../test/fakes/fake-meta-server.ts';
import { startFakeWebhookServer } from '../../../test/fakes/fake-webhook-server.ts';
import { startUnansweringServers } from '../../../test/support/unanswering-servers.ts';
import { ProviderError, type InboundEvent, type MetaAccount, type OutboundContent, type TemplateForReview } from '../provider.ts';
import { createMetaCloudProvider, metaSignatureValid } from './meta-cloud.provider.ts';
import { appSecretProof } from './meta-graph.client.ts';
import { FAKE_META_APP_ID } from '../sandbox/fake-meta-cloud.ts';

let meta: Awaited<ReturnType<typeof startFakeMetaServer>>;
let hooks: Awaited<ReturnType<typeof startFakeWebhookServer>>;
const account: MetaAccount = {
  provider: 'meta',
  phoneNumberId: '109876543210987',
  wabaId: '204567890123456',
  accessToken: 'EAAG-token-permanente',
  appSecret: 'secreto-app-123',
  verifyToken: 'token-de-verificacion',
};
const CUSTOMER = '5511999990000';

beforeAll(async () => {
  meta = await startFakeMetaServer();
  hooks = await startFakeWebhookServer();
  hooks.route('/hook', { status: 200, body: '' });
  meta.numbers.push({ ...account, callbackUrl: `${hooks.url}/hook`, displayPhoneNumber: '5511888880000', label: 'Loja Demo' });
  // Most sends here are free-form: the customer writes first, which opens the 24-hour window.
  await meta.fake.customerSends({ phoneNumberId: account.phoneNumberId, phone: CUSTOMER, name: 'Maria', kind: 'text', text: 'Oi' });
});
afterAll(async () => {
  await hooks.close();
  await meta.close();
});
beforeEach(() => {
  meta.fake.messagesPerSecond = 1000;
});

const fetchMedia = async (url: string, token: string) => {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  return { data: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') ?? undefined };
};
const provider = (version = 'v25.0') => createMetaCloudProvider({ graphUrl: () => meta.url, version, fetchMedia });
/** One adapter for the whole file, as the app builds one. */
const adapter = provider();
const line = (of: MetaAccount = account) => adapter.line(of);
const lastRequest = () => meta.fake.requests.at(-1)!;
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as ProviderError,
  );

async function until<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}
const delivered = () => hooks.received.map((request) => ({ headers: request.headers, rawBody: Buffer.from(request.body) }));
const events = (): InboundEvent[] => delivered().flatMap((delivery) => line().webhook.parse(JSON.parse(delivery.rawBody.toString()) as unknown));

const common = { messaging_product: 'whatsapp', recipient_type: 'individual', to: CUSTOMER };

describe('Meta adapter: POST /{phone-number-id}/messages, one body per kind (meta-cloud.md §2)', () => {
  const cases: Array<[string, OutboundContent, Record<string, unknown>]> = [
    [
      'text with a quoted reply and link preview',
      { type: 'text', text: 'Olá! https://loja.example/p/1042', replyToProviderId: 'wamid.Q' },
      { ...common, context: { message_id: 'wamid.Q' }, type: 'text', text: { body: 'Olá! https://loja.example/p/1042', preview_url: true } },
    ],
    ['plain text', { type: 'text', text: 'Hola' }, { ...common, type: 'text', text: { body: 'Hola', preview_url: false } }],
    [
      'image by link with caption',
      { type: 'image', url: 'https://cdn.example.com/p.jpg', caption: 'Produto' },
      { ...common, type: 'image', image: { link: 'https://cdn.example.com/p.jpg', caption: 'Produto' } },
    ],
    [
      'video with caption',
      { type: 'video', url: 'https://cdn.example.com/v.mp4', caption: 'Demo' },
      { ...common, type: 'video', video: { link: 'https://cdn.example.com/v.mp4', caption: 'Demo' } },
    ],
    [
      'document with file name and caption',
      { type: 'document', url: 'https://cdn.example.com/boleto.pdf', fileName: 'boleto.pdf', caption: 'Boleto' },
      { ...common, type: 'document', document: { link: 'https://cdn.example.com/boleto.pdf', filename: 'boleto.pdf', caption: 'Boleto' } },
    ],
    [
      'voice note (ogg) as voice audio, without caption',
      { type: 'audio', url: 'https://cdn.example.com/media/a.ogg', fileName: 'voice-1.ogg', caption: 'no va' },
      { ...common, type: 'audio', audio: { link: 'https://cdn.example.com/media/a.ogg', voice: true } },
    ],
    [
      'audio file (mp3)',
      { type: 'audio', url: 'https://cdn.example.com/a.mp3' },
      { ...common, type: 'audio', audio: { link: 'https://cdn.example.com/a.mp3' } },
    ],
    [
      'sticker',
      { type: 'sticker', url: 'https://cdn.example.com/s.webp' },
      { ...common, type: 'sticker', sticker: { link: 'https://cdn.example.com/s.webp' } },
    ],
    [
      'location',
      { type: 'location', latitude: -23.5505, longitude: -46.6333, name: 'Loja Centro', address: 'Praça da Sé' },
      { ...common, type: 'location', location: { latitude: -23.5505, longitude: -46.6333, name: 'Loja Centro', address: 'Praça da Sé' } },
    ],
    [
      'reply buttons, titles cut to 20 characters, postbacks as ids',
      {
        type: 'quick_reply',
        msgId: 'menu-1',
        header: 'Pedido 1042',
        text: 'Confirma a entrega amanhã?',
        footer: 'Loja Demo',
        options: [
          { title: 'Sim', postbackText: 'confirm_1042' },
          { title: 'Não, prefiro outro dia da semana', postbackText: 'reject_1042' },
        ],
      },
      {
        ...common,
        type: 'interactive',
        interactive: {
          type: 'button',
          header: { type: 'text', text: 'Pedido 1042' },
          body: { text: 'Confirma a entrega amanhã?' },
          footer: { text: 'Loja Demo' },
          action: {
            buttons: [
              { type: 'reply', reply: { id: 'confirm_1042', title: 'Sim' } },
              { type: 'reply', reply: { id: 'reject_1042', title: 'Não, prefiro outro …' } },
            ],
          },
        },
      },
    ],
    [
      'list with one section',
      {
        type: 'list',
        msgId: 'menu-2',
        title: 'Atendimento',
        body: 'Escolha uma opção',
        buttonTitle: 'Ver opções',
        options: [
          { title: 'Novo pedido', description: 'Fazer um pedido', postbackText: 'sales_new' },
          { title: 'Status', postbackText: 'sales_status' },
        ],
      },
      {
        ...common,
        type: 'interactive',
        interactive: {
          type: 'list',
          header: { type: 'text', text: 'Atendimento' },
          body: { text: 'Escolha uma opção' },
          action: {
            button: 'Ver opções',
            sections: [
              {
                title: 'Atendimento',
                rows: [
                  { id: 'sales_new', title: 'Novo pedido', description: 'Fazer um pedido' },
                  { id: 'sales_status', title: 'Status' },
                ],
              },
            ],
          },
        },
      },
    ],
  ];

  it.each(cases)('sends %s as the contract writes it, with the bearer token and appsecret_proof', async (_label, content, body) => {
    const result = await line().send(CUSTOMER, content);
    const request = lastRequest();
    expect(request).toMatchObject({ method: 'POST', path: `/${account.phoneNumberId}/messages` });
    expect(request.headers.authorization).toBe(`Bearer ${account.accessToken}`);
    expect(request.query.appsecret_proof).toBe(appSecretProof(account.accessToken, account.appSecret));
    expect(request.json).toEqual(body);
    expect(result.providerMessageId).toMatch(/^wamid\./);
  });

  it('sends a template by name and language with its header media and body parameters', async () => {
    const template = await approved(
      'pedido_enviado',
      { type: 'IMAGE', example_handle: await sample(), media_url: '/media/x/promo.jpg' },
      'Olá {{1}}, seu pedido {{2}} saiu.',
    );
    await line().send(CUSTOMER, {
      type: 'template',
      templateProviderId: template.id,
      name: 'pedido_enviado',
      languageCode: 'pt_BR',
      params: ['Maria', '#1042'],
      headerMedia: { type: 'image', url: 'https://cdn.example.com/promo.jpg' },
    });
    expect(lastRequest().json).toEqual({
      ...common,
      type: 'template',
      template: {
        name: 'pedido_enviado',
        language: { code: 'pt_BR' },
        components: [
          { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example.com/promo.jpg' } }] },
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Maria' },
              { type: 'text', text: '#1042' },
            ],
          },
        ],
      },
    });
  });

  it('puts the configured Graph version in every path', async () => {
    await provider('v24.0').line(account).send(CUSTOMER, { type: 'text', text: 'Hola' });
    const refused = await failure(provider('latest').line(account).send(CUSTOMER, { type: 'text', text: 'Hola' }));
    expect(refused).toBeInstanceOf(ProviderError);
    expect(refused).toMatchObject({ status: 400, retryable: false });
  });

  it('marks a customer message read with the mark-as-read body (§2.7)', async () => {
    const { id } = await meta.fake.customerSends({ phoneNumberId: account.phoneNumberId, phone: CUSTOMER, kind: 'text', text: '¿Me leen?' });
    await line().markRead(id);
    expect(lastRequest().json).toEqual({ messaging_product: 'whatsapp', status: 'read', message_id: id });
    const mine = (await meta.fake.conversation(account.phoneNumberId, CUSTOMER)).find((message) => message.id === id);
    expect(mine?.status).toBe('read');
    expect(await failure(line().markRead('wamid.NOPE'))).toMatchObject({ status: 400, failure: { code: '100' } });
  });
});

/** A template approved by the fake's review, for the sends that need one. */
async function approved(name: string, header: TemplateForReview['header'], bodyText: string) {
  const template = await line().templates.submit({
    name,
    category: 'UTILITY',
    languageCode: 'pt_BR',
    header,
    bodyText,
    footer: null,
    buttons: [],
    variablesSchema: Object.fromEntries(
      [...bodyText.matchAll(/\{\{(\d+)\}\}/g)].map((match) => [match[1]!, { type: 'text' as const, label: `Variable ${match[1]}` }]),
    ),
  });
  await until(() => meta.fake.templatesOf(account.wabaId).find((held) => held.id === template.id && held.status === 'APPROVED'));
  return template;
}

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const sample = () => line().templates.uploadSample({ data: PNG, mime: 'image/png', fileName: 'promo.png' });

describe('Meta adapter: templates on the WABA (§4)', () => {
  it('creates a template with the contract components, lists it reviewed, deletes it by name and id', async () => {
    const handle = await sample();
    const created = await line().templates.submit({
      name: 'aviso_entrega',
      category: 'UTILITY',
      languageCode: 'es',
      header: { type: 'IMAGE', example_handle: handle, media_url: '/media/t/a.png' },
      bodyText: 'Hola {{1}}, tu pedido {{2}} llega mañana.',
      footer: 'Tienda Demo',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Recibí' },
        { type: 'URL', text: 'Rastrear', url: 'https://tienda.example/r/{{1}}' },
        { type: 'PHONE_NUMBER', text: 'Llamar', phone_number: '+5215500000000' },
      ],
      variablesSchema: { 1: { type: 'text', label: 'Nombre' }, 2: { type: 'text', label: 'Pedido' } },
    });
    expect(created).toEqual({ id: expect.stringMatching(/^\d+$/) as unknown, name: 'aviso_entrega', languageCode: 'es', status: 'PENDING', reason: null });
    expect(lastRequest()).toMatchObject({ method: 'POST', path: `/${account.wabaId}/message_templates` });
    expect(lastRequest().json).toEqual({
      name: 'aviso_entrega',
      language: 'es',
      category: 'UTILITY',
      parameter_format: 'positional',
      components: [
        { type: 'HEADER', format: 'IMAGE', example: { header_handle: [handle] } },
        { type: 'BODY', text: 'Hola {{1}}, tu pedido {{2}} llega mañana.', example: { body_text: [['Nombre', 'Pedido']] } },
        { type: 'FOOTER', text: 'Tienda Demo' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'QUICK_REPLY', text: 'Recibí' },
            { type: 'URL', text: 'Rastrear', url: 'https://tienda.example/r/{{1}}', example: ['https://tienda.example/r/1'] },
            { type: 'PHONE_NUMBER', text: 'Llamar', phone_number: '+5215500000000' },
          ],
        },
      ],
    });
    await until(async () => (await line().templates.list()).find((template) => template.id === created.id && template.status === 'APPROVED'));
    const listing = meta.fake.requests.filter((request) => request.method === 'GET' && request.path === `/${account.wabaId}/message_templates`).at(-1)!;
    expect(listing.query).toMatchObject({ fields: 'id,name,status,category,language,rejected_reason', limit: '50' });

    await line().templates.remove('aviso_entrega', created.id);
    expect(lastRequest()).toMatchObject({ method: 'DELETE', query: { name: 'aviso_entrega', hsm_id: created.id } });
    await expect(line().templates.remove('aviso_entrega', created.id)).resolves.toBeUndefined();
    // A Gupshup-era id names nothing at Meta: the removal goes by name alone.
    await line()
      .templates.remove('aviso_entrega', '0b0e4b0c-1111-4222-8333-444455556666')
      .catch(() => undefined);
    expect(lastRequest().query).toEqual(expect.not.objectContaining({ hsm_id: expect.anything() as unknown }));
  });

  it('reads a rejection with its reason and follows the list paging', async () => {
    const rejected = await line().templates.submit({
      name: 'oferta_rara',
      category: 'MARKETING',
      languageCode: 'es',
      header: null,
      bodyText: 'Vamos a rechazar esto',
      footer: null,
      buttons: [],
      variablesSchema: {},
    });
    for (let n = 0; n < 55; n++) {
      await line().templates.submit({
        name: `relleno_${n}`,
        category: 'UTILITY',
        languageCode: 'es',
        header: null,
        bodyText: 'Hola',
        footer: null,
        buttons: [],
        variablesSchema: {},
      });
    }
    const all = await until(async () => {
      const listed = await line().templates.list();
      return listed.find((template) => template.id === rejected.id)?.status === 'REJECTED' && listed;
    });
    expect(all.find((template) => template.id === rejected.id)).toMatchObject({ status: 'REJECTED', reason: 'INVALID_FORMAT' });
    expect(all.filter((template) => template.name.startsWith('relleno_'))).toHaveLength(55);
  });

  it('uploads a header sample through the resumable upload API: the app, a session, the bytes with OAuth and file_offset', async () => {
    await sample();
    const before = meta.fake.requests.length;
    const handle = await sample();
    expect(handle).toMatch(/^4::/);
    const calls = meta.fake.requests.slice(before);
    // The app id is learned once per token and cached.
    expect(calls.map((request) => `${request.method} ${request.path.replace(/upload:[^/]+$/, 'upload:…')}`)).toEqual([
      `POST /${FAKE_META_APP_ID}/uploads`,
      'POST /upload:…',
    ]);
    expect(calls[0]!.query).toMatchObject({ file_name: 'promo.png', file_length: String(PNG.length), file_type: 'image/png' });
    expect(calls[1]!.headers).toMatchObject({ authorization: `OAuth ${account.accessToken}`, file_offset: '0' });
    expect(meta.fake.requests.filter((request) => request.path === '/app')).toHaveLength(1);
  });
});

describe('Meta adapter: inbound media in two steps (§3.4)', () => {
  it('asks Graph for the media URL, then fetches it with the same token', async () => {
    const mediaId = await meta.fake.storeFile(PNG, 'image/png');
    const { id } = await meta.fake.customerSends({
      phoneNumberId: account.phoneNumberId,
      phone: CUSTOMER,
      kind: 'image',
      url: mediaId,
      contentType: 'image/png',
    });
    const message = await until(() => events().find((event) => event.kind === 'message' && event.providerMessageId === id));
    expect(message).toMatchObject({ media: { ref: mediaId, contentType: 'image/png' } });
    const before = meta.fake.requests.length;
    const media = await line().downloadMedia({ ref: mediaId });
    expect(media.data.equals(PNG)).toBe(true);
    expect(media.contentType).toBe('image/png');
    expect(meta.fake.requests.slice(before).map((request) => [request.path, request.headers.authorization])).toEqual([
      [`/${mediaId}`, `Bearer ${account.accessToken}`],
      [`/media-download/${mediaId}`, `Bearer ${account.accessToken}`],
    ]);
  });
});

describe('Meta adapter: the webhook', () => {
  const signed = (raw: string, secret = account.appSecret) => ({
    headers: { 'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}` },
    rawBody: Buffer.from(raw),
  });

  it("accepts the fake's signed deliveries and refuses a wrong, missing or tampered signature", async () => {
    const genuine = delivered();
    expect(genuine.length).toBeGreaterThan(0);
    for (const delivery of genuine) expect(line().webhook.authentic(delivery)).toBe(true);
    const raw = genuine[0]!.rawBody.toString();
    expect(line().webhook.authentic(signed(raw))).toBe(true);
    expect(line().webhook.authentic(signed(raw, 'otro-secreto'))).toBe(false);
    expect(line().webhook.authentic({ headers: {}, rawBody: Buffer.from(raw) })).toBe(false);
    expect(line().webhook.authentic({ headers: genuine[0]!.headers, rawBody: Buffer.from(`${raw} `) })).toBe(false);
    expect(line().webhook.authentic({ headers: { 'x-hub-signature-256': 'sha256=zz' }, rawBody: Buffer.from(raw) })).toBe(false);
    // Without an app secret saved, nothing is authentic.
    expect(metaSignatureValid('', signed(raw))).toBe(false);
  });

  it("answers Meta's verification handshake only to subscribe with our verify token", () => {
    const webhook = line().webhook;
    const query = { 'hub.mode': 'subscribe', 'hub.verify_token': account.verifyToken, 'hub.challenge': '1158201444' };
    expect(webhook.handshake(query)).toEqual({ status: 200, body: '1158201444' });
    expect(webhook.handshake({ ...query, 'hub.verify_token': 'otro' })).toMatchObject({ status: 403 });
    expect(webhook.handshake({ ...query, 'hub.mode': 'unsubscribe' })).toMatchObject({ status: 403 });
    expect(webhook.handshake({ ...query, 'hub.challenge': '<script>' })).toMatchObject({ status: 403 });
    expect(line({ ...account, verifyToken: '' }).webhook.handshake({ ...query, 'hub.verify_token': '' })).toMatchObject({ status: 403 });
  });

  it('reads the statuses of a send in order, sent → delivered → read', async () => {
    const { providerMessageId } = await line().send(CUSTOMER, { type: 'text', text: 'Seguimos' });
    const statuses = await until(() => {
      const found = events().filter((event) => event.kind === 'status' && event.providerMessageId === providerMessageId);
      return found.length === 3 && found;
    });
    expect(statuses.map((status) => status.kind === 'status' && status.status)).toEqual(['sent', 'delivered', 'read']);
  });
});

describe("Meta adapter: Meta's errors in words people can act on (§2.8)", () => {
  it('131047: free text to a customer whose 24-hour window is closed', async () => {
    const error = await failure(line().send('5215512345678', { type: 'text', text: 'Hola' }));
    expect(error).toMatchObject({
      retryable: false,
      failure: { code: '131047', kind: 'window_closed', reason: 'Ventana de 24 horas cerrada: usa una plantilla' },
    });
  });

  it('131026: a number not on WhatsApp, reported in the failed status with errors[]', async () => {
    const template = await approved('aviso_general', null, 'Hola {{1}}');
    const { providerMessageId } = await line().send('0005215500000000', {
      type: 'template',
      templateProviderId: template.id,
      name: 'aviso_general',
      languageCode: 'pt_BR',
      params: ['Ana'],
    });
    const failed = await until(() =>
      events().find((event) => event.kind === 'status' && event.providerMessageId === providerMessageId && event.status === 'failed'),
    );
    expect(failed).toMatchObject({
      failure: {
        code: '131026',
        kind: 'not_on_whatsapp',
        reason: 'WhatsApp no pudo entregarlo: el número no tiene WhatsApp, o el cliente debe actualizar la app o aceptar sus términos',
      },
    });
  });

  it('130429: past the configured throughput, retryable with the rate-limit reason', async () => {
    meta.fake.messagesPerSecond = 1;
    await line().send(CUSTOMER, { type: 'text', text: 'uno' });
    const error = await failure(line().send(CUSTOMER, { type: 'text', text: 'dos' }));
    expect(error).toMatchObject({ retryable: true, failure: { code: '130429', kind: 'rate_limited', reason: 'Límite de envíos alcanzado: se reintentará' } });
  });

  it('131056: the pair rate limit, retryable too', async () => {
    meta.fake.failNextSends({ status: 400, code: 131056, message: '(Business Account, Consumer Account) pair rate limit hit' });
    expect(await failure(line().send(CUSTOMER, { type: 'text', text: 'rápido' }))).toMatchObject({
      retryable: true,
      message: expect.stringContaining('pair rate limit hit') as unknown,
      failure: { code: '131056', kind: 'rate_limited', reason: 'Demasiados mensajes seguidos a este cliente: se reintentará en unos segundos' },
    });
  });

  it('132000 and 132001: parameters that do not match, and a template that does not exist', async () => {
    const template = await approved('dos_variables', null, 'Hola {{1}}, pedido {{2}}');
    const mismatch = await failure(
      line().send(CUSTOMER, { type: 'template', templateProviderId: template.id, name: 'dos_variables', languageCode: 'pt_BR', params: ['Ana'] }),
    );
    expect(mismatch).toMatchObject({ retryable: false, failure: { code: '132000', kind: 'template_mismatch' } });
    const missing = await failure(line().send(CUSTOMER, { type: 'template', templateProviderId: '1', name: 'no_existe', languageCode: 'es', params: [] }));
    expect(missing).toMatchObject({ retryable: false, failure: { code: '132001', kind: 'template_missing' } });
  });

  it('132015: a paused template fails in its status with "Plantilla pausada por Meta…", and the pause is announced', async () => {
    const template = await approved('promo_pausada', null, 'Promo {{1}}');
    await meta.fake.setTemplateStatus(account.wabaId, template.id, 'PAUSED', 'LOW_QUALITY');
    expect(
      await until(() => events().find((event) => event.kind === 'template-status' && event.providerTemplateId === template.id && event.status === 'PAUSED')),
    ).toMatchObject({
      reason: 'LOW_QUALITY',
    });
    const { providerMessageId } = await line().send(CUSTOMER, {
      type: 'template',
      templateProviderId: template.id,
      name: 'promo_pausada',
      languageCode: 'pt_BR',
      params: ['x'],
    });
    const failed = await until(() =>
      events().find((event) => event.kind === 'status' && event.providerMessageId === providerMessageId && event.status === 'failed'),
    );
    expect(failed).toMatchObject({
      failure: { code: '132015', kind: 'template_paused', reason: 'Plantilla pausada por Meta por baja calidad: edítala o usa otra plantilla' },
    });
  });

  it('190: an expired token, final, and Probar conexión says what to do', async () => {
    const expired = line({ ...account, accessToken: 'EAAG-vencido' });
    expect(await failure(expired.send(CUSTOMER, { type: 'text', text: 'Hola' }))).toMatchObject({
      status: 401,
      retryable: false,
      failure: { code: '190', kind: 'token_expired', reason: 'El token de acceso de Meta venció o no es válido: actualízalo en Conexión WhatsApp' },
    });
    const checks = await expired.check();
    expect(checks).toEqual([{ ok: false, message: expect.stringContaining('El token de acceso no es válido o venció (código 190)') as unknown }]);
  });

  it('Probar conexión names a wrong app secret, a wrong number and a wrong WABA, and confirms a working account', async () => {
    expect(await line({ ...account, appSecret: 'otro' }).check()).toEqual([
      { ok: false, message: expect.stringContaining('El secreto de la app (app secret) no corresponde') as unknown },
    ]);
    const wrongNumber = await line({ ...account, phoneNumberId: '999' }).check();
    expect(wrongNumber[0]).toMatchObject({ ok: false, message: expect.stringContaining('Meta no encuentra el número') as unknown });
    const wrongWaba = await line({ ...account, wabaId: '123' }).check();
    expect(wrongWaba).toEqual([
      { ok: true, message: 'Meta reconoce el número 5511888880000 (Loja Demo) con este token y este secreto de la app.' },
      { ok: false, message: expect.stringContaining('Meta no deja leer las plantillas de la cuenta 123') as unknown },
    ]);
    expect((await line().check()).every((check) => check.ok)).toBe(true);
  });

  it('an outage (5xx or no answer) is retryable and says nothing about the message', async () => {
    meta.fake.failNextSends({ status: 500, code: 1, message: 'An unknown error occurred' });
    expect(await failure(line().send(CUSTOMER, { type: 'text', text: 'x' }))).toMatchObject({ retryable: true, status: 500 });
    const closed = createMetaCloudProvider({ graphUrl: 'http://127.0.0.1:9', version: 'v25.0', fetchMedia }).line(account);
    expect(await failure(closed.send(CUSTOMER, { type: 'text', text: 'x' }))).toMatchObject({ retryable: true, uncertain: false });
  });

  it('a send left unanswered, or answered in part, is uncertain: it may have reached Meta', async () => {
    const unanswering = await startUnansweringServers();
    try {
      for (const url of unanswering.urls) {
        const unanswered = createMetaCloudProvider({ graphUrl: url, version: 'v25.0', fetchMedia, timeoutMs: 200 }).line(account);
        expect(await failure(unanswered.send(CUSTOMER, { type: 'text', text: 'x' }))).toMatchObject({ retryable: true, uncertain: true });
      }
      expect(unanswering.received).toEqual([
        `/v25.0/${account.phoneNumberId}/messages?appsecret_proof=${appSecretProof(account.accessToken, account.appSecret)}`,
      ]);
    } finally {
      unanswering.close();
    }
  });
});

describe('the fake Cloud API', () => {
  it('runs the verification handshake against a callback and checks the echo', async () => {
    const handshakes = await startFakeWebhookServer();
    try {
      handshakes.route('/ok', (request) => ({
        status: 200,
        contentType: 'text/plain',
        body: new URL(request.path, 'http://x').searchParams.get('hub.challenge') ?? '',
      }));
      handshakes.route('/wrong', { status: 200, contentType: 'text/plain', body: 'otra cosa' });
      meta.numbers.push({ ...account, phoneNumberId: '1', callbackUrl: `${handshakes.url}/ok`, displayPhoneNumber: '1' });
      meta.numbers.push({ ...account, phoneNumberId: '2', callbackUrl: `${handshakes.url}/wrong`, displayPhoneNumber: '2' });
      expect(await meta.fake.verifyCallback('1')).toBe(true);
      expect(await meta.fake.verifyCallback('2')).toBe(false);
      expect(handshakes.received[0]!.path).toContain(`hub.verify_token=${account.verifyToken}`);
    } finally {
      meta.numbers.splice(-2);
      await handshakes.close();
    }
  });
});
