import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { whatsappActivityResponse, type WhatsappActivity } from '@embudo/contracts/http/whatsapp-activity';
import { cards, jobs, messages, providerSettings, tenants, webhookDeliveryHours, webhookRejections } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { signedInMember } from '../../../test/support/members.ts';
import { bootstrapPlatformAdmin } from '../admin/index.ts';
import { sandboxAppName } from '../tenants/index.ts';
import { WRONG_SECRET_RECORDS_PER_HOUR } from '../chats/index.ts';
import { jobLabel } from './activity.service.ts';

let t: TestApp;
let operatorToken: string;
const OPERATOR = { email: 'actividad@embudo.test', password: 'Actividad123' };

beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
  await bootstrapPlatformAdmin(t.database.db, OPERATOR);
  operatorToken = (await t.app.inject({ method: 'POST', url: '/api/auth/admin/login', payload: OPERATOR })).json().token;
});
afterAll(async () => t.close());

type Owner = Awaited<ReturnType<typeof registerTenant>>;
const db = () => t.database.db;

async function webhookPath(owner: Owner) {
  const settings = await t.app.inject({ method: 'GET', url: '/api/gupshup/settings', headers: bearer(owner.token) });
  return new URL(settings.json().webhookUrl as string).pathname;
}

const deliver = (path: string, body: string) => t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json' }, body });

const customerMessage = (owner: Owner, phone = '5215512345678') =>
  JSON.stringify({
    app: sandboxAppName(owner.tenant),
    timestamp: Date.now(),
    version: 2,
    type: 'message',
    payload: { id: `wamid.${crypto.randomUUID()}`, source: phone, type: 'text', payload: { text: 'Hola' }, sender: { phone, name: 'Ana' } },
  });

const activity = async (token: string, url = '/api/whatsapp/activity') => {
  const response = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
  return { status: response.statusCode, body: response.statusCode === 200 ? whatsappActivityResponse.parse(response.json()) : response.json() };
};

/** A company whose WhatsApp had a customer message, a malformed and a forged delivery, a failed send and a failed job. */
async function busyCompany() {
  const owner = await registerTenant(t.app);
  const path = await webhookPath(owner);
  expect((await deliver(path, customerMessage(owner))).statusCode).toBe(200);
  expect((await deliver(path, '{"roto":')).statusCode).toBe(200);
  expect((await deliver(path.replace(/[^/]+$/, 'secreto-viejo'), customerMessage(owner))).statusCode).toBe(401);
  const [card] = await db().select().from(cards).where(eq(cards.tenantId, owner.tenant.id));
  await db().insert(messages).values({
    tenantId: owner.tenant.id,
    cardId: card!.id,
    sender: 'user',
    type: 'text',
    text: 'Hola',
    ack: -1,
    errorReason: 'El cliente no tiene WhatsApp',
    errorCode: '1002',
  });
  const [job] = await db()
    .insert(jobs)
    .values({
      name: 'chats.send-read-receipt',
      payload: { tenantId: owner.tenant.id, messageId: crypto.randomUUID() },
      status: 'failed',
      attempts: 5,
      maxAttempts: 5,
      lastError: 'Gupshup no respondió',
      tenantId: owner.tenant.id,
      completedAt: new Date(),
    })
    .returning();
  return { owner, card: card!, jobId: job!.id };
}

