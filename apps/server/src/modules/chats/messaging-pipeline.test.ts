import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { cards, contacts, jobs, messages, tenants } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { untilWithJobs } from '../../../test/support/polling.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { connectClient, joinTenant, listenOnRandomPort, nextEvent, type TestSocket } from '../../../test/support/realtime-client.ts';
import { sandboxAppName } from '../tenants/index.ts';
import { INTERRUPTED_SEND, MEDIA_NOT_DOWNLOADED } from './chats.jobs.ts';
import { statementsOfSends } from '../../../test/support/send-cost.ts';

let t: TestApp;
let baseUrl: string;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
  baseUrl = await listenOnRandomPort(t.app);
});
afterAll(async () => {
  sockets.forEach((socket) => socket.disconnect());
  await t.close();
});

type Owner = Awaited<ReturnType<typeof registerTenant>>;
const fake = () => t.app.sandboxPhone!;

const until = <T>(probe: () => Promise<T | undefined | false>, timeoutMs?: number) => untilWithJobs(t, probe, timeoutMs);

async function settings(owner: Owner) {
  return (await t.app.inject({ method: 'GET', url: `/t/${owner.tenant.slug}/api/gupshup/settings`, headers: bearer(owner.token) })).json();
}

const messagesOf = (tenantId: string) => t.database.db.select().from(messages).where(eq(messages.tenantId, tenantId));

async function customerWrites(owner: Owner, text: string, phone = '5215512345678') {
  await fake().customerSends({ appName: sandboxAppName(owner.tenant), phone, name: 'Cliente Uno', kind: 'text', text });
  const [card] = await t.database.db
    .select()
    .from(cards)
    .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, phone)));
  return card!;
}

