import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { cards, funnels, messages, sandboxPhoneMessages, sandboxPhoneUploads } from '../../../db/schema/index.ts';
import { buildApp, type App } from '../../app.ts';
import { createLogger } from '../../platform/logger/logger.ts';
import { buildTestApp, TEST_APP_SECRET, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { signedInMember } from '../../../test/support/members.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { until as pollUntil } from '../../../test/support/templates.ts';
import { sandboxApiKey, sandboxAppName } from '../../modules/tenants/index.ts';
import { SANDBOX_PHONE_NOT_FOR_VIEWERS } from '../../platform/policy/policy.ts';
import { createDatabaseConversationStore, createMemoryConversationStore, type FakeConversationMessage } from './conversation-store.ts';
import { FakeGupshup } from './fake-gupshup.ts';

let t: TestApp;
/** The app the tests talk to; the restart test replaces it with a new one on the same database. */
let app: App;

beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
  app = t.app;
  await listenOnRandomPort(app);
});
afterAll(async () => {
  if (app !== t.app) await app.close();
  await t.close();
});

type Owner = Awaited<ReturnType<typeof registerTenant>>;

/** Waits for the probe, running the job queue meanwhile (sends, media downloads). */
const until = <T>(probe: () => Promise<T | undefined | null | false>) =>
  pollUntil(async () => {
    await app.queue.runDueJobsOnce();
    return (await probe()) || undefined;
  }, 8000);

const phoneSend = (token: string | undefined, payload: object) =>
  app.inject({ method: 'POST', url: '/sandbox/api/send', headers: token ? bearer(token) : {}, payload });