describe('GET /api/whatsapp/activity', () => {
  it("shows the company's last message, its deliveries per hour, refused deliveries, failed sends and failed jobs", async () => {
    const { owner, card, jobId } = await busyCompany();
    const { status, body } = await activity(owner.token);
    expect(status).toBe(200);
    const panel = body as WhatsappActivity;
    expect(Date.now() - Date.parse(panel.lastInboundMessageAt!)).toBeLessThan(60_000);
    expect(panel.lastStatusAt).toBeNull();
    expect(panel.hours).toHaveLength(24);
    expect(panel.hours[23]).toMatchObject({ messages: 1, statuses: 0, refused: 1, malformed: 1 });
    expect(panel.hours.slice(0, 23).every((hour) => hour.messages + hour.statuses + hour.refused + hour.malformed === 0)).toBe(true);
    expect(Date.parse(panel.hours[23]!.hour)).toBeLessThanOrEqual(Date.now());
    expect(panel.refusedDeliveries.map((refused) => [refused.kind, refused.reason])).toEqual(
      expect.arrayContaining([
        ['wrong_secret', 'La URL del webhook no lleva el secreto de la empresa: copia otra vez en Gupshup la URL de webhook que muestra Conexión WhatsApp.'],
        ['malformed', 'El cuerpo no es JSON válido.'],
      ]),
    );
    expect(panel.refusedDeliveries.find((refused) => refused.kind === 'malformed')!.rawBody).toBe('{"roto":');
    expect(panel.failedSends).toMatchObject([
      {
        cardId: card.id,
        chatTitle: card.title,
        phone: card.phone,
        code: '1002',
        reason: 'El cliente no tiene WhatsApp',
      },
    ]);
    expect(panel.failedJobs).toMatchObject([
      { id: jobId, name: 'chats.send-read-receipt', label: 'Avisar a WhatsApp que se leyó un chat', lastError: 'Gupshup no respondió', attempts: 5 },
    ]);
  });

  it('is for owners and admins: agents and viewers get 403', async () => {
    const { owner } = await busyCompany();
    const [funnelId] = (await t.app.inject({ method: 'GET', url: '/api/funnels/summary', headers: bearer(owner.token) }))
      .json()
      .map((f: { id: string }) => f.id);
    await db().update(tenants).set({ subscriptionPlan: 'enterprise' }).where(eq(tenants.id, owner.tenant.id));
    const admin = await signedInMember(t.app, db(), owner.tenant, 'admin');
    expect((await activity(admin.token)).status).toBe(200);
    for (const role of ['agent', 'viewer'] as const) {
      const member = await signedInMember(t.app, db(), owner.tenant, role, [funnelId]);
      expect((await activity(member.token)).status).toBe(403);
    }
  });

  it("never shows another company's deliveries, sends or jobs", async () => {
    await busyCompany();
    const quiet = await registerTenant(t.app);
    const { body } = await activity(quiet.token);
    expect(body).toMatchObject({ lastInboundMessageAt: null, refusedDeliveries: [], failedSends: [], failedJobs: [] });
  });
});

describe("the number's health", () => {
  const tierEvent = (owner: Owner, event: string, currentLimit: string, timestamp: number) =>
    JSON.stringify({
      app: sandboxAppName(owner.tenant),
      timestamp,
      version: 2,
      type: 'account-event',
      payload: { type: 'tier-event', payload: { event, oldLimit: 'TIER_1K', currentLimit } },
    });

  it('says nothing reported until the provider speaks, then its quality, daily limit and last event with its date', async () => {
    const owner = await registerTenant(t.app);
    const before = (await activity(owner.token)).body as WhatsappActivity;
    expect(before.numberHealth).toEqual({ quality: null, dailyLimit: null, lastEvent: null, lastEventAt: null });

    const path = await webhookPath(owner);
    const flaggedAt = Date.parse('2026-12-02T15:00:00Z');
    expect((await deliver(path, tierEvent(owner, 'FLAGGED', 'TIER_1K', flaggedAt))).statusCode).toBe(200);
    // An older event arriving late changes nothing.
    expect((await deliver(path, tierEvent(owner, 'UPGRADE', 'TIER_10K', flaggedAt - 60_000))).statusCode).toBe(200);
    const after = (await activity(owner.token)).body as WhatsappActivity;
    expect(after.numberHealth).toEqual({ quality: 'RED', dailyLimit: 1000, lastEvent: 'FLAGGED', lastEventAt: '2026-12-02T15:00:00.000Z' });

    // The operator sees the same; another company sees only its own (nothing).
    const asOperator = (await activity(operatorToken, `/api/admin/tenants/${owner.tenant.id}/whatsapp-activity`)).body as WhatsappActivity;
    expect(asOperator.numberHealth).toEqual(after.numberHealth);
    const other = await registerTenant(t.app);
    expect(((await activity(other.token)).body as WhatsappActivity).numberHealth).toMatchObject({ quality: null, lastEvent: null });
  });

  it('answers a quality word it does not know as unknown', async () => {
    const owner = await registerTenant(t.app);
    await t.app.inject({ method: 'GET', url: '/api/whatsapp/settings', headers: bearer(owner.token) });
    await db().update(providerSettings).set({ numberQuality: 'PURPLE', numberEvent: 'ONBOARDING' }).where(eq(providerSettings.tenantId, owner.tenant.id));
    expect(((await activity(owner.token)).body as WhatsappActivity).numberHealth).toMatchObject({ quality: 'UNKNOWN', lastEvent: 'ONBOARDING' });
  });
});

