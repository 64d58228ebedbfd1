import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { cards, jobs, messages } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { untilWithJobs } from '../../../test/support/polling.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { startFakeGupshupServer } from '../../../test/fakes/fake-gupshup-server.ts';
import { bootstrapPlatformAdmin } from '../admin/index.ts';
import { MEDIA_NOT_DOWNLOADED } from './chats.jobs.ts';
import { NO_PLATFORM_API_KEY } from '../../messaging-providers/gupshup/gupshup.provider.ts';
import { startFakeWebhookServer } from '../../../test/fakes/fake-webhook-server.ts';
import { deliverInboundFile } from '../../../test/support/inbound-media.ts';

// Live mode: the real Gupshup adapter talks to the fake as a separate server, as it would to api.gupshup.io.
let t: TestApp;
let gupshup: Awaited<ReturnType<typeof startFakeGupshupServer>>;
let adminToken: string;
let baseUrl = '';
/** Requests that reached the app's own HTTP server (inject() does not go through it). */
const ownRequests: string[] = [];
const ADMIN = { email: 'operador@embudo.test', password: 'Operador123' };

beforeAll(async () => {
  gupshup = await startFakeGupshupServer();
  t = await buildTestApp({ providerMode: 'live', gupshupApiUrl: gupshup.url, gupshupPartnerUrl: gupshup.url });
  baseUrl = await listenOnRandomPort(t.app);
  t.app.server.on('request', (request: { url?: string }) => ownRequests.push(request.url ?? ''));
  await bootstrapPlatformAdmin(t.database.db, ADMIN);
  adminToken = (await t.app.inject({ method: 'POST', url: '/api/auth/admin/login', payload: ADMIN })).json().token;
});
afterAll(async () => {
  await t.close();
  await gupshup.close();
});

const until = <T>(probe: () => Promise<T | undefined | false>, timeoutMs?: number) => untilWithJobs(t, probe, timeoutMs);

const messageRow = async (id: string) => (await t.database.db.select().from(messages).where(eq(messages.id, id)))[0];
const sendsToGupshup = () => gupshup.fake.requests.filter((request) => request.path.endsWith('/msg'));

describe('live provider credentials', () => {
  it("sends with the operator's Gupshup API key, and fails clearly without one", async () => {
    const owner = await registerTenant(t.app);
    const provider = { appName: `live-${owner.tenant.slug}`, sourceNumber: '5215500000001' };
    const saved = await t.app.inject({ method: 'PUT', url: `/t/${owner.tenant.slug}/api/gupshup/settings`, headers: bearer(owner.token), payload: provider });
    expect(saved.statusCode).toBe(200);
    gupshup.apps.push({ ...provider, callbackUrl: saved.json().webhookUrl, apiKey: 'live-key-123' });

    await gupshup.fake.customerSends({ appName: provider.appName, phone: '5215512349999', name: 'Cliente Live', kind: 'text', text: 'Hola' });
    const card = await until(
      async () =>
        (
          await t.database.db
            .select()
            .from(cards)
            .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, '5215512349999')))
        )[0],
    );

    const send = (text: string) =>
      t.app.inject({ method: 'POST', url: `/t/${owner.tenant.slug}/api/message`, headers: bearer(owner.token), payload: { cardId: card.id, text } });

    const withoutKey = (await send('Sin clave')).json();
    const failed = await until(async () => {
      const row = await messageRow(withoutKey.id);
      return row?.ack === -1 ? row : undefined;
    });
    expect(failed.errorReason).toBe(NO_PLATFORM_API_KEY);
    expect(sendsToGupshup()).toHaveLength(0);

    const stored = await t.app.inject({ method: 'PUT', url: '/api/admin/settings/gupshup', headers: bearer(adminToken), payload: { apiKey: 'live-key-123' } });
    expect(stored.statusCode).toBe(200);

    const withKey = (await send('Con clave')).json();
    await until(async () => (await messageRow(withKey.id))?.providerMessageId);
    expect(sendsToGupshup()).toHaveLength(1);
    expect(sendsToGupshup()[0]!.headers.apikey).toBe('live-key-123');
    expect(sendsToGupshup()[0]!.form['src.name']).toBe(provider.appName);
  });
});