const phoneConversation = async (token: string, phone: string, extra = '') => {
  const response = await app.inject({ method: 'GET', url: `/sandbox/api/conversation?phone=${phone}${extra}`, headers: bearer(token) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().messages as FakeConversationMessage[];
};
const cardOf = async (tenantId: string, phone: string) =>
  (
    await t.database.db
      .select()
      .from(cards)
      .where(and(eq(cards.tenantId, tenantId), eq(cards.phone, phone)))
  )[0];

async function customerWrites(owner: Owner, phone: string, text: string) {
  expect((await phoneSend(owner.token, { phone, name: 'Cliente', message: { kind: 'text', text } })).statusCode).toBe(201);
  return until(() => cardOf(owner.tenant.id, phone));
}

describe('sandbox phone access', () => {
  it('answers 401 with a clear message without a session, and writes nothing', async () => {
    const owner = await registerTenant(app);
    for (const request of [
      { method: 'GET' as const, url: '/sandbox/api/app' },
      { method: 'GET' as const, url: '/sandbox/api/conversation?phone=5215500000001' },
      { method: 'POST' as const, url: '/sandbox/api/send', payload: { phone: '5215500000001', message: { kind: 'text', text: 'Hola' } } },
    ]) {
      for (const headers of [{}, bearer('no-es-un-token')]) {
        const response = await app.inject({ ...request, headers });
        expect(response.statusCode, request.url).toBe(401);
        expect(response.json().message).toBe('Sesión inválida o expirada.');
      }
    }
    expect(await cardOf(owner.tenant.id, '5215500000001')).toBeUndefined();
  });

  it("shows and writes only the signed-in member's company, whatever app the request names", async () => {
    const a = await registerTenant(app, { companyName: 'Ferretería Alfa' });
    const b = await registerTenant(app, { companyName: 'Ferretería Beta' });
    const company = await app.inject({ method: 'GET', url: '/sandbox/api/app', headers: bearer(a.token) });
    expect(company.json()).toEqual({ provider: 'gupshup', appName: sandboxAppName(a.tenant), sourceNumber: '15550001000', label: 'Ferretería Alfa' });

    const phone = '5215500000002';
    await customerWrites(b, phone, 'Secreto de Beta');
    // A names B's app: the request is still A's company.
    expect((await phoneSend(a.token, { appName: sandboxAppName(b.tenant), phone, message: { kind: 'text', text: 'De Alfa' } })).statusCode).toBe(201);
    await until(() => cardOf(a.tenant.id, phone));
    const seenByA = await phoneConversation(a.token, phone, `&appName=${sandboxAppName(b.tenant)}`);
    expect(seenByA.map((message) => message.body.text)).toEqual(['De Alfa']);
    expect((await phoneConversation(b.token, phone)).map((message) => message.body.text)).toEqual(['Secreto de Beta']);
    const bMessages = await t.database.db.select().from(messages).where(eq(messages.tenantId, b.tenant.id));
    expect(bMessages.map((message) => message.text)).toEqual(['Secreto de Beta']);
  });

  it('lets owners, admins and agents play customers, agents only those whose chat they see; viewers get 403', async () => {
    const owner = await registerTenant(app);
    const db = t.database.db;
    const [first] = await db.select().from(funnels).where(eq(funnels.tenantId, owner.tenant.id)).orderBy(asc(funnels.position));
    const [other] = await db.insert(funnels).values({ tenantId: owner.tenant.id, name: 'Otro', position: 1 }).returning();
    const admin = await signedInMember(app, db, owner.tenant, 'admin');
    const agent = await signedInMember(app, db, owner.tenant, 'agent', [first!.id]);
    const agentElsewhere = await signedInMember(app, db, owner.tenant, 'agent', [other!.id]);
    const viewer = await signedInMember(app, db, owner.tenant, 'viewer', [first!.id]);
    await customerWrites(owner, '5215500000003', 'Hola');

    for (const member of [admin, agent]) {
      expect((await phoneConversation(member.token, '5215500000003')).length).toBeGreaterThan(0);
      expect((await phoneSend(member.token, { phone: '5215500000003', message: { kind: 'text', text: 'Otra vez' } })).statusCode).toBe(201);
    }
    const hidden = await app.inject({ method: 'GET', url: '/sandbox/api/conversation?phone=5215500000003', headers: bearer(agentElsewhere.token) });
    expect(hidden.statusCode).toBe(404);
    expect((await phoneSend(agentElsewhere.token, { phone: '5215500000003', message: { kind: 'text', text: 'No' } })).statusCode).toBe(404);
    // A customer with no chat yet is anyone's to play.
    expect((await phoneSend(agentElsewhere.token, { phone: '5215500000004', message: { kind: 'text', text: 'Nuevo' } })).statusCode).toBe(201);

    for (const request of [
      app.inject({ method: 'GET', url: '/sandbox/api/app', headers: bearer(viewer.token) }),
      app.inject({ method: 'GET', url: '/sandbox/api/conversation?phone=5215500000003', headers: bearer(viewer.token) }),
      phoneSend(viewer.token, { phone: '5215500000005', message: { kind: 'text', text: 'Hola' } }),
    ]) {
      const response = await request;
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe(SANDBOX_PHONE_NOT_FOR_VIEWERS);
    }
    expect(await cardOf(owner.tenant.id, '5215500000005')).toBeUndefined();
  });

  it('refuses a bad request with a clear 400', async () => {
    const owner = await registerTenant(app);
    const missing = await app.inject({ method: 'GET', url: '/sandbox/api/conversation', headers: bearer(owner.token) });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Falta el teléfono del cliente (solo dígitos, con código de país).');
    const badPhone = await phoneSend(owner.token, { phone: '+52 1', message: { kind: 'text', text: 'Hola' } });
    expect(badPhone.json().message).toBe('El teléfono debe tener solo dígitos con código de país.');
  });
});

describe("the fake's send API key", () => {
  it('refuses a key it did not issue, as Gupshup does, and the CRM sends with the issued one', async () => {
    const owner = await registerTenant(app);
    const appName = sandboxAppName(owner.tenant);
    const form = (apiKey: string) =>
      app.inject({
        method: 'POST',
        url: '/sandbox-gupshup/wa/api/v1/msg',
        headers: { apikey: apiKey, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          channel: 'whatsapp',
          source: '15550001000',
          destination: '5215500000010',
          'src.name': appName,
          message: JSON.stringify({ type: 'text', text: 'Intruso' }),
        }).toString(),
      });
    for (const wrong of [
      'sandbox',
      sandboxApiKey('otro-secreto-0123456789abcdefghijklmnop', appName),
      sandboxApiKey(TEST_APP_SECRET, 'sandbox-otra-empresa'),
    ]) {
      const refused = await form(wrong);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({ status: 'error', message: 'Authentication Failed' });
    }
    expect(await app.sandboxPhone!.conversation(appName, '5215500000010')).toEqual([]);
    expect((await form(sandboxApiKey(TEST_APP_SECRET, appName))).statusCode).toBe(200);

    const card = await customerWrites(owner, '5215500000011', 'Hola');
    const sent = await app.inject({
      method: 'POST',
      url: '/api/message',
      headers: bearer(owner.token),
      payload: { cardId: card.id, text: 'Respuesta', tempId: 't-1' },
    });
    await until(async () => (await t.database.db.select().from(messages).where(eq(messages.id, sent.json().id)))[0]?.providerMessageId);
    const request = app.sandboxPhone!.requests.filter((entry) => entry.path === '/wa/api/v1/msg' && entry.form.destination === '5215500000011').at(-1);
    expect(request?.headers.apikey).toBe(sandboxApiKey(TEST_APP_SECRET, appName));
  });
});

describe('the phone in a group and with quotes', () => {
  it("keeps the participant's name when a location is sent in a group", async () => {
    const owner = await registerTenant(app);
    const sent = await phoneSend(owner.token, {
      phone: '5215500000020',
      name: 'Marta',
      group: { id: '120363000000020', name: 'Obra Norte' },
      message: { kind: 'location', latitude: 19.43, longitude: -99.13, name: 'Bodega Central', address: 'Av. Reforma 1' },
    });
    expect(sent.statusCode).toBe(201);
    const [onPhone] = await phoneConversation(owner.token, '120363000000020');
    expect(onPhone!.participant).toEqual({ phone: '5215500000020', name: 'Marta' });
    expect(onPhone!.body).toMatchObject({ name: 'Bodega Central', address: 'Av. Reforma 1' });
    const card = await until(() => cardOf(owner.tenant.id, '120363000000020'));
    const [stored] = await t.database.db.select().from(messages).where(eq(messages.cardId, card.id));
    expect(stored!.participantName).toBe('Marta');
  });

  it("names the quoted message in an agent's reply, whether it quotes the customer or the business", async () => {
    const owner = await registerTenant(app);
    const card = await customerWrites(owner, '5215500000021', '¿Tienen taladros?');
    const [customerMessage] = await t.database.db.select().from(messages).where(eq(messages.cardId, card.id));
    const reply = async (text: string, quotedMessageId: string) => {
      const sent = await app.inject({
        method: 'POST',
        url: '/api/message',
        headers: bearer(owner.token),
        payload: { cardId: card.id, text, tempId: text, quotedMessageId },
      });
      expect(sent.statusCode, sent.body).toBe(201);
      // Quoting a business message needs its WhatsApp id, which arrives with the status events.
      return until(async () => {
        const [row] = await t.database.db.select().from(messages).where(eq(messages.id, sent.json().id));
        return row?.whatsappMessageId ? row : undefined;
      });
    };
    const first = await reply('Sí, varios modelos', customerMessage!.id);
    await reply('Este de 500 W es el más vendido', first.id);
    const onPhone = (await phoneConversation(owner.token, '5215500000021')).filter((message) => message.direction === 'to_customer');
    expect(onPhone[0]!.body.context).toEqual({ msgId: (await phoneConversation(owner.token, '5215500000021'))[0]!.id });
    expect(onPhone[1]!.body.context).toEqual({ msgId: onPhone[0]!.whatsappId });
  });
});

describe('what the fake keeps', () => {
  it('shows the same history after a restart (a new app on the same database)', async () => {
    const owner = await registerTenant(app);
    const card = await customerWrites(owner, '5215500000030', 'Antes del reinicio');
    await app.inject({
      method: 'POST',
      url: '/api/message',
      headers: bearer(owner.token),
      payload: { cardId: card.id, text: 'Respuesta antes', tempId: 'r-1' },
    });
    const before = await until(async () => {
      const list = await phoneConversation(owner.token, '5215500000030');
      return list.length === 2 && list[1]!.status === 'read' ? list : undefined;
    });

    await app.close();
    const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-restart-'));
    app = await buildApp({
      db: t.database.db,
      logger: createLogger('silent'),
      mediaDir,
      appSecret: TEST_APP_SECRET,
      providerMode: 'sandbox',
      exactResponses: true,
    });
    await listenOnRandomPort(app);
    expect(await phoneConversation(owner.token, '5215500000030')).toEqual(before);
    // The restarted fake still knows the conversation: the customer writes on and the business's read receipt finds it.
    await customerWrites(owner, '5215500000030', 'Después del reinicio');
    const after = await phoneConversation(owner.token, '5215500000030');
    expect(after.map((message) => message.body.text)).toEqual(['Antes del reinicio', 'Respuesta antes', 'Después del reinicio']);
    fs.rmSync(mediaDir, { recursive: true, force: true });
  });

  it("serves the customer's media sent before a restart, on the phone and to the CRM's download", async () => {
    const owner = await registerTenant(app);
    const phone = '5215500000032';
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const sent = await phoneSend(owner.token, {
      phone,
      name: 'Cliente',
      message: { kind: 'media', dataBase64: png.toString('base64'), fileName: 'foto.png', caption: 'antes' },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const [onPhone] = await phoneConversation(owner.token, phone);
    const fileUrl = new URL(onPhone!.body.url as string);
    expect(fileUrl.pathname).toMatch(/^\/sandbox-gupshup\/files\/[0-9a-f-]{36}$/);

    // Restarted on the same address, as a deployed server is, before the CRM's download job ran.
    await app.close();
    const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-restart-'));
    app = await buildApp({
      db: t.database.db,
      logger: createLogger('silent'),
      mediaDir,
      appSecret: TEST_APP_SECRET,
      providerMode: 'sandbox',
      exactResponses: true,
    });
    await app.listen({ port: Number(fileUrl.port), host: '127.0.0.1' });
    const served = await app.inject({ method: 'GET', url: fileUrl.pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);

    const card = await until(() => cardOf(owner.tenant.id, phone));
    const downloaded = await until(async () => (await t.database.db.select().from(messages).where(eq(messages.cardId, card.id)))[0]?.mediaUrl);
    const inCrm = await app.inject({ method: 'GET', url: downloaded });
    expect(inCrm.statusCode).toBe(200);
    expect(inCrm.rawPayload.equals(png)).toBe(true);
    fs.rmSync(mediaDir, { recursive: true, force: true });
  });

  it('keeps uploads in the database up to the byte cap, dropping the oldest first', async () => {
    const store = createDatabaseConversationStore(t.database.db, { messagesPerConversation: 3, uploadBytes: 10 });
    const upload = (id: string, size: number) => ({ id: `tope-${id}`, contentType: 'image/png', data: Buffer.alloc(size, id) });
    await store.keepUpload(upload('a', 6));
    await store.keepUpload(upload('b', 4));
    expect((await store.upload('tope-a'))?.data.equals(Buffer.alloc(6, 'a'))).toBe(true);
    await store.keepUpload(upload('c', 5));
    expect(await store.upload('tope-a')).toBeUndefined();
    expect(await store.upload('tope-b')).toMatchObject({ contentType: 'image/png', data: Buffer.alloc(4, 'b') });
    expect(await store.upload('tope-c')).toBeDefined();
    // A single upload over the cap is still kept, alone.
    await store.keepUpload(upload('d', 12));
    const left = await t.database.db.select({ uploadId: sandboxPhoneUploads.uploadId }).from(sandboxPhoneUploads);
    expect(left.map((row) => row.uploadId)).toEqual(['tope-d']);
  });

  it('writes the status moves of many messages together, each message at its latest move, and reads them back at once', async () => {
    const store = createDatabaseConversationStore(t.database.db);
    const message = (n: number): FakeConversationMessage => ({
      id: `wamid.moves.${n}`,
      direction: 'to_customer',
      type: 'text',
      body: { text: `m${n}` },
      status: 'submitted',
      createdAt: new Date().toISOString(),
    });
    for (let n = 1; n <= 3; n++) await store.append('moves-app', '5215500000050', message(n));
    const { result: statusOf, statements } = await t.database.gate.countStatements(async () => {
      await Promise.all([
        store.setStatus('wamid.moves.1', 'sent'),
        store.setStatus('wamid.moves.1', 'delivered'),
        store.setStatus('wamid.moves.2', 'read'),
        store.setStatus('wamid.moves.3', 'failed'),
      ]);
      return new Map((await store.list('moves-app', '5215500000050')).map((entry) => [entry.id, entry.status]));
    });
    expect([...statusOf.values()]).toEqual(['delivered', 'read', 'failed']);
    // One write for the four moves, one read.
    expect(statements).toBe(2);
    // A move waiting to be written is read back as made.
    void store.setStatus('wamid.moves.3', 'read');
    expect((await store.list('moves-app', '5215500000050')).map((entry) => entry.status)).toEqual(['delivered', 'read', 'read']);
  });

  it('keeps only the newest messages of a conversation in the database', async () => {
    const store = createDatabaseConversationStore(t.database.db, { messagesPerConversation: 3, uploadBytes: 1024 });
    const message = (n: number): FakeConversationMessage => ({
      id: `wamid.tope.${n}`,
      direction: 'from_customer',
      type: 'text',
      body: { text: `m${n}` },
      status: 'sent',
      createdAt: new Date().toISOString(),
    });
    for (let n = 1; n <= 5; n++) await store.append('tope-app', '5215500000040', message(n));
    await store.append('tope-app', '5215500000041', message(6));
    expect((await store.list('tope-app', '5215500000040')).map((entry) => entry.body.text)).toEqual(['m3', 'm4', 'm5']);
    expect((await store.list('tope-app', '5215500000041')).map((entry) => entry.body.text)).toEqual(['m6']);
    const rows = await t.database.db.select().from(sandboxPhoneMessages).where(eq(sandboxPhoneMessages.appName, 'tope-app'));
    expect(rows).toHaveLength(4);
  });

  it('bounds memory: messages per conversation, conversations and upload bytes, oldest dropped first', async () => {
    const store = createMemoryConversationStore({ messagesPerConversation: 2, conversations: 2, uploadBytes: 10 });
    const message = (n: number): FakeConversationMessage => ({
      id: `m${n}`,
      direction: 'from_customer',
      type: 'text',
      body: { text: `m${n}` },
      status: 'sent',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    for (let n = 1; n <= 3; n++) await store.append('app', 'uno', message(n));
    await store.append('app', 'dos', message(4));
    expect((await store.list('app', 'uno')).map((entry) => entry.id)).toEqual(['m2', 'm3']);
    await store.append('app', 'tres', message(5));
    expect(await store.list('app', 'uno')).toEqual([]);
    expect((await store.list('app', 'dos')).map((entry) => entry.id)).toEqual(['m4']);

    const fake = new FakeGupshup({ apps: () => [], publicUrl: () => 'http://fake', store });
    const idOf = (url: string) => url.split('/').at(-1)!;
    const first = idOf(await fake.storeFile(Buffer.alloc(6), 'image/png'));
    const second = idOf(await fake.storeFile(Buffer.alloc(4), 'image/png'));
    expect(await fake.file(first)).toBeDefined();
    const third = idOf(await fake.storeFile(Buffer.alloc(5), 'image/png'));
    expect(await fake.file(first)).toBeUndefined();
    expect(await fake.file(second)).toBeDefined();
    expect(await fake.file(third)).toBeDefined();
  });
});