describe('POST /api/whatsapp/activity/jobs/{id}/retry (Reintentar)', () => {
  it('runs the failed job once more and it leaves the list; a second retry is a 404', async () => {
    const { owner, jobId } = await busyCompany();
    const retry = () => t.app.inject({ method: 'POST', url: `/api/whatsapp/activity/jobs/${jobId}/retry`, headers: bearer(owner.token) });
    const retried = await retry();
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual({ id: jobId, status: 'pending' });
    expect((await retry()).statusCode).toBe(404);
    await t.app.queue.drain();
    const [row] = await db().select().from(jobs).where(eq(jobs.id, jobId));
    // The message it was about does not exist: the receipt has nothing to do and the job completes.
    expect(row).toMatchObject({ status: 'completed', attempts: 6 });
    expect(((await activity(owner.token)).body as WhatsappActivity).failedJobs).toEqual([]);
  });

  it("answers 404 for another company's job, 400 for a malformed id, 403 for an agent, and changes nothing", async () => {
    const { jobId } = await busyCompany();
    const stranger = await registerTenant(t.app);
    expect((await t.app.inject({ method: 'POST', url: `/api/whatsapp/activity/jobs/${jobId}/retry`, headers: bearer(stranger.token) })).statusCode).toBe(404);
    const malformed = await t.app.inject({ method: 'POST', url: '/api/whatsapp/activity/jobs/no-es-un-id/retry', headers: bearer(stranger.token) });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('Trabajo inválido.');
    const agent = await signedInMember(t.app, db(), stranger.tenant, 'agent');
    expect((await t.app.inject({ method: 'POST', url: `/api/whatsapp/activity/jobs/${jobId}/retry`, headers: bearer(agent.token) })).statusCode).toBe(403);
    const [row] = await db().select().from(jobs).where(eq(jobs.id, jobId));
    expect(row).toMatchObject({ status: 'failed', attempts: 5 });
  });

  it('answers 409 when the same work is already queued again', async () => {
    const { owner, jobId } = await busyCompany();
    await db().update(jobs).set({ singletonKey: 'read:repetido' }).where(eq(jobs.id, jobId));
    await db()
      .insert(jobs)
      .values({ name: 'chats.send-read-receipt', payload: {}, singletonKey: 'read:repetido', runAt: new Date(Date.now() + 3_600_000) });
    const retried = await t.app.inject({ method: 'POST', url: `/api/whatsapp/activity/jobs/${jobId}/retry`, headers: bearer(owner.token) });
    expect(retried.statusCode).toBe(409);
    expect(retried.json().message).toBe('Ese trabajo ya está en la cola: espera a que termine.');
  });
});

describe('wrong-secret deliveries', () => {
  it(`records at most ${WRONG_SECRET_RECORDS_PER_HOUR} an hour per company, and counts them all`, async () => {
    const owner = await registerTenant(t.app);
    const forged = (await webhookPath(owner)).replace(/[^/]+$/, 'x');
    for (let index = 0; index < WRONG_SECRET_RECORDS_PER_HOUR + 3; index += 1) expect((await deliver(forged, '{}')).statusCode).toBe(401);
    const panel = (await activity(owner.token)).body as WhatsappActivity;
    expect(panel.hours[23]!.refused).toBe(WRONG_SECRET_RECORDS_PER_HOUR + 3);
    // The panel lists the newest 50; the table holds exactly the cap.
    expect(await db().select().from(webhookRejections).where(eq(webhookRejections.tenantId, owner.tenant.id))).toHaveLength(WRONG_SECRET_RECORDS_PER_HOUR);
  });
});

