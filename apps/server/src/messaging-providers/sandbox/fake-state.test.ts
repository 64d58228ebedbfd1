import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { sandboxFakeStatuses, sandboxFakeTemplates } from '../../../db/schema/index.ts';
import { buildTestApp, TEST_APP_SECRET, type TestApp } from '../../../test/support/build-test-app.ts';
import { registerTenant } from '../../../test/support/factories.ts';
import { until } from '../../../test/support/templates.ts';
import { sandboxAppName } from '../../modules/tenants/index.ts';
import { sandboxPartnerCredentials } from '../gupshup/gupshup-partner.client.ts';
import { createDatabaseConversationStore } from './conversation-store.ts';
import { createDatabaseFakeStateStore } from './fake-state-store.ts';
import { FakeGupshup, type FakeApp } from './fake-gupshup.ts';
import { FakeMetaCloud, type FakeMetaNumber } from './fake-meta-cloud.ts';

let t: TestApp;
/** Every callback the fakes made, as posted. */
const callbacks: Array<Record<string, unknown>> = [];
const receiver = http.createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    callbacks.push(JSON.parse(body) as Record<string, unknown>);
    response.writeHead(200).end('{}');
  });
});
let callbackUrl = '';

beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await t.close();
});

/** Sixty seconds: nothing after the first status comes due while the test runs, unless the test says it is late. */
const LATER = 60_000;

/** The server was down past every due time: what it kept is now late. */
async function timePassesWhileDown() {
  await t.database.db.update(sandboxFakeStatuses).set({ dueAt: sql`now() - interval '1 minute'` });
  await t.database.db
    .update(sandboxFakeTemplates)
    .set({ reviewDueAt: sql`now() - interval '1 minute'` })
    .where(sql`${sandboxFakeTemplates.reviewDueAt} is not null`);
}

describe('the fake Gupshup across a restart (a new fake on the same database)', () => {
  const app: FakeApp = { appName: 'reinicio-app', sourceNumber: '15550001000', callbackUrl: '', apiKey: 'clave-reinicio' };
  const fakeOn = () =>
    new FakeGupshup({
      apps: () => [{ ...app, callbackUrl }],
      publicUrl: () => 'http://fake',
      store: createDatabaseConversationStore(t.database.db),
      state: createDatabaseFakeStateStore(t.database.db),
      statusStepMs: LATER,
      templateReviewMs: LATER,
    });
  const events = (messageId: string) =>
    callbacks
      .filter((callback) => callback.type === 'message-event')
      .map((callback) => callback.payload as { id: string; gsId?: string; type: string })
      .filter((payload) => payload.id === messageId || payload.gsId === messageId)
      .map((payload) => payload.type);

  it('finishes the review, sends the statuses owed in order and exactly once, and sends the approved template', async () => {
    const first = fakeOn();
    await first.load();
    const login = await first.partnerLogin({}, { email: 'ops@embudo.test', password: 'secreto' });
    const appToken = await first.partnerAppToken(app.appName, { authorization: (login.body as { token: string }).token });
    const authorization = (appToken.body as { token: { token: string } }).token.token;
    const created = await first.partnerCreateTemplate(
      app.appName,
      { authorization },
      { elementName: 'aviso_reinicio', languageCode: 'es', category: 'UTILITY', templateType: 'TEXT', content: 'Hola {{1}}', example: 'Hola Ana' },
    );
    expect(created.status).toBe(200);
    const templateId = (created.body as { template: { id: string } }).template.id;
    const sent = await first.handleSend(
      '/wa/api/v1/msg',
      { apikey: app.apiKey },
      {
        'src.name': app.appName,
        source: app.sourceNumber,
        destination: '5215500001111',
        message: JSON.stringify({ type: 'text', text: 'en camino' }),
      },
    );
    const messageId = (sent.body as { messageId: string }).messageId;
    await until(async () => events(messageId).includes('enqueued') || undefined, 8000);
    first.close();
    expect(first.templatesOf(app.appName)[0]?.status).toBe('PENDING');

    await timePassesWhileDown();
    // Two fakes resume at once: each status is taken by one of them only.
    const [second, third] = [fakeOn(), fakeOn()];
    try {
      await Promise.all([second.load(), third.load()]);
      expect(second.templatesOf(app.appName).map((template) => [template.id, template.status])).toEqual([[templateId, 'PENDING']]);
      await Promise.all([second.resume(), third.resume()]);
      await until(async () => (events(messageId).length === 4 ? true : undefined), 8000);
      expect(events(messageId)).toEqual(['enqueued', 'sent', 'delivered', 'read']);
      await until(async () => (second.templatesOf(app.appName)[0]?.status === 'APPROVED' ? true : undefined), 8000);
      expect(callbacks.some((callback) => callback.type === 'template-event' && (callback.payload as { status: string }).status === 'APPROVED')).toBe(true);
      expect(await t.database.db.select().from(sandboxFakeStatuses).where(eq(sandboxFakeStatuses.messageId, messageId))).toEqual([]);

      // A fourth start knows the template approved, and sends it.
      const fourth = fakeOn();
      await fourth.load();
      const templateSend = await fourth.handleSend(
        '/wa/api/v1/template/msg',
        { apikey: app.apiKey },
        {
          'src.name': app.appName,
          source: app.sourceNumber,
          destination: '5215500001111',
          template: JSON.stringify({ id: templateId, params: ['Ana'] }),
        },
      );
      fourth.close();
      expect(templateSend.status).toBe(200);
      const onPhone = (await fourth.conversation(app.appName, '5215500001111')).at(-1);
      expect(onPhone?.template?.body).toBe('Hola Ana');
    } finally {
      second.close();
      third.close();
    }
  });
});

