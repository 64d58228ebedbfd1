import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { eq } from 'drizzle-orm';
import { OPERATOR_REJECTION_REASON } from '@embudo/contracts/http/templates';
import { SEND_RATE_INVALID } from '@embudo/contracts/http/admin';
import { adminSessions, messages, messageTemplates, platformSettings, sendRates } from '../../../db/schema/index.ts';
import { buildTestApp, TEST_APP_SECRET, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { connectClient, joinTenant, listenOnRandomPort, type TestSocket } from '../../../test/support/realtime-client.ts';
import { createTestClock } from '../../../test/support/test-clock.ts';
import { syncUntilReviewed, until } from '../../../test/support/templates.ts';
import { hashToken } from '../../platform/auth/secrets.ts';
import { accountThrottled, defaultThrottleLimits } from '../auth/index.ts';
import { bootstrapPlatformAdmin } from './admin-bootstrap.ts';
import { sandboxAppName, memberLimitMessage } from '../tenants/index.ts';
import { ALREADY_APPROVED, ALREADY_REJECTED } from '../templates/index.ts';

let t: TestApp;
let baseUrl: string;
let adminToken: string;
const ADMIN = { email: 'operador@embudo.test', password: 'Operador123' };
const clock = createTestClock();
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox', clock: clock.now });
  baseUrl = await listenOnRandomPort(t.app);
  await bootstrapPlatformAdmin(t.database.db, ADMIN);
  adminToken = (await t.app.inject({ method: 'POST', url: '/api/auth/admin/login', payload: ADMIN })).json().token;
});
afterAll(async () => {
  sockets.forEach((socket) => socket.disconnect());
  await t.close();
});

const asAdmin = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: bearer(adminToken), payload: payload as object });

describe('operator sign-in and token kinds', () => {
  it('signs in, checks the token, refuses wrong credentials and rate-limits', async () => {
    clock.freeze();
    onTestFinished(() => clock.resume());
    const me = await asAdmin('GET', '/api/admin/me');
    expect(me.json()).toEqual({ user: { id: expect.any(String), email: ADMIN.email, name: 'Administrador' } });
    const wrong = await t.app.inject({ method: 'POST', url: '/api/auth/admin/login', payload: { ...ADMIN, password: 'Mala1234' }, remoteAddress: '10.7.0.1' });
    expect(wrong.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/admin/login', payload: { email: '', password: '' } })).statusCode).toBe(400);
    for (let i = 0; i < 3; i++)
      await t.app.inject({ method: 'POST', url: '/api/auth/admin/login', payload: { email: 'otro@x.test', password: 'Mala1234' }, remoteAddress: '10.7.1.1' });
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/admin/login', payload: { email: 'otro@x.test', password: 'Mala1234' }, remoteAddress: '10.7.1.2' }))
        .statusCode,
    ).toBe(429);
  });

  it('verifies at most 3 of 60 concurrent wrong guesses on the operator, and lets the operator in within 30 s once they stop', async () => {
    clock.freeze();
    onTestFinished(() => clock.resume());
    const guess = (password: string, i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/admin/login',
        payload: { email: ADMIN.email, password },
        remoteAddress: `10.8.${Math.floor(i / 200)}.${(i % 200) + 1}`,
      });
    // A right password first, so the wrong one of the test above no longer counts.
    expect((await guess(ADMIN.password, 499)).statusCode).toBe(200);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => guess('Mala1234', i)));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(defaultThrottleLimits.freeAccountFailures);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60 - defaultThrottleLimits.freeAccountFailures);

    const slowed = await guess(ADMIN.password, 500);
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json().message).toBe(accountThrottled(2_000));
    clock.advance(Number(slowed.headers['retry-after']) * 1000);
    expect((await guess(ADMIN.password, 501)).statusCode).toBe(200);
  });
});

