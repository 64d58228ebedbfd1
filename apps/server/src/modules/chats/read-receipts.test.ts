import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { cards, jobs, messages } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { signInMember } from '../../../test/support/members.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { sandboxAppName } from '../tenants/index.ts';
import { READ_RECEIPT_MAX_ATTEMPTS } from './chats.jobs.ts';

// Opening a chat tells the customer's WhatsApp the business read it: an outbox job calls the in-process
// fake Gupshup's v3 passthrough, which the queue runs here by hand.
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
  await listenOnRandomPort(t.app);
});
afterAll(async () => t.close());

type Owner = Awaited<ReturnType<typeof registerTenant>>;
const fake = () => t.app.sandboxPhone!;
const RECEIPT_JOB = 'chats.send-read-receipt';

async function customerWrites(owner: Owner, text: string, phone = '5215512345678', group?: { id: string; name: string }) {
  const { id } = await fake().customerSends({ appName: sandboxAppName(owner.tenant), phone, name: 'Cliente Uno', group, kind: 'text', text });
  const [card] = await t.database.db
    .select()
    .from(cards)
    .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, group?.id ?? phone)));
  return { wamid: id, card: card! };
}

const markRead = (owner: Owner, cardId: string) =>
  t.app.inject({ method: 'POST', url: `/t/${owner.tenant.slug}/api/cards/${cardId}/mark-read`, headers: bearer(owner.token) });

const receiptJobsOf = (tenantId: string) =>
  t.database.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.name, RECEIPT_JOB), sql`${jobs.payload}->>'tenantId' = ${tenantId}`));

const readReceiptsSentFor = (owner: Owner) => fake().requests.filter((request) => request.path === `/partner/app/${sandboxAppName(owner.tenant)}/v3/message`);

const phoneStatuses = async (owner: Owner, conversation: string) =>
  (await fake().conversation(sandboxAppName(owner.tenant), conversation)).map((message) => message.status);

async function runReceiptJobs(tenantId: string) {
  for (let round = 0; round < READ_RECEIPT_MAX_ATTEMPTS + 1; round++) {
    // Skip the retry backoff: every pending receipt of this tenant is due now.
    await t.database.db
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(and(eq(jobs.name, RECEIPT_JOB), eq(jobs.status, 'pending'), sql`${jobs.payload}->>'tenantId' = ${tenantId}`));
    await t.app.queue.runDueJobsOnce();
    const pending = (await receiptJobsOf(tenantId)).filter((job) => job.status === 'pending' || job.status === 'running');
    if (pending.length === 0) return receiptJobsOf(tenantId);
  }
  throw new Error('read receipts still pending after every attempt');
}