describe('the fake Cloud API across a restart', () => {
  const number: FakeMetaNumber = {
    phoneNumberId: '109000000000001',
    wabaId: '209000000000001',
    accessToken: 'token-reinicio',
    appSecret: 'secreto-reinicio',
    verifyToken: 'v',
    callbackUrl: '',
    displayPhoneNumber: '15550001000',
  };
  const fakeOn = () =>
    new FakeMetaCloud({
      numbers: () => [{ ...number, callbackUrl }],
      publicUrl: () => 'http://fake-meta',
      store: createDatabaseConversationStore(t.database.db),
      state: createDatabaseFakeStateStore(t.database.db),
      statusStepMs: LATER,
      templateReviewMs: LATER,
    });
  const headers = { authorization: `Bearer ${number.accessToken}` };
  const statusesOf = (messageId: string) =>
    callbacks
      .flatMap((callback) => (callback.entry as Array<{ changes: Array<{ value: { statuses?: Array<{ id: string; status: string }> } }> }> | undefined) ?? [])
      .flatMap((entry) => entry.changes.flatMap((change) => change.value.statuses ?? []))
      .filter((status) => status.id === messageId)
      .map((status) => status.status);

  it('keeps the WABA’s templates and their approval, and sends the statuses owed', async () => {
    const first = fakeOn();
    await first.load();
    const created = await first.createTemplate(
      number.wabaId,
      headers,
      {},
      {
        name: 'aviso_meta',
        category: 'UTILITY',
        language: 'es',
        components: [{ type: 'BODY', text: 'Su pedido salió' }],
      },
    );
    const templateId = (created.body as { id: string }).id;
    expect(await first.approveTemplate(number.wabaId, templateId)).toBe(true);
    // The customer wrote first, so the 24-hour window is open for free text.
    await first.customerSends({ phoneNumberId: number.phoneNumberId, phone: '5215500002222', kind: 'text', text: 'hola' });
    const sent = await first.postMessages(
      number.phoneNumberId,
      headers,
      {},
      { messaging_product: 'whatsapp', to: '5215500002222', type: 'text', text: { body: 'va' } },
    );
    const messageId = (sent.body as { messages: Array<{ id: string }> }).messages[0]!.id;
    first.close();

    await timePassesWhileDown();
    const second = fakeOn();
    try {
      await second.load();
      expect(second.templatesOf(number.wabaId).map((template) => [template.id, template.status])).toEqual([[templateId, 'APPROVED']]);
      await second.resume();
      await until(async () => (statusesOf(messageId).length === 3 ? true : undefined), 8000);
      expect(statusesOf(messageId)).toEqual(['sent', 'delivered', 'read']);
      const templateSend = await second.postMessages(
        number.phoneNumberId,
        headers,
        {},
        {
          messaging_product: 'whatsapp',
          to: '5215500002222',
          type: 'template',
          template: { name: 'aviso_meta', language: { code: 'es' } },
        },
      );
      expect(templateSend.status).toBe(200);
    } finally {
      second.close();
    }
  });
});