describe('operator sessions', () => {
  const signIn = async () => (await t.app.inject({ method: 'POST', url: '/api/auth/admin/login', payload: ADMIN })).json().token as string;
  const sessionTimes = (token: string, times: { createdAt?: Date; lastUsedAt?: Date }) =>
    t.database.db
      .update(adminSessions)
      .set(times)
      .where(eq(adminSessions.tokenHash, hashToken(token)));
  const meWith = (token: string) => t.app.inject({ method: 'GET', url: '/api/admin/me', headers: bearer(token) });
  const DAY_MS = 86_400_000;

  it('expire after 30 days without use and 90 days after sign-in, answering 401 like a revoked one', async () => {
    const now = clock.now().getTime();
    const idle = await signIn();
    await sessionTimes(idle, { lastUsedAt: new Date(now - 29 * DAY_MS) });
    expect((await meWith(idle)).statusCode).toBe(200);
    await sessionTimes(idle, { lastUsedAt: new Date(now - 30 * DAY_MS - 1000) });
    const expired = await meWith(idle);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ code: 'UNAUTHORIZED', message: 'Sesión de administrador inválida o expirada.' });

    const old = await signIn();
    await sessionTimes(old, { createdAt: new Date(now - 89 * DAY_MS) });
    expect((await meWith(old)).statusCode).toBe(200);
    await sessionTimes(old, { createdAt: new Date(now - 90 * DAY_MS - 1000) });
    expect((await meWith(old)).statusCode).toBe(401);
  });

  it('write the last-used time at most once a minute', async () => {
    const token = await signIn();
    const lastUsed = async () =>
      (
        await t.database.db
          .select()
          .from(adminSessions)
          .where(eq(adminSessions.tokenHash, hashToken(token)))
      )[0]!.lastUsedAt.getTime();
    const recent = new Date(clock.now().getTime() - 30_000);
    await sessionTimes(token, { lastUsedAt: recent });
    expect((await meWith(token)).statusCode).toBe(200);
    expect(await lastUsed()).toBe(recent.getTime());
    const stale = new Date(clock.now().getTime() - 2 * 60_000);
    await sessionTimes(token, { lastUsedAt: stale });
    const before = clock.now().getTime();
    expect((await meWith(token)).statusCode).toBe(200);
    expect(await lastUsed()).toBeGreaterThanOrEqual(before);
  });

  it('deactivating a member disconnects their live connection at once', async () => {
    const owner = await registerTenant(t.app);
    const { user, tempPassword } = (
      await t.app.inject({
        method: 'POST',
        url: `/t/${owner.tenant.slug}/api/users/invite`,
        headers: bearer(owner.token),
        payload: { name: 'Agente', email: 'conectado@x.test' },
      })
    ).json();
    const temporary = (
      await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: tempPassword, tenantSlug: owner.tenant.slug } })
    ).json();
    const changed = (
      await t.app.inject({ method: 'PUT', url: '/api/auth/change-password', headers: bearer(temporary.token), payload: { newPassword: 'Definitiva9' } })
    ).json();
    const socket = connectClient(baseUrl, changed.token, owner.tenant.slug);
    sockets.push(socket);
    expect(await joinTenant(socket, owner.tenant.slug, changed.token)).toEqual({ ok: true });
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    expect((await asAdmin('PUT', `/api/admin/users/${user.id}/status`, { is_active: false })).statusCode).toBe(200);
    expect(await disconnected).toBe('io server disconnect');
  });

  it('an admin token opens no tenant call and a tenant token opens no admin call', async () => {
    const owner = await registerTenant(t.app);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(adminToken) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/t/${owner.tenant.slug}/api/funnels/summary`, headers: bearer(adminToken) })).statusCode).toBe(401);
    for (const url of ['/api/admin/stats', '/api/admin/tenants', '/api/admin/me', '/api/admin/settings/gupshup']) {
      expect((await t.app.inject({ method: 'GET', url, headers: bearer(owner.token) })).statusCode, url).toBe(401);
    }
  });
});

describe('tenants, users and figures', () => {
  it('shows stats, tenants with users and month cost, and changes a plan (the member limit follows)', async () => {
    const owner = await registerTenant(t.app, { companyName: 'Cafetería Admin' });
    const stats = (await asAdmin('GET', '/api/admin/stats')).json();
    expect(stats).toMatchObject({
      totalTenants: expect.any(Number),
      totalUsers: expect.any(Number),
      activeConnections: expect.any(Number),
      messagesSentThisMonth: expect.any(Number),
      totalTemplates: expect.any(Number),
      utilityTemplates: expect.any(Number),
      marketingTemplates: expect.any(Number),
    });
    expect(stats.totalTenants).toBeGreaterThanOrEqual(1);

    const tenant = (await asAdmin('GET', '/api/admin/tenants')).json().find((row: { id: string }) => row.id === owner.tenant.id);
    expect(tenant).toMatchObject({ name: 'Cafetería Admin', slug: owner.tenant.slug, subscription_plan: 'basic', usage: { totalCost: 0 } });
    expect(tenant.users).toEqual([expect.objectContaining({ email: owner.user.email, role: 'owner', is_active: true })]);
    expect((await asAdmin('GET', '/api/admin/tenants-summary')).json().find((row: { id: string }) => row.id === owner.tenant.id)).toMatchObject({
      userCount: 1,
    });

    const invite = (n: number) =>
      t.app.inject({
        method: 'POST',
        url: `/t/${owner.tenant.slug}/api/users/invite`,
        headers: bearer(owner.token),
        payload: { name: `M${n}`, email: `m${n}@x.test` },
      });
    expect((await invite(1)).statusCode).toBe(201);
    expect((await invite(2)).statusCode).toBe(403);
    expect((await asAdmin('PUT', `/api/admin/tenants/${owner.tenant.id}/plan`, { subscription_plan: 'professional' })).json()).toEqual({
      id: owner.tenant.id,
      subscription_plan: 'professional',
    });
    expect((await invite(2)).statusCode).toBe(201);
    const gold = await asAdmin('PUT', `/api/admin/tenants/${owner.tenant.id}/plan`, { subscription_plan: 'gold' });
    expect(gold.statusCode).toBe(400);
    expect(gold.json().message).toBe('Plan inválido: usa basic, professional o enterprise.');
    expect((await asAdmin('PUT', `/api/admin/tenants/${crypto.randomUUID()}/plan`, { subscription_plan: 'basic' })).statusCode).toBe(404);
  });

  it('deactivates a user (their session ends), never changes an owner, and resets a password with a forced change', async () => {
    const owner = await registerTenant(t.app);
    const { user, tempPassword } = (
      await t.app.inject({
        method: 'POST',
        url: `/t/${owner.tenant.slug}/api/users/invite`,
        headers: bearer(owner.token),
        payload: { name: 'Agente', email: 'agente@x.test' },
      })
    ).json();
    const memberToken = (
      await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: tempPassword, tenantSlug: owner.tenant.slug } })
    ).json().token;

    const ownerRefused = await asAdmin('PUT', `/api/admin/users/${owner.user.id}/status`, { is_active: false });
    expect(ownerRefused.statusCode).toBe(403);
    expect(ownerRefused.json().message).toBe('El estado del propietario no se puede cambiar.');

    expect((await asAdmin('PUT', `/api/admin/users/${user.id}/status`, { is_active: false })).json()).toEqual({ id: user.id, is_active: false });
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(memberToken) })).statusCode).toBe(401);
    await asAdmin('PUT', `/api/admin/users/${user.id}/status`, { is_active: true });

    const reset = await asAdmin('POST', `/api/admin/users/${user.id}/reset-password`);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: reset.json().tempPassword, tenantSlug: owner.tenant.slug },
    });
    expect(login.json().user.force_password_change).toBe(true);
  });
});

describe('reactivating past the plan', () => {
  it("refuses reactivating a member when the plan's seats are taken, with the team dialog's message, and allows it once a seat frees", async () => {
    const owner = await registerTenant(t.app);
    const invite = async (n: number) =>
      (
        await t.app.inject({
          method: 'POST',
          url: `/t/${owner.tenant.slug}/api/users/invite`,
          headers: bearer(owner.token),
          payload: { name: `Miembro ${n}`, email: `miembro${n}@x.test` },
        })
      ).json().user as { id: string };
    const first = await invite(1);
    expect((await asAdmin('PUT', `/api/admin/users/${first.id}/status`, { is_active: false })).statusCode).toBe(200);
    const second = await invite(2);

    // Básico allows 2 active members: the owner and the second member hold them.
    const refused = await asAdmin('PUT', `/api/admin/users/${first.id}/status`, { is_active: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(memberLimitMessage('basic'));
    const tenant = (await asAdmin('GET', '/api/admin/tenants')).json().find((row: { id: string }) => row.id === owner.tenant.id);
    expect(tenant.users.find((user: { id: string }) => user.id === first.id).is_active).toBe(false);

    expect((await asAdmin('PUT', `/api/admin/users/${second.id}/status`, { is_active: false })).statusCode).toBe(200);
    expect((await asAdmin('PUT', `/api/admin/users/${first.id}/status`, { is_active: true })).json()).toEqual({ id: first.id, is_active: true });
  });
});

describe('send rate per company (issue 16)', () => {
  const sendRateOf = async (tenantId: string) =>
    (await asAdmin('GET', '/api/admin/tenants')).json().find((row: { id: string }) => row.id === tenantId).send_rate;

  it('shows the provider default, sets the operator rate and shows it on the tenant', async () => {
    const owner = await registerTenant(t.app);
    // Sandbox companies send through Gupshup, whose default is 20 messages per second.
    expect(await sendRateOf(owner.tenant.id)).toEqual({ messagesPerSecond: 20, isDefault: true, currentMessagesPerSecond: 20 });
    const saved = await asAdmin('PUT', `/api/admin/tenants/${owner.tenant.id}/send-rate`, { messagesPerSecond: 120 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ messagesPerSecond: 120, isDefault: false, currentMessagesPerSecond: 120 });
    expect(await sendRateOf(owner.tenant.id)).toEqual({ messagesPerSecond: 120, isDefault: false, currentMessagesPerSecond: 120 });
    expect((await asAdmin('PUT', `/api/admin/tenants/${owner.tenant.id}/send-rate`, { messagesPerSecond: 1000 })).json().messagesPerSecond).toBe(1000);
    expect((await asAdmin('PUT', `/api/admin/tenants/${owner.tenant.id}/send-rate`, { messagesPerSecond: 2.5 })).json().messagesPerSecond).toBe(2.5);
  });

  // A company's token is no operator session: every operator route answers it 401, as the role matrix pins.
  it('refuses a rate that is not a number above 0 and up to 1000 (400), an unknown company (404) and a company token (401), writing nothing', async () => {
    const owner = await registerTenant(t.app);
    await asAdmin('PUT', `/api/admin/tenants/${owner.tenant.id}/send-rate`, { messagesPerSecond: 50 });
    for (const body of [
      { messagesPerSecond: 0 },
      { messagesPerSecond: -3 },
      { messagesPerSecond: 1001 },
      { messagesPerSecond: '80' },
      {},
      { messagesPerSecond: null },
    ]) {
      const refused = await asAdmin('PUT', `/api/admin/tenants/${owner.tenant.id}/send-rate`, body);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(SEND_RATE_INVALID);
    }
    expect(SEND_RATE_INVALID).toBe('Los mensajes por segundo deben ser un número mayor que 0 y como máximo 1000.');
    const unknown = crypto.randomUUID();
    const missing = await asAdmin('PUT', `/api/admin/tenants/${unknown}/send-rate`, { messagesPerSecond: 10 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Empresa no encontrada.');
    expect((await asAdmin('PUT', '/api/admin/tenants/no-es-un-id/send-rate', { messagesPerSecond: 10 })).json().message).toBe('Empresa inválida.');
    const asCompany = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/tenants/${owner.tenant.id}/send-rate`,
      headers: bearer(owner.token),
      payload: { messagesPerSecond: 999 },
    });
    expect(asCompany.statusCode).toBe(401);
    expect(await sendRateOf(owner.tenant.id)).toEqual({ messagesPerSecond: 50, isDefault: false, currentMessagesPerSecond: 50 });
    expect(await t.database.db.select().from(sendRates).where(eq(sendRates.tenantId, unknown))).toEqual([]);
  });
});