describe('read receipts', () => {
  it('opening a chat with unread messages sends one receipt for the newest customer message, and the phone shows them read', async () => {
    const owner = await registerTenant(t.app);
    const first = await customerWrites(owner, 'Hola');
    const second = await customerWrites(owner, '¿Siguen abiertos?');
    expect(second.card.unreadCount).toBe(2);
    expect(await phoneStatuses(owner, second.card.phone)).toEqual(['delivered', 'delivered']);

    const response = await markRead(owner, second.card.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: second.card.id, unreadCount: 0 });
    const [newest] = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.tenantId, owner.tenant.id), eq(messages.providerMessageId, second.wamid)));
    const queued = await receiptJobsOf(owner.tenant.id);
    expect(queued.map((job) => job.payload)).toEqual([{ tenantId: owner.tenant.id, messageId: newest!.id }]);

    const done = await runReceiptJobs(owner.tenant.id);
    expect(done.map((job) => job.status)).toEqual(['completed']);
    expect(readReceiptsSentFor(owner).map((request) => request.json)).toEqual([{ messaging_product: 'whatsapp', status: 'read', message_id: second.wamid }]);
    expect(first.wamid).not.toBe(second.wamid);
    // WhatsApp reads the earlier message with the newest one.
    expect(await phoneStatuses(owner, second.card.phone)).toEqual(['read', 'read']);
  });

  it('a second open with nothing unread enqueues nothing', async () => {
    const owner = await registerTenant(t.app);
    const { card } = await customerWrites(owner, 'Hola');
    expect((await markRead(owner, card.id)).statusCode).toBe(200);
    await runReceiptJobs(owner.tenant.id);

    const again = await markRead(owner, card.id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ id: card.id, unreadCount: 0 });
    expect(await receiptJobsOf(owner.tenant.id)).toHaveLength(1);
    expect(readReceiptsSentFor(owner)).toHaveLength(1);
  });

  it('marks a group message read by its WhatsApp id', async () => {
    const owner = await registerTenant(t.app);
    const group = { id: '120363777000', name: 'Obra Norte' };
    const { wamid, card } = await customerWrites(owner, 'Hola a todos', '5215533330000', group);
    expect(card.isGroup).toBe(true);
    await markRead(owner, card.id);
    await runReceiptJobs(owner.tenant.id);
    expect(readReceiptsSentFor(owner).map((request) => (request.json as { message_id: string }).message_id)).toEqual([wamid]);
    expect(await phoneStatuses(owner, group.id)).toEqual(['read']);
  });

  it('a provider outage leaves the chat read on our side: retried with backoff, then the failure stays in the job', async () => {
    const owner = await registerTenant(t.app);
    const { card } = await customerWrites(owner, 'Hola');
    fake().failNextPartnerCall('mark-read', { status: 503 });
    fake().failNextPartnerCall('mark-read', { status: 503 });
    fake().failNextPartnerCall('mark-read', { status: 503 });
    fake().failNextPartnerCall('mark-read', { status: 503 });
    fake().failNextPartnerCall('mark-read', { status: 503 });

    const response = await markRead(owner, card.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ unreadCount: 0 });
    const [job] = await runReceiptJobs(owner.tenant.id);
    expect(job).toMatchObject({ status: 'failed', attempts: READ_RECEIPT_MAX_ATTEMPTS, lastError: 'Internal Server Error' });
    expect(readReceiptsSentFor(owner)).toHaveLength(READ_RECEIPT_MAX_ATTEMPTS);

    const [stored] = await t.database.db.select().from(cards).where(eq(cards.id, card.id));
    expect(stored!.unreadCount).toBe(0);
    expect(await phoneStatuses(owner, card.phone)).toEqual(['delivered']);
  });

  it('a refusal the provider will not change (unknown message) is not retried and the chat stays read', async () => {
    const owner = await registerTenant(t.app);
    // A message the fake never saw: only the webhook knows it.
    const { webhookUrl } = (await t.app.inject({ method: 'GET', url: `/t/${owner.tenant.slug}/api/gupshup/settings`, headers: bearer(owner.token) })).json();
    const body = {
      app: 'x',
      timestamp: Date.now(),
      version: 2,
      type: 'message',
      payload: { id: 'wamid.SOLO-WEBHOOK', source: '5215544440000', type: 'text', payload: { text: 'hola' }, sender: { phone: '5215544440000' } },
    };
    expect((await t.app.inject({ method: 'POST', url: new URL(webhookUrl).pathname, payload: body })).statusCode).toBe(200);
    const [card] = await t.database.db.select().from(cards).where(eq(cards.tenantId, owner.tenant.id));

    expect((await markRead(owner, card!.id)).statusCode).toBe(200);
    const [job] = await runReceiptJobs(owner.tenant.id);
    expect(job).toMatchObject({ status: 'completed', attempts: 1 });
    expect(readReceiptsSentFor(owner).map((request) => request.json)).toEqual([
      { messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.SOLO-WEBHOOK' },
    ]);
    const [stored] = await t.database.db.select().from(cards).where(eq(cards.id, card!.id));
    expect(stored!.unreadCount).toBe(0);
  });

  it("a viewer cannot mark read and another tenant's card is not found: nothing is enqueued", async () => {
    const owner = await registerTenant(t.app);
    const other = await registerTenant(t.app);
    const { card } = await customerWrites(owner, 'Hola');
    const viewer = await signInMember(t, owner, 'viewer', [card.funnelId]);

    expect((await markRead(viewer, card.id)).statusCode).toBe(403);
    const foreign = await markRead(other, card.id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Chat no encontrado.');
    expect((await markRead(owner, 'no-es-un-id')).statusCode).toBe(400);

    expect(await receiptJobsOf(owner.tenant.id)).toHaveLength(0);
    expect(await receiptJobsOf(other.tenant.id)).toHaveLength(0);
    const [stored] = await t.database.db.select().from(cards).where(eq(cards.id, card.id));
    expect(stored!.unreadCount).toBe(1);
  });
});