describe('live read receipts', () => {
  it("need the operator's partner credentials: without them nothing is retried, with them the receipt reaches Gupshup for the tenant's app", async () => {
    const owner = await registerTenant(t.app);
    const provider = { appName: `leido-${owner.tenant.slug}`, sourceNumber: '5215500000002' };
    const saved = await t.app.inject({ method: 'PUT', url: `/t/${owner.tenant.slug}/api/gupshup/settings`, headers: bearer(owner.token), payload: provider });
    gupshup.apps.push({ ...provider, callbackUrl: saved.json().webhookUrl, apiKey: 'live-key-123' });
    const receiptsOf = () => gupshup.fake.requests.filter((request) => request.path === `/partner/app/${provider.appName}/v3/message`);
    const receiptJob = async () =>
      (
        await t.database.db
          .select()
          .from(jobs)
          .where(and(eq(jobs.name, 'chats.send-read-receipt'), sql`${jobs.payload}->>'tenantId' = ${owner.tenant.id}`))
          .orderBy(desc(jobs.createdAt))
      )[0];
    const customerWritesAndAgentOpens = async (text: string) => {
      const { id } = await gupshup.fake.customerSends({ appName: provider.appName, phone: '5215512348888', name: 'Cliente Leído', kind: 'text', text });
      const [card] = await t.database.db
        .select()
        .from(cards)
        .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, '5215512348888')));
      expect(
        (await t.app.inject({ method: 'POST', url: `/t/${owner.tenant.slug}/api/cards/${card!.id}/mark-read`, headers: bearer(owner.token) })).statusCode,
      ).toBe(200);
      return id;
    };

    await customerWritesAndAgentOpens('Hola');
    const refused = await until(async () => {
      const job = await receiptJob();
      return job?.status === 'completed' || job?.status === 'failed' ? job : undefined;
    });
    expect(refused).toMatchObject({ status: 'completed', attempts: 1 });
    expect(receiptsOf()).toHaveLength(0);

    const stored = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/settings/gupshup',
      headers: bearer(adminToken),
      payload: { apiKey: 'live-key-123', partnerEmail: 'ops@embudo.test', partnerPassword: 'secreto-partner' },
    });
    expect(stored.statusCode).toBe(200);
    const wamid = await customerWritesAndAgentOpens('¿Me leen?');
    await until(async () => receiptsOf().length > 0);
    expect(receiptsOf().map((request) => request.json)).toEqual([{ messaging_product: 'whatsapp', status: 'read', message_id: wamid }]);
    expect(gupshup.fake.requests.some((request) => request.path === '/partner/account/login' && request.form.email === 'ops@embudo.test')).toBe(true);
    expect((await gupshup.fake.conversation(provider.appName, '5215512348888')).map((message) => message.status)).toEqual(['read', 'read']);
  });
});

describe('live inbound media', () => {
  it("goes only to Gupshup's hosts: a loopback or foreign URL is refused at once, never retried, nothing stored", async () => {
    const loopback = await startFakeWebhookServer();
    try {
      const owner = await registerTenant(t.app);
      const port = new URL(loopback.url).port;
      const urls = [
        `${loopback.url}/secret`,
        `http://[::ffff:127.0.0.1]:${port}/secret`,
        `${baseUrl}/api/health`,
        `${gupshup.url}/files/x`,
        'https://filemanager.gupshup.io.evil.example/x.pdf',
        'http://169.254.169.254/latest/meta-data/',
      ];
      for (const url of urls) {
        const { job, message } = await deliverInboundFile(t, owner, { url, contentType: 'application/pdf' });
        expect(job, url).toMatchObject({ status: 'completed', attempts: 1 });
        expect(message, url).toMatchObject({ mediaUrl: null, errorReason: MEDIA_NOT_DOWNLOADED });
      }
      expect(loopback.received).toHaveLength(0);
      // The fake Gupshup calls our webhook for the other tests' messages; nothing else may reach us.
      expect(ownRequests.filter((path) => !path.startsWith('/webhooks/gupshup/'))).toEqual([]);
      expect(fs.existsSync(path.join(t.mediaDir, owner.tenant.id))).toBe(false);
    } finally {
      await loopback.close();
    }
  });
});