describe("the sandbox's partner API", () => {
  const unauthorised = { status: 'error', message: 'Unauthorised access to the resource. Please review request parameters and headers and retry' };
  const post = (url: string, form: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: `/sandbox-gupshup${url}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });
  const get = (url: string, authorization: string) => t.app.inject({ method: 'GET', url: `/sandbox-gupshup${url}`, headers: { authorization } });

  it('signs in only the platform’s partner account, and an app’s token serves that app alone', async () => {
    const [a, b] = [await registerTenant(t.app), await registerTenant(t.app)];
    const [appA, appB] = [sandboxAppName(a.tenant), sandboxAppName(b.tenant)];
    const wrong = await post('/partner/account/login', { email: 'sandbox@embudo.local', password: 'sandbox' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unauthorised);
    expect((await post('/partner/account/login', { email: 'cualquiera@ejemplo.com', password: 'x' })).statusCode).toBe(401);

    const login = await post('/partner/account/login', { ...sandboxPartnerCredentials(TEST_APP_SECRET) });
    expect(login.statusCode).toBe(200);
    const appToken = await get(`/partner/app/${appA}/token`, login.json().token);
    expect(appToken.statusCode).toBe(200);
    const tokenA = appToken.json().token.token as string;
    expect((await get(`/partner/app/${appA}/templates`, tokenA)).statusCode).toBe(200);
    const other = await get(`/partner/app/${appB}/templates`, tokenA);
    expect(other.statusCode).toBe(401);
    expect(other.json()).toEqual(unauthorised);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/sandbox-gupshup/partner/app/${appB}/template/cualquiera`,
      headers: { authorization: tokenA },
    });
    expect(deleted.statusCode).toBe(401);
  });

  it("refuses a partner account the token of another account's app", async () => {
    const apps: FakeApp[] = ['app-alfa', 'app-beta'].map((appName) => ({ appName, sourceNumber: '15550001000', callbackUrl, apiKey: `clave-${appName}` }));
    const fake = new FakeGupshup({
      apps: () => apps,
      publicUrl: () => 'http://fake',
      partners: () => [
        { email: 'alfa@ejemplo.com', password: 'clave-alfa', apps: ['app-alfa'] },
        { email: 'beta@ejemplo.com', password: 'clave-beta', apps: ['app-beta'] },
      ],
    });
    expect((await fake.partnerLogin({}, { email: 'alfa@ejemplo.com', password: 'clave-beta' })).status).toBe(401);
    const login = await fake.partnerLogin({}, { email: 'alfa@ejemplo.com', password: 'clave-alfa' });
    const token = (login.body as { token: string }).token;
    expect((await fake.partnerAppToken('app-alfa', { authorization: token })).status).toBe(200);
    const refused = await fake.partnerAppToken('app-beta', { authorization: token });
    expect(refused).toEqual({ status: 401, body: unauthorised });
    fake.close();
  });
});