describe('provider settings', () => {
  it('answers the sandbox defaults with the webhook URL, saves valid settings and refuses bad ones', async () => {
    const owner = await registerTenant(t.app);
    const initial = await settings(owner);
    expect(initial).toMatchObject({ appName: sandboxAppName(owner.tenant), sandbox: true });
    expect(initial.webhookUrl).toMatch(new RegExp(`/webhooks/gupshup/${owner.tenant.id}/[A-Za-z0-9_-]{20,}$`));
    const put = (payload: unknown) =>
      t.app.inject({ method: 'PUT', url: `/t/${owner.tenant.slug}/api/gupshup/settings`, headers: bearer(owner.token), payload: payload as object });
    expect((await put({ appName: '', sourceNumber: '5215500000000' })).json().message).toBe('El nombre de la app es requerido.');
    expect((await put({ appName: 'MiApp' })).json().message).toBe('El número de origen es requerido.');
    expect((await put({ appName: 'MiApp', sourceNumber: '+52 155' })).statusCode).toBe(400);
    const saved = await put({ appName: 'MiApp', sourceNumber: '5215500000000' });
    expect(saved.json()).toMatchObject({ appName: 'MiApp', sourceNumber: '5215500000000', webhookUrl: initial.webhookUrl });
  });

  it("refuses another company's app, saved or sandbox default, and writes nothing", async () => {
    const first = await registerTenant(t.app);
    const second = await registerTenant(t.app);
    const put = (owner: Owner, appName: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/t/${owner.tenant.slug}/api/gupshup/settings`,
        headers: bearer(owner.token),
        payload: { appName, sourceNumber: '5215500000009' },
      });
    const appName = `Tienda-${first.tenant.slug}`;
    expect((await put(first, appName)).statusCode).toBe(200);
    for (const taken of [appName, appName.toUpperCase(), sandboxAppName(first.tenant)]) {
      const refused = await put(second, taken);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe('Esa app de Gupshup ya está conectada a otra empresa.');
    }
    expect((await settings(second)).appName).toBe(sandboxAppName(second.tenant));
    // Saving one's own app again, or one's own sandbox name, is fine.
    expect((await put(first, appName)).statusCode).toBe(200);
    expect((await put(second, sandboxAppName(second.tenant))).statusCode).toBe(200);
  });
});

describe('inbound webhook', () => {
  it('refuses a wrong secret with 401 and stores nothing', async () => {
    const owner = await registerTenant(t.app);
    const response = await t.app.inject({
      method: 'POST',
      url: `/webhooks/gupshup/${owner.tenant.id}/wrong-secret`,
      payload: {
        app: 'x',
        timestamp: Date.now(),
        version: 2,
        type: 'message',
        payload: { id: 'wamid.X', source: '521', type: 'text', payload: { text: 'hola' }, sender: { phone: '521' } },
      },
    });
    expect(response.statusCode).toBe(401);
    expect(await messagesOf(owner.tenant.id)).toHaveLength(0);
  });

  it('a customer message from the sandbox phone creates contact, card in the first column, message and realtime events', async () => {
    const owner = await registerTenant(t.app);
    const socket = connectClient(baseUrl, owner.token, owner.tenant.slug);
    sockets.push(socket);
    await joinTenant(socket, owner.tenant.slug, owner.token);
    const newMessage = nextEvent(socket, 'message:new');
    const cardUpdated = nextEvent(socket, 'card_updated');

    const card = await customerWrites(owner, 'Hola, ¿tienen envíos?');
    expect(card).toMatchObject({ title: 'Cliente Uno', unreadCount: 1, lastMessageType: 'text', lastMessageText: 'Hola, ¿tienen envíos?', isGroup: false });
    expect(card.contactLastMessageAt).toBeTruthy();
    expect((await newMessage).message).toMatchObject({ sender: 'contact', text: 'Hola, ¿tienen envíos?', type: 'text' });
    expect(await cardUpdated).toMatchObject({ id: card.id, unreadCount: 1 });

    const usage = (await t.app.inject({ method: 'GET', url: `/t/${owner.tenant.slug}/api/usage`, headers: bearer(owner.token) })).json();
    expect(usage).toMatchObject({ receivedCount: 1, sentCount: 0, totalCost: 0 });
  });

  it('queues reactions to a customer message only where something reacts: none on a plain chat, the assistant once it is on', async () => {
    const owner = await registerTenant(t.app);
    const reactionsTo = async (text: string) => {
      const [message] = await t.database.db
        .select()
        .from(messages)
        .where(and(eq(messages.tenantId, owner.tenant.id), eq(messages.text, text)));
      const queued = await t.database.db
        .select({ name: jobs.name })
        .from(jobs)
        .where(sql`${jobs.name} like 'event.%' and ${jobs.payload}->'payload'->>'messageId' = ${message!.id}`);
      return queued.map((job) => job.name);
    };
    const card = await customerWrites(owner, 'Hola, ¿tienen envíos?');
    expect(await reactionsTo('Hola, ¿tienen envíos?')).toEqual([]);

    await t.database.db.update(tenants).set({ subscriptionPlan: 'enterprise' }).where(eq(tenants.id, owner.tenant.id));
    const switched = await t.app.inject({
      method: 'PUT',
      url: `/t/${owner.tenant.slug}/api/cards/${card.id}/toggle-ai`,
      headers: bearer(owner.token),
      payload: { enabled: true },
    });
    expect(switched.json()).toMatchObject({ aiEnabled: true });
    await customerWrites(owner, '¿Y a domicilio?');
    expect(await reactionsTo('¿Y a domicilio?')).toEqual(['event.ai.assistant-on-customer-message']);
  });

  it('stores a message once however often the webhook is delivered', async () => {
    const owner = await registerTenant(t.app);
    const { webhookUrl } = await settings(owner);
    const body = {
      app: 'x',
      timestamp: Date.now(),
      version: 2,
      type: 'message',
      payload: { id: 'wamid.DUP', source: '5215511111111', type: 'text', payload: { text: 'una vez' }, sender: { phone: '5215511111111', name: 'Dup' } },
    };
    for (let i = 0; i < 3; i++) {
      expect((await t.app.inject({ method: 'POST', url: new URL(webhookUrl).pathname, payload: body })).statusCode).toBe(200);
    }
    expect(await messagesOf(owner.tenant.id)).toHaveLength(1);
    const [card] = await t.database.db.select().from(cards).where(eq(cards.tenantId, owner.tenant.id));
    expect(card!.unreadCount).toBe(1);
  });

  it('announces each stored message as the chat then reads it, and stores once a message delivered twice in one batch', async () => {
    const owner = await registerTenant(t.app);
    const socket = connectClient(baseUrl, owner.token, owner.tenant.slug);
    sockets.push(socket);
    await joinTenant(socket, owner.tenant.slug, owner.token);
    const announced: Array<{ cardId: string; message: { id: string } }> = [];
    socket.on('message:new', (event: { cardId: string; message: { id: string } }) => announced.push(event));
    const path = new URL((await settings(owner)).webhookUrl).pathname;
    const delivery = (id: string, payload: Record<string, unknown>, timestamp = Date.now()) => ({
      app: 'x',
      timestamp,
      version: 2,
      type: 'message',
      payload: { id, source: '5215544444444', sender: { phone: '5215544444444', name: 'Dos Veces' }, ...payload },
    });
    const location = delivery('wamid.LOC', { type: 'location', payload: { latitude: '19.43', longitude: '-99.13', name: 'Zócalo' } });
    // The same message twice with different bodies (a provider's redelivery), and a text, arriving together.
    await Promise.all(
      [
        location,
        delivery('wamid.TWICE', { type: 'text', payload: { text: 'dos veces' } }),
        delivery('wamid.TWICE', { type: 'text', payload: { text: 'dos veces' } }, Date.now() + 1),
      ].map((body) => t.app.inject({ method: 'POST', url: path, payload: body })),
    );
    const stored = await messagesOf(owner.tenant.id);
    expect(stored.map((message) => message.providerMessageId).sort()).toEqual(['wamid.LOC', 'wamid.TWICE']);
    await until(async () => announced.length >= 2);
    const cardId = stored[0]!.cardId;
    const timeline = (await t.app.inject({ method: 'GET', url: `/t/${owner.tenant.slug}/api/cards/${cardId}/messages`, headers: bearer(owner.token) })).json();
    expect(announced.map((event) => event.cardId)).toEqual([cardId, cardId]);
    // The timeline tells its items' kind beside the message's own fields.
    for (const event of announced)
      expect({ kind: 'message', ...event.message }).toEqual(timeline.messages.find((message: { id: string }) => message.id === event.message.id));
    expect(announced.find((event) => event.message.id === stored.find((message) => message.type === 'location')!.id)!.message).toMatchObject({
      type: 'location',
      payload: { location: { latitude: 19.43, longitude: -99.13, name: 'Zócalo' } },
    });
    const [card] = await t.database.db.select().from(cards).where(eq(cards.tenantId, owner.tenant.id));
    expect(card!.unreadCount).toBe(2);
  });

  it('never shows a message to another tenant: the same provider id in two tenants stays two messages', async () => {
    const a = await registerTenant(t.app);
    const b = await registerTenant(t.app);
    const body = {
      app: 'x',
      timestamp: Date.now(),
      version: 2,
      type: 'message',
      payload: { id: 'wamid.SAME', source: '5215522222222', type: 'text', payload: { text: 'hola' }, sender: { phone: '5215522222222' } },
    };
    for (const owner of [a, b]) await t.app.inject({ method: 'POST', url: new URL((await settings(owner)).webhookUrl).pathname, payload: body });
    expect(await messagesOf(a.tenant.id)).toHaveLength(1);
    expect(await messagesOf(b.tenant.id)).toHaveLength(1);
    const secretOfA = new URL((await settings(a)).webhookUrl).pathname.split('/').pop();
    const crossed = await t.app.inject({ method: 'POST', url: `/webhooks/gupshup/${b.tenant.id}/${secretOfA}`, payload: body });
    expect(crossed.statusCode).toBe(401);
  });

  it('marks groups with isGroup and the participant name', async () => {
    const owner = await registerTenant(t.app);
    await fake().customerSends({
      appName: sandboxAppName(owner.tenant),
      phone: '5215533333333',
      name: 'Tía Rosa',
      group: { id: '120363999', name: 'Familia' },
      kind: 'text',
      text: 'Hola a todos',
    });
    const [card] = await t.database.db.select().from(cards).where(eq(cards.tenantId, owner.tenant.id));
    expect(card).toMatchObject({ isGroup: true, title: 'Familia', phone: '120363999' });
    const [message] = await messagesOf(owner.tenant.id);
    expect(message).toMatchObject({ participantName: 'Tía Rosa', text: 'Hola a todos' });
  });

  it('keeps unknown types as Unsupported media and downloads media into our storage', async () => {
    const owner = await registerTenant(t.app);
    const appName = sandboxAppName(owner.tenant);
    await fake().customerSends({ appName, phone: '5215544444444', kind: 'unknown_type', data: { emoji: '👍' } });
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    await fake().customerSends({
      appName,
      phone: '5215544444444',
      kind: 'image',
      url: await fake().storeFile(png, 'image/png'),
      contentType: 'image/png',
      caption: 'mira',
    });
    await fake().customerSends({
      appName,
      phone: '5215544444444',
      kind: 'file',
      url: `${baseUrl}/sandbox-gupshup/files/no-existe`,
      contentType: 'application/pdf',
      fileName: 'x.pdf',
    });
    const rows = await messagesOf(owner.tenant.id);
    expect(rows.find((row) => row.type === 'unsupported')?.text).toBe('Unsupported media');
    const image = await until(async () => (await messagesOf(owner.tenant.id)).find((row) => row.type === 'image' && row.mediaUrl));
    expect(image.mediaUrl).toMatch(new RegExp(`^/media/${owner.tenant.id}/[0-9a-f-]{36}\\.png$`));
    const served = await t.app.inject({ method: 'GET', url: image.mediaUrl! });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(png)).toBe(true);
    const failingDownload = and(eq(jobs.name, 'chats.download-media'), sql`${jobs.payload}->>'url' like '%no-existe'`);
    await until(async () => {
      // Skip the retry backoff: make the next attempt due now.
      await t.database.db
        .update(jobs)
        .set({ runAt: new Date(Date.now() - 1000) })
        .where(and(failingDownload, eq(jobs.status, 'pending')));
      const [job] = await t.database.db.select().from(jobs).where(failingDownload);
      return job?.status === 'completed' || job?.status === 'failed' ? job : undefined;
    });
    const document = (await messagesOf(owner.tenant.id)).find((row) => row.type === 'document');
    expect(document).toMatchObject({ mediaUrl: null, errorReason: MEDIA_NOT_DOWNLOADED });
  });
});

describe('outbound messages', () => {
  const send = (owner: Owner, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `/t/${owner.tenant.slug}/api/message`, headers: bearer(owner.token), payload });

  it('stores the message at ack 0, sends it once through the queue, and follows the ticks to read', async () => {
    const owner = await registerTenant(t.app);
    const card = await customerWrites(owner, 'Hola');
    const response = await send(owner, { cardId: card.id, text: 'Claro, enviamos a todo el país', tempId: 'tmp-1' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ ack: 0, tempId: 'tmp-1', sender: 'user', text: 'Claro, enviamos a todo el país' });
    const sent = await until(async () => {
      const [row] = await t.database.db.select().from(messages).where(eq(messages.id, response.json().id));
      return row?.ack === 3 ? row : undefined;
    });
    expect(sent.providerMessageId).toBeTruthy();
    const onPhone = (await fake().conversation(sandboxAppName(owner.tenant), card.phone)).filter((m) => m.direction === 'to_customer');
    expect(onPhone).toHaveLength(1);
    expect(onPhone[0]!.body).toMatchObject({ type: 'text', text: 'Claro, enviamos a todo el país' });
    const usage = (await t.app.inject({ method: 'GET', url: `/t/${owner.tenant.slug}/api/usage`, headers: bearer(owner.token) })).json();
    expect(usage.sentCount).toBe(1);
  });

  it('refuses text when the 24-hour window is closed and writes nothing', async () => {
    const owner = await registerTenant(t.app);
    const card = await customerWrites(owner, 'Hola');
    await t.database.db
      .update(cards)
      .set({ contactLastMessageAt: new Date(Date.now() - 25 * 3600 * 1000) })
      .where(eq(cards.id, card.id));
    const response = await send(owner, { cardId: card.id, text: 'Tarde' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('La ventana de 24 horas está cerrada. Envía una plantilla para reiniciar la conversación.');
    expect((await messagesOf(owner.tenant.id)).filter((m) => m.sender === 'user')).toHaveLength(0);
  });

  it('retries after a provider 5xx and sends exactly one message', async () => {
    const owner = await registerTenant(t.app);
    const card = await customerWrites(owner, 'Hola');
    fake().failNextSends({ status: 503 });
    const { id } = (await send(owner, { cardId: card.id, text: 'Reintento' })).json();
    await t.app.queue.runDueJobsOnce();
    await t.database.db
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(sql`${jobs.payload}->>'messageId' = ${id}`);
    await until(async () => (await t.database.db.select().from(messages).where(eq(messages.id, id)))[0]?.providerMessageId);
    const toCustomer = (await fake().conversation(sandboxAppName(owner.tenant), card.phone)).filter((m) => m.direction === 'to_customer');
    expect(toCustomer).toHaveLength(1);
  });

  it('never resends after an attempt that crashed between the provider answer and our write', async () => {
    const owner = await registerTenant(t.app);
    const card = await customerWrites(owner, 'Hola');
    const { id } = (await send(owner, { cardId: card.id, text: 'Incierto' })).json();
    // What a crash after the provider accepted leaves behind: the claim without the provider id.
    await t.database.db.update(messages).set({ dispatchStartedAt: new Date() }).where(eq(messages.id, id));
    const before = fake().requests.length;
    // The send runs with whatever else the message set off (e.g. the AI's team-reply listener).
    await t.app.queue.drain();
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, id));
    expect(row).toMatchObject({ ack: -1, errorReason: INTERRUPTED_SEND });
    expect(fake().requests.length).toBe(before);
  });

  it('sends the messages due together as one batch, each with the outcome it would have alone', async () => {
    const owner = await registerTenant(t.app);
    const ids: string[] = [];
    for (const phone of ['5215512300001', '5215512300002', '5215512300003', '5215512300004']) {
      const card = await customerWrites(owner, 'Hola', phone);
      ids.push((await send(owner, { cardId: card.id, text: `Para ${phone}` })).json().id);
    }
    const [, , , crashed] = ids;
    // The fourth was claimed by an attempt that never recorded the provider's answer.
    await t.database.db.update(messages).set({ dispatchStartedAt: new Date() }).where(eq(messages.id, crashed!));
    // Of the three the batch sends at once, one meets an outage and one a refusal, whichever arrives first.
    fake().failNextSends({ status: 503 }, { status: 400, body: { status: 'error', message: 'Invalid Destination' } });
    const requestsBefore = fake().requests.length;
    await statementsOfSends(t, 4);

    expect(fake().requests.length - requestsBefore).toBe(3);
    const rows = await t.database.db.select().from(messages).where(inArray(messages.id, ids));
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(crashed!)).toMatchObject({ ack: -1, errorReason: INTERRUPTED_SEND });
    const others = ids.slice(0, 3).map((id) => byId.get(id)!);
    const accepted = others.filter((row) => row.providerMessageId);
    const refused = others.filter((row) => row.ack === -1);
    const retrying = others.filter((row) => !row.providerMessageId && row.ack === 0);
    expect([accepted.length, refused.length, retrying.length]).toEqual([1, 1, 1]);
    expect(refused[0]).toMatchObject({ dispatchStartedAt: null, errorReason: expect.any(String) });
    // The outage handed its claim back and waits for its retry, its attempt counted.
    expect(retrying[0]!.dispatchStartedAt).toBeNull();
    const [retryJob] = await t.database.db
      .select()
      .from(jobs)
      .where(sql`${jobs.payload}->>'messageId' = ${retrying[0]!.id}`);
    expect(retryJob).toMatchObject({ status: 'pending', attempts: 1 });

    await t.database.db
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(eq(jobs.id, retryJob!.id));
    await until(async () => (await t.database.db.select().from(messages).where(eq(messages.id, retrying[0]!.id)))[0]?.providerMessageId);
    const usage = (await t.app.inject({ method: 'GET', url: `/t/${owner.tenant.slug}/api/usage`, headers: bearer(owner.token) })).json();
    expect(usage.sentCount).toBe(2);
  });

  it('keeps ack at read when statuses arrive out of order', async () => {
    const owner = await registerTenant(t.app);
    const card = await customerWrites(owner, 'Hola');
    const [row] = await t.database.db
      .insert(messages)
      .values({ tenantId: owner.tenant.id, cardId: card.id, sender: 'user', type: 'text', text: 'x', providerMessageId: 'gs-ooo', ack: 0 })
      .returning();
    const path = new URL((await settings(owner)).webhookUrl).pathname;
    const event = (type: string) => ({
      app: 'x',
      timestamp: Date.now(),
      version: 2,
      type: 'message-event',
      payload: { id: 'wamid.ooo', gsId: 'gs-ooo', type, destination: card.phone, payload: { ts: 1 } },
    });
    for (const status of ['read', 'delivered', 'sent']) await t.app.inject({ method: 'POST', url: path, payload: event(status) });
    await t.app.inject({
      method: 'POST',
      url: path,
      payload: { ...event('failed'), payload: { id: 'gs-ooo', type: 'failed', payload: { code: 1002, reason: 'x' } } },
    });
    const [after] = await t.database.db.select().from(messages).where(eq(messages.id, row!.id));
    expect(after!.ack).toBe(3);
  });

  it("answers 404 for another tenant's card and 403 for a viewer", async () => {
    const a = await registerTenant(t.app);
    const b = await registerTenant(t.app);
    const cardOfB = await customerWrites(b, 'Hola B', '5215566666666');
    const crossed = await send(a, { cardId: cardOfB.id, text: 'intruso' });
    expect(crossed.statusCode).toBe(404);
    await t.database.db.update(tenants).set({ subscriptionPlan: 'enterprise' }).where(eq(tenants.id, b.tenant.id));
    const invited = await t.app.inject({
      method: 'POST',
      url: `/t/${b.tenant.slug}/api/users/invite`,
      headers: bearer(b.token),
      payload: { name: 'Ver', email: 'ver@b.test', role: 'viewer', funnelIds: [cardOfB.funnelId] },
    });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'ver@b.test', password: invited.json().tempPassword, tenantSlug: b.tenant.slug },
    });
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/change-password',
      headers: bearer(login.json().token),
      payload: { newPassword: 'Viewer1234' },
    });
    const viewer = { ...b, token: changed.json().token as string };
    const refused = await send(viewer, { cardId: cardOfB.id, text: 'no puedo' });
    expect(refused.statusCode).toBe(403);
    const timeline = await t.app.inject({ method: 'GET', url: `/t/${b.tenant.slug}/api/cards/${cardOfB.id}/messages`, headers: bearer(viewer.token) });
    expect(timeline.statusCode).toBe(200);
    expect(timeline.json().messages.map((m: { text: string }) => m.text)).toEqual(['Hola B']);
    expect(await t.database.db.select().from(contacts).where(eq(contacts.tenantId, a.tenant.id))).toHaveLength(0);
  });
});