describe('platform settings', () => {
  it('validates and saves pricing (empty means 0, up to 4 decimals), and new usage is priced from then on', async () => {
    const bad = await asAdmin('PUT', '/api/admin/settings/pricing', { price_per_sent_message: -1 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Los precios deben ser números mayores o iguales a 0.');
    expect((await asAdmin('PUT', '/api/admin/settings/pricing', { price_per_sent_message: 0.00001 })).json().message).toBe(
      'Los precios admiten hasta 4 decimales.',
    );

    const owner = await registerTenant(t.app);
    // The month's usage once this many customer messages are applied (on a loaded machine the sandbox's callback may
    // stop waiting for its answer before its delivery is applied).
    const receivedMessages = (count: number) =>
      until(async () => {
        const month = (await t.app.inject({ method: 'GET', url: `/t/${owner.tenant.slug}/api/usage`, headers: bearer(owner.token) })).json();
        return month.receivedCount === count ? month : undefined;
      });
    await t.app.sandboxPhone!.customerSends({ appName: sandboxAppName(owner.tenant), phone: '5215500011111', kind: 'text', text: 'antes' });
    await receivedMessages(1);
    const saved = await asAdmin('PUT', '/api/admin/settings/pricing', {
      price_per_sent_message: '0.0100',
      price_per_received_message: 0.005,
      price_template_marketing: '',
      price_template_utility: null,
    });
    expect(saved.json()).toEqual({
      price_per_sent_message: 0.01,
      price_per_received_message: 0.005,
      price_template_marketing: 0,
      price_template_utility: 0,
      price_per_1000_ai_tokens: 0,
    });
    expect((await asAdmin('GET', '/api/admin/settings/pricing')).json()).toEqual(saved.json());
    await t.app.sandboxPhone!.customerSends({ appName: sandboxAppName(owner.tenant), phone: '5215500011111', kind: 'text', text: 'después' });
    expect(await receivedMessages(2)).toMatchObject({ receivedCount: 2, totalCost: 0.005 });
    await asAdmin('PUT', '/api/admin/settings/pricing', {});
  });

  it('stores provider credentials encrypted, never answers them in clear, and keeps a blank password', async () => {
    const saved = await asAdmin('PUT', '/api/admin/settings/gupshup', {
      apiKey: 'sk_live_supersecret1234',
      partnerEmail: 'ops@embudo.test',
      partnerPassword: 'PartnerPass!',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).not.toContain('supersecret');
    expect(saved.body).not.toContain('PartnerPass');
    expect(saved.json()).toMatchObject({ apiKey: '••••1234', apiKeySet: true, partnerEmail: 'ops@embudo.test', partnerPassword: '', partnerPasswordSet: true });
    const [row] = await t.database.db.select().from(platformSettings).where(eq(platformSettings.key, 'gupshup'));
    expect(JSON.stringify(row!.value)).not.toContain('supersecret');
    expect(JSON.stringify(row!.value)).not.toContain('PartnerPass');

    await asAdmin('PUT', '/api/admin/settings/gupshup', { apiKey: '••••1234', partnerEmail: 'ops2@embudo.test', partnerPassword: '' });
    const { gupshupCredentials } = await import('./admin.service.ts');
    const { createSecretBox } = await import('../../platform/crypto/secret-box.ts');
    expect(await gupshupCredentials(t.database.db, createSecretBox(TEST_APP_SECRET))).toEqual({
      apiKey: 'sk_live_supersecret1234',
      partnerEmail: 'ops2@embudo.test',
      partnerPassword: 'PartnerPass!',
    });
  });
});

describe('templates review', () => {
  const tenantCall = (owner: Awaited<ReturnType<typeof registerTenant>>, method: 'GET' | 'POST', path: string, payload?: unknown) =>
    t.app.inject({ method, url: `/t/${owner.tenant.slug}/api${path}`, headers: bearer(owner.token), payload: payload as object });

  it("lists every tenant's templates with the tenant name", async () => {
    const a = await registerTenant(t.app, { companyName: 'Panadería Plantillas' });
    const b = await registerTenant(t.app, { companyName: 'Zapatería Plantillas' });
    const mine = (await tenantCall(a, 'POST', '/templates', { name: 'pan_fresco', category: 'MARKETING', body_text: 'Pan recién hecho, {{1}}' })).json();
    const theirs = (await tenantCall(b, 'POST', '/templates', { name: 'zapatos', body_text: 'Tus zapatos están listos' })).json();
    const response = await asAdmin('GET', '/api/admin/templates/all');
    expect(response.statusCode).toBe(200);
    const listed = response.json() as Array<{ id: string }>;
    expect(listed.find((row) => row.id === mine.id)).toMatchObject({
      tenant_name: 'Panadería Plantillas',
      tenant_id: a.tenant.id,
      name: 'pan_fresco',
      category: 'MARKETING',
      status: 'PENDING',
      body_text: 'Pan recién hecho, {{1}}',
    });
    expect(listed.find((row) => row.id === theirs.id)).toMatchObject({ tenant_name: 'Zapatería Plantillas', name: 'zapatos' });
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/templates/all', headers: bearer(a.token) })).statusCode).toBe(401);
  });

  it('approves any non-approved template and rejects any non-rejected one; other changes are refused', async () => {
    const owner = await registerTenant(t.app, { companyName: 'Florería Revisión' });
    const created = (await tenantCall(owner, 'POST', '/templates', { name: 'ramo', body_text: 'Tu ramo está listo' })).json();
    const status = (id: string, value: unknown) => asAdmin('PUT', `/api/admin/templates/${id}/status`, { status: value });

    const approved = await status(created.id, 'APPROVED');
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ id: created.id, status: 'APPROVED', rejection_reason: null, tenant_name: 'Florería Revisión' });
    expect((await status(created.id, 'APPROVED')).json()).toMatchObject({ code: 'BAD_REQUEST', message: ALREADY_APPROVED });

    const rejected = await status(created.id, 'REJECTED');
    expect(rejected.json()).toMatchObject({ status: 'REJECTED', rejection_reason: OPERATOR_REJECTION_REASON });
    expect((await status(created.id, 'REJECTED')).json().message).toBe(ALREADY_REJECTED);
    expect((await status(created.id, 'APPROVED')).json().status).toBe('APPROVED');

    for (const value of ['PENDING', 'PAUSED', 'aprobada', undefined]) {
      const refused = await status(created.id, value);
      expect(refused.statusCode, String(value)).toBe(400);
      expect(refused.json().message).toBe('Estado inválido: usa APPROVED o REJECTED.');
    }
    expect((await status(crypto.randomUUID(), 'APPROVED')).statusCode).toBe(404);
    expect((await status('ramo', 'APPROVED')).statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'PUT', url: `/api/admin/templates/${created.id}/status`, headers: bearer(owner.token), payload: { status: 'REJECTED' } }))
        .statusCode,
    ).toBe(401);
    const [row] = await t.database.db.select().from(messageTemplates).where(eq(messageTemplates.id, created.id));
    expect(row!.status).toBe('APPROVED');
  });

  it("a rejection is a platform block with the operator's reason that no sync or edit lifts; only the operator's approval does", async () => {
    const owner = await registerTenant(t.app, { companyName: 'Bar Bloqueado' });
    t.app.sandboxPhone!.templateReviewMs = 20;
    const created = (await tenantCall(owner, 'POST', '/templates', { name: 'apuestas', body_text: 'Apuesta hoy y gana' })).json();
    expect((await syncUntilReviewed(t, owner, created.id)).status).toBe('APPROVED');

    const reason = 'Promociona apuestas, que la plataforma no permite.';
    const rejected = await asAdmin('PUT', `/api/admin/templates/${created.id}/status`, { status: 'REJECTED', reason: `  ${reason}  ` });
    expect(rejected.json()).toMatchObject({ status: 'REJECTED', rejection_reason: reason, blocked_by_operator: true });

    // Meta still says APPROVED; the company's sync keeps the operator's block and reason.
    const synced = (await tenantCall(owner, 'POST', '/templates/sync')).json().templates.find((row: { id: string }) => row.id === created.id);
    expect(synced).toMatchObject({ status: 'REJECTED', rejection_reason: reason, blocked_by_operator: true });
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/t/${owner.tenant.slug}/api/templates/${created.id}`,
      headers: bearer(owner.token),
      payload: { name: 'apuestas', body_text: 'Apuesta mañana y gana' },
    });
    expect(edited.json()).toMatchObject({ status: 'REJECTED', rejection_reason: reason, blocked_by_operator: true });
    const [afterEdit] = await t.database.db.select().from(messageTemplates).where(eq(messageTemplates.id, created.id));
    await until(async () =>
      t.app.sandboxPhone!.templatesOf(sandboxAppName(owner.tenant)).find((held) => held.id === afterEdit!.providerTemplateId && held.status === 'APPROVED'),
    );
    expect((await syncUntilReviewed(t, owner, created.id)).status).toBe('REJECTED');
    const send = await tenantCall(owner, 'POST', '/initiate-conversation', { templateId: created.id, phoneNumber: '5215566661111' });
    expect(send.statusCode).toBe(400);

    const approved = await asAdmin('PUT', `/api/admin/templates/${created.id}/status`, { status: 'APPROVED' });
    expect(approved.json()).toMatchObject({ status: 'APPROVED', rejection_reason: null, blocked_by_operator: false });
    expect(await syncUntilReviewed(t, owner, created.id)).toMatchObject({ status: 'APPROVED', blocked_by_operator: false });

    // Without a reason the company is told who rejected it.
    expect((await asAdmin('PUT', `/api/admin/templates/${created.id}/status`, { status: 'REJECTED', reason: '   ' })).json()).toMatchObject({
      rejection_reason: OPERATOR_REJECTION_REASON,
      blocked_by_operator: true,
    });
  });

  it('refuses a reason that is not text or too long with 400, changing nothing', async () => {
    const owner = await registerTenant(t.app);
    const created = (await tenantCall(owner, 'POST', '/templates', { name: 'motivo', body_text: 'Hola' })).json();
    for (const [reason, message] of [
      [42, 'El motivo debe ser texto.'],
      ['x'.repeat(501), 'El motivo no puede superar 500 caracteres.'],
    ] as const) {
      const refused = await asAdmin('PUT', `/api/admin/templates/${created.id}/status`, { status: 'REJECTED', reason });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(message);
    }
    // Nothing blocked it: the provider's own review (announced by its template webhook) may have approved it meanwhile.
    const [row] = await t.database.db.select().from(messageTemplates).where(eq(messageTemplates.id, created.id));
    expect(row).toMatchObject({ operatorRejectionReason: null, rejectionReason: null });
    expect(['PENDING', 'APPROVED']).toContain(row!.status);
  });

  it("in sandbox mode the operator's approval of a template Meta rejected is the fake provider's too, so it really sends", async () => {
    const owner = await registerTenant(t.app);
    t.app.sandboxPhone!.templateReviewMs = 20;
    const created = (await tenantCall(owner, 'POST', '/templates', { name: 'rechazada', body_text: 'Hay que rechazar esto, {{1}}' })).json();
    expect((await syncUntilReviewed(t, owner, created.id)).status).toBe('REJECTED');

    await asAdmin('PUT', `/api/admin/templates/${created.id}/status`, { status: 'APPROVED' });
    const held = t.app.sandboxPhone!.templatesOf(sandboxAppName(owner.tenant)).find((template) => template.id === created.provider_template_id);
    expect(held).toMatchObject({ status: 'APPROVED', reason: null });
    expect((await syncUntilReviewed(t, owner, created.id)).status).toBe('APPROVED');

    const started = (
      await tenantCall(owner, 'POST', '/initiate-conversation', { templateId: created.id, phoneNumber: '5215566662222', variables: ['Ana'] })
    ).json();
    const delivered = await until(async () => {
      await t.app.queue.runDueJobsOnce();
      const [row] = await t.database.db.select().from(messages).where(eq(messages.id, started.message.id));
      return row!.ack === -1 || row!.ack >= 2 ? row : undefined;
    });
    expect(delivered).toMatchObject({ ack: expect.any(Number), errorReason: null });
    expect(delivered.ack).toBeGreaterThanOrEqual(2);
    expect((await t.app.sandboxPhone!.conversation(sandboxAppName(owner.tenant), '5215566662222')).at(-1)?.template?.body).toBe('Hay que rechazar esto, Ana');
  });

  it('an approved template can then be sent by its tenant (and only then)', async () => {
    const owner = await registerTenant(t.app);
    const created = (await tenantCall(owner, 'POST', '/templates', { name: 'bienvenida', body_text: 'Hola {{1}}, bienvenido' })).json();
    const start = () => tenantCall(owner, 'POST', '/initiate-conversation', { templateId: created.id, phoneNumber: '5215566660000', variables: { 1: 'Eva' } });
    expect((await start()).statusCode).toBe(400);
    await asAdmin('PUT', `/api/admin/templates/${created.id}/status`, { status: 'APPROVED' });
    const started = await start();
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json().message).toMatchObject({ type: 'template', text: 'Hola Eva, bienvenido' });
  });
});