describe('the platform operator', () => {
  it("reads any company's activity and retries its failed job; an unknown company is a 404; tenant tokens get 401", async () => {
    const { owner, jobId } = await busyCompany();
    const asOperator = await activity(operatorToken, `/api/admin/tenants/${owner.tenant.id}/whatsapp-activity`);
    expect(asOperator.status).toBe(200);
    expect((asOperator.body as WhatsappActivity).failedJobs.map((job) => job.id)).toEqual([jobId]);
    expect((await activity(operatorToken, `/api/admin/tenants/${crypto.randomUUID()}/whatsapp-activity`)).status).toBe(404);
    expect((await activity(owner.token, `/api/admin/tenants/${owner.tenant.id}/whatsapp-activity`)).status).toBe(401);
    const other = await registerTenant(t.app);
    const wrongCompany = await t.app.inject({
      method: 'POST',
      url: `/api/admin/tenants/${other.tenant.id}/whatsapp-activity/jobs/${jobId}/retry`,
      headers: bearer(operatorToken),
    });
    expect(wrongCompany.statusCode).toBe(404);
    const retried = await t.app.inject({
      method: 'POST',
      url: `/api/admin/tenants/${owner.tenant.id}/whatsapp-activity/jobs/${jobId}/retry`,
      headers: bearer(operatorToken),
    });
    expect(retried.json()).toEqual({ id: jobId, status: 'pending' });
  });

  it('lists the companies that had customer messages but none for the chosen time', async () => {
    const silent = await registerTenant(t.app, { companyName: 'Callada SA' });
    const busy = await registerTenant(t.app);
    await registerTenant(t.app, { companyName: 'Nunca Tuvo Tráfico' });
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    await db()
      .insert(webhookDeliveryHours)
      .values([
        { tenantId: silent.tenant.id, hour: hoursAgo(30), kind: 'message', deliveries: 4, lastAt: hoursAgo(30) },
        // Statuses alone do not count as customer traffic.
        { tenantId: silent.tenant.id, hour: hoursAgo(2), kind: 'status', deliveries: 4, lastAt: hoursAgo(2) },
        { tenantId: busy.tenant.id, hour: hoursAgo(1), kind: 'message', deliveries: 1, lastAt: hoursAgo(1) },
      ]);
    const list = async (query: string) =>
      t.app.inject({ method: 'GET', url: `/api/admin/whatsapp-activity/silent-companies${query}`, headers: bearer(operatorToken) });
    const day = (await list('?hours=24')).json() as Array<{ tenantId: string; name: string }>;
    expect(day.map((company) => company.tenantId)).toContain(silent.tenant.id);
    expect(day.find((company) => company.tenantId === silent.tenant.id)).toMatchObject({ name: 'Callada SA', slug: silent.tenant.slug });
    expect(day.map((company) => company.tenantId)).not.toContain(busy.tenant.id);
    expect(((await list('?hours=48')).json() as Array<{ tenantId: string }>).map((company) => company.tenantId)).not.toContain(silent.tenant.id);
    const bad = await list('?hours=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Mínimo 1 hora.');
  });
});

describe('job labels', () => {
  it('names jobs in Spanish, and an unknown job by its name', () => {
    expect(jobLabel('bulk-sends.send-chunk')).toBe('Enviar un tramo de un envío masivo');
    expect(jobLabel('event.autobot.answer-customer-message')).toBe('Responder con el Bot Auto');
    expect(jobLabel('event.ai.transcribe-voice-note')).toBe('Transcribir una nota de voz');
    expect(jobLabel('algo.nuevo')).toBe('algo.nuevo');
  });
});
