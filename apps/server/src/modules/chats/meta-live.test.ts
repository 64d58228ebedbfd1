import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { cards, jobs, messages } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { untilWithJobs } from '../../../test/support/polling.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { startFakeMetaServer } from '../../../test/fakes/fake-meta-server.ts';
import { PNG_PIXEL } from '../../../test/support/templates.ts';
import { MEDIA_NOT_DOWNLOADED } from './chats.jobs.ts';

// Live mode: the real Meta adapter talks to the fake Cloud API as a separate server, as it would to graph.facebook.com,
// at the configured Graph version; the fake's webhooks reach our real webhook over HTTP.
let t: TestApp;
let meta: Awaited<ReturnType<typeof startFakeMetaServer>>;
/** Requests that reached the app's own HTTP server (inject() does not go through it). */
const ownRequests: string[] = [];

beforeAll(async () => {
  meta = await startFakeMetaServer();
  t = await buildTestApp({ providerMode: 'live', metaGraphUrl: meta.url, metaGraphVersion: 'v24.0' });
  await listenOnRandomPort(t.app);
  t.app.server.on('request', (request: { url?: string }) => ownRequests.push(request.url ?? ''));
});
afterAll(async () => {
  await t.close();
  await meta.close();
});

const until = <T>(probe: () => Promise<T | undefined | false>, timeoutMs?: number) => untilWithJobs(t, probe, timeoutMs);

describe('a company on Meta in live mode', () => {
  it('receives through the real webhook, replies at the configured Graph version, and refuses media outside Meta hosts', async () => {
    const owner = await registerTenant(t.app);
    const account = { phoneNumberId: '109876543219999', wabaId: '204567890129999', accessToken: 'EAAG-live', appSecret: 'secreto-live' };
    const saved = await t.app.inject({ method: 'PUT', url: '/api/whatsapp/settings', headers: bearer(owner.token), payload: { provider: 'meta', ...account } });
    expect(saved.statusCode).toBe(200);
    const { metaWebhookUrl, verifyToken } = saved.json();
    const listening = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    meta.numbers.push({
      ...account,
      verifyToken,
      callbackUrl: `${listening}${new URL(metaWebhookUrl as string).pathname}`,
      displayPhoneNumber: '5215500009999',
    });
    expect(await meta.fake.verifyCallback(account.phoneNumberId)).toBe(true);

    await meta.fake.customerSends({ phoneNumberId: account.phoneNumberId, phone: '5215512349999', name: 'Cliente Live', kind: 'text', text: 'Hola' });
    const card = await until(
      async () =>
        (
          await t.database.db
            .select()
            .from(cards)
            .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, '5215512349999')))
        )[0],
    );
    const reply = (
      await t.app.inject({ method: 'POST', url: '/api/message', headers: bearer(owner.token), payload: { cardId: card.id, text: 'Hola, en vivo' } })
    ).json();
    await until(async () => (await t.database.db.select().from(messages).where(eq(messages.id, reply.id)))[0]?.ack === 3);
    expect(meta.fake.urls.filter((url) => url.includes(`/${account.phoneNumberId}/messages`))[0]).toMatch(
      new RegExp(`^/v24\\.0/${account.phoneNumberId}/messages\\?appsecret_proof=`),
    );

    // The fake's media URL is its own loopback address, not Meta's: refused at once, never retried, nothing stored.
    const mediaId = await meta.fake.storeFile(PNG_PIXEL, 'image/png');
    const { id } = await meta.fake.customerSends({
      phoneNumberId: account.phoneNumberId,
      phone: '5215512349999',
      kind: 'image',
      url: mediaId,
      contentType: 'image/png',
    });
    const [message] = await until(async () => {
      const rows = await t.database.db
        .select()
        .from(messages)
        .where(and(eq(messages.tenantId, owner.tenant.id), eq(messages.providerMessageId, id)));
      return rows.length > 0 && rows;
    });
    const job = await until(async () => {
      const [found] = await t.database.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.name, 'chats.download-media'), sql`${jobs.payload}->>'messageId' = ${message!.id}`));
      return found && (found.status === 'completed' || found.status === 'failed') && found;
    });
    expect(job).toMatchObject({ status: 'completed', attempts: 1 });
    expect(job.payload).toMatchObject({ provider: 'meta', url: mediaId });
    expect((await t.database.db.select().from(messages).where(eq(messages.id, message!.id)))[0]).toMatchObject({
      mediaUrl: null,
      errorReason: MEDIA_NOT_DOWNLOADED,
    });
    expect(meta.fake.requests.some((request) => request.path === `/media-download/${mediaId}`)).toBe(false);
    expect(ownRequests.filter((path) => !path.startsWith('/webhooks/meta/'))).toEqual([]);
  });
});
