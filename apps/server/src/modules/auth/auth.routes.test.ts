import { queryRows } from '../../platform/db/database.ts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { SAME_AS_TEMPORARY_PASSWORD } from '@embudo/contracts/http/auth';
import { boardColumns, funnels, sessions, tenants, users } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant, registrationPayload, STRONG_PASSWORD } from '../../../test/support/factories.ts';
import { createUser } from '../users/index.ts';
import { hashPassword } from '../../platform/auth/secrets.ts';
import { WRONG_CREDENTIALS } from './auth.service.ts';
import { accountThrottled, addressThrottled, defaultThrottleLimits } from './login-throttle.ts';
import { createTestClock } from '../../../test/support/test-clock.ts';

const DAY_MS = 86_400_000;
const clock = createTestClock();
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ clock: clock.now });
});
afterAll(async () => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}, remoteAddress = '10.1.0.1') =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers, remoteAddress });

async function countTenants() {
  const [row] = await t.database.db.select({ count: sql<number>`count(*)::int` }).from(tenants);
  return row!.count;
}

describe('POST /api/auth/register', () => {
  it('creates the tenant on plan basic with a 7-day trial, its owner and a default funnel, and signs in', async () => {
    const before = Date.now();
    const session = await registerTenant(t.app, { companyName: 'Panadería Sol', userName: 'Lucía Pérez' });
    expect(session.tenant).toMatchObject({ name: 'Panadería Sol', subscription_plan: 'basic', timezone: 'America/Bogota' });
    const trialEnd = new Date(session.tenant.trial_ends_at!).getTime();
    expect(trialEnd - before).toBeGreaterThan(6.9 * 86_400_000);
    expect(trialEnd - before).toBeLessThan(7.1 * 86_400_000);
    expect(session.user).toMatchObject({ name: 'Lucía Pérez', role: 'owner', is_active: true, force_password_change: false });

    const tenantFunnels = await t.database.db.select().from(funnels).where(eq(funnels.tenantId, session.tenant.id));
    expect(tenantFunnels.map((f) => f.name)).toEqual(['Sales Funnel']);
    const columns = await t.database.db.select().from(boardColumns).where(eq(boardColumns.funnelId, tenantFunnels[0]!.id));
    expect(columns.length).toBeGreaterThanOrEqual(3);
    expect(session.user.funnel_access).toEqual([tenantFunnels[0]!.id]);

    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(session.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().tenant.slug).toBe(session.tenant.slug);
  });

  it('stores the password hashed with argon2id, never in clear', async () => {
    const session = await registerTenant(t.app);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, session.user.id));
    expect(row!.passwordHash.startsWith('$argon2id$')).toBe(true);
    expect(row!.passwordHash).not.toContain(STRONG_PASSWORD);
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['missing company name', { companyName: '  ' }, 'Nombre de empresa es requerido'],
    ['missing slug', { companySlug: '' }, 'Slug de empresa es requerido'],
    ['slug with bad characters', { companySlug: 'mi_empresa!' }, 'Solo letras minúsculas, números y guiones'],
    ['slug under 3 characters', { companySlug: 'ab' }, 'Mínimo 3 caracteres'],
    ['missing name', { userName: '' }, 'Tu nombre es requerido'],
    ['missing email', { userEmail: '' }, 'Email es requerido'],
    ['bad email', { userEmail: 'no-es-un-email' }, 'Email inválido'],
    ['missing password', { userPassword: '' }, 'Contraseña es requerida'],
    ['password under 8 characters', { userPassword: 'Abc1234' }, 'La contraseña no cumple los requisitos'],
    ['password without uppercase', { userPassword: 'abcdefg1' }, 'La contraseña no cumple los requisitos'],
    ['password without lowercase', { userPassword: 'ABCDEFG1' }, 'La contraseña no cumple los requisitos'],
    ['password without digit', { userPassword: 'Abcdefgh' }, 'La contraseña no cumple los requisitos'],
    ['company name of the wrong type', { companyName: 42 }, 'Nombre de empresa es requerido'],
  ];
  it.each(invalid)('refuses %s with 400 and writes nothing', async (_case, override, message) => {
    const before = await countTenants();
    const response = await post('/api/auth/register', registrationPayload(override));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect(await countTenants()).toBe(before);
  });

  it('accepts a password of exactly 8 characters meeting the four rules', async () => {
    const response = await post('/api/auth/register', registrationPayload({ userPassword: 'Abcdef12' }));
    expect(response.statusCode).toBe(201);
  });

  it('refuses a taken slug with the spec message and writes nothing', async () => {
    const first = await registerTenant(t.app);
    const before = await countTenants();
    const response = await post('/api/auth/register', registrationPayload({ companySlug: first.tenant.slug }));
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('Este identificador ya está en uso');
    expect(await countTenants()).toBe(before);
  });

  it('answers 400, not 500, to malformed JSON and to no body', async () => {
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      body: '{"companyName":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('El cuerpo de la solicitud no es JSON válido.');
    const empty = await t.app.inject({ method: 'POST', url: '/api/auth/register' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBeTruthy();
    const array = await post('/api/auth/register', [1, 2]);
    expect(array.statusCode).toBe(400);
  });
});

describe('GET /api/tenants/check-slug/{slug}', () => {
  it('answers available for a free slug and not for a taken, short or malformed one', async () => {
    const session = await registerTenant(t.app);
    const check = async (slug: string) => (await t.app.inject({ method: 'GET', url: `/api/tenants/check-slug/${encodeURIComponent(slug)}` })).json();
    expect(await check(`libre-${Date.now()}`)).toEqual({ available: true });
    expect(await check(session.tenant.slug)).toEqual({ available: false });
    expect(await check('ab')).toEqual({ available: false });
    expect(await check('Con_Mayus')).toEqual({ available: false });
  });
});

describe('POST /api/auth/login', () => {
  it('signs in with email, password and company slug, recording the last login', async () => {
    const session = await registerTenant(t.app);
    const response = await post('/api/auth/login', {
      email: session.user.email.toUpperCase(),
      password: session.password,
      tenantSlug: ` ${session.tenant.slug.toUpperCase()} `,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.token).toBeTruthy();
    expect(body.token).not.toBe(session.token);
    expect(body.user.last_login_at).toBeTruthy();
    expect(body.tenant.slug).toBe(session.tenant.slug);
  });

  it('refuses a wrong password, an unknown e-mail and another company with the same clear message', async () => {
    const a = await registerTenant(t.app);
    const b = await registerTenant(t.app);
    const attempts = [
      { email: a.user.email, password: 'Incorrecta1', tenantSlug: a.tenant.slug },
      { email: 'nadie@x.test', password: a.password, tenantSlug: a.tenant.slug },
      { email: a.user.email, password: a.password, tenantSlug: b.tenant.slug },
      { email: a.user.email, password: a.password, tenantSlug: 'no-existe-nunca' },
    ];
    for (const [index, attempt] of attempts.entries()) {
      const response = await post('/api/auth/login', attempt, {}, `10.2.0.${index}`);
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toBe(WRONG_CREDENTIALS);
    }
  });

  it('validates the payload like the form does', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ password: 'x', tenantSlug: 'abc' }, 'Email es requerido'],
      [{ email: 'malo', password: 'x', tenantSlug: 'abc' }, 'Email inválido'],
      [{ email: 'a@b.co', tenantSlug: 'abc' }, 'Contraseña es requerida'],
      [{ email: 'a@b.co', password: 'x' }, 'Slug de empresa es requerido'],
      [{ email: 'a@b.co', password: 'x', tenantSlug: 'con espacio' }, 'Solo letras minúsculas, números y guiones'],
    ];
    for (const [payload, message] of cases) {
      const response = await post('/api/auth/login', payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(message);
    }
  });

  it('refuses an inactive user', async () => {
    const session = await registerTenant(t.app);
    await t.database.db.update(users).set({ isActive: false }).where(eq(users.id, session.user.id));
    const response = await post('/api/auth/login', { email: session.user.email, password: session.password, tenantSlug: session.tenant.slug });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toMatch(/desactivado/);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(session.token) });
    expect(me.statusCode).toBe(401);
  });
});

describe('sign-in throttling (docs/decisions/0010)', () => {
  // Every test runs on a stopped clock; time only moves when the test says so.
  beforeEach(() => clock.freeze());
  afterEach(() => clock.resume());

  let addressCount = 0;
  /** A different client address on every call, as an attacker with many machines. */
  const freshAddress = () => {
    addressCount++;
    return `10.200.${Math.floor(addressCount / 250)}.${(addressCount % 250) + 1}`;
  };
  const loginAs = (credentials: { email: string; password: string; tenantSlug: string }, address = freshAddress(), headers: Record<string, string> = {}) =>
    post('/api/auth/login', credentials, headers, address);
  const waitOf = (response: { headers: Record<string, unknown> }) => Number(response.headers['retry-after']) * 1000;

  it('slows an account after 3 failures with a growing delay, saying how many seconds to wait', async () => {
    const session = await registerTenant(t.app);
    const wrong = { email: session.user.email, password: 'Incorrecta1', tenantSlug: session.tenant.slug };
    for (let i = 0; i < 3; i++) expect((await loginAs(wrong)).statusCode).toBe(401);
    const slowed = await loginAs(wrong);
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json()).toEqual({
      code: 'TOO_MANY_REQUESTS',
      message: 'Demasiados intentos fallidos con esta cuenta. Espera 2 segundos antes de volver a intentarlo.',
    });
    expect(slowed.headers['retry-after']).toBe('2');
    clock.advance(2_000);
    expect((await loginAs(wrong)).statusCode).toBe(401);
    const longer = await loginAs(wrong);
    expect(longer.json().message).toBe(accountThrottled(4_000));
    clock.advance(4_000);
    expect((await loginAs({ ...wrong, password: session.password })).statusCode).toBe(200);
    // The right password starts the account afresh.
    for (let i = 0; i < 3; i++) expect((await loginAs(wrong)).statusCode).toBe(401);
  });

  it('lets nobody lock an owner out: during an attack no wait exceeds 30 s, and afterwards the right password signs in', async () => {
    const session = await registerTenant(t.app);
    const wrong = { email: session.user.email, password: 'Incorrecta1', tenantSlug: session.tenant.slug };
    // 50 wrong passwords from rotating addresses, each sent the moment the last wait ends (the fastest attack there is).
    let elapsedMs = 0;
    for (let verified = 0; verified < 50;) {
      const answer = await loginAs(wrong);
      if (answer.statusCode === 401) verified++;
      else {
        expect(answer.statusCode).toBe(429);
        expect(waitOf(answer)).toBeLessThanOrEqual(defaultThrottleLimits.accountDelayCapMs);
        clock.advance(waitOf(answer));
        elapsedMs += waitOf(answer);
      }
    }
    // 3 free, then 2 + 4 + 8 + 16 s, then 30 s per guess: 50 guesses take over 22 minutes.
    expect(elapsedMs).toBe((2 + 4 + 8 + 16) * 1000 + (50 - 3 - 4) * 30_000);
    // The attack stops; the owner, from their own address, waits at most the cap.
    const right = { ...wrong, password: session.password };
    const first = await loginAs(right, '10.99.0.1');
    expect(first.statusCode).toBe(429);
    expect(waitOf(first)).toBeLessThanOrEqual(30_000);
    clock.advance(waitOf(first));
    expect((await loginAs(right, '10.99.0.1')).statusCode).toBe(200);
  });

  it('verifies at most 3 passwords of 60 concurrent wrong guesses on one account; the rest answer 429', async () => {
    const session = await registerTenant(t.app);
    const wrong = { email: session.user.email, password: 'Incorrecta1', tenantSlug: session.tenant.slug };
    const answers = await Promise.all(Array.from({ length: 60 }, () => loginAs(wrong)));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(defaultThrottleLimits.freeAccountFailures);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60 - defaultThrottleLimits.freeAccountFailures);
  });

  it('verifies at most 20 passwords of 60 concurrent guesses from one address across accounts', async () => {
    const session = await registerTenant(t.app);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => loginAs({ email: `victima${i}@x.test`, password: 'Incorrecta1', tenantSlug: session.tenant.slug }, '10.4.1.1')),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(defaultThrottleLimits.perAddress);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60 - defaultThrottleLimits.perAddress);
    const refused = answers.find((answer) => answer.statusCode === 429)!;
    expect(refused.json().message).toBe(addressThrottled(defaultThrottleLimits.windowMs));
    expect(refused.json().message).toBe('Demasiados intentos fallidos desde tu conexión. Espera 15 minutos antes de volver a intentarlo.');
    // The account's owner elsewhere is unaffected; the address waits out its window.
    expect((await loginAs({ email: session.user.email, password: session.password, tenantSlug: session.tenant.slug }, '10.4.1.2')).statusCode).toBe(200);
    clock.advance(defaultThrottleLimits.windowMs);
    expect((await loginAs({ email: session.user.email, password: session.password, tenantSlug: session.tenant.slug }, '10.4.1.1')).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For by default: a rotating header is still throttled per connecting address', async () => {
    const session = await registerTenant(t.app);
    const guess = (i: number) =>
      loginAs({ email: `rotando${i}@x.test`, password: 'Incorrecta1', tenantSlug: session.tenant.slug }, '10.4.2.1', { 'x-forwarded-for': `203.0.113.${i}` });
    for (let i = 0; i < defaultThrottleLimits.perAddress; i++) expect((await guess(i)).statusCode).toBe(401);
    const refused = await guess(99);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(addressThrottled(defaultThrottleLimits.windowMs));
  });

  it('a right password gives its attempt back to the address', async () => {
    const session = await registerTenant(t.app);
    const address = '10.4.3.1';
    for (let i = 0; i < defaultThrottleLimits.perAddress - 1; i++) {
      expect((await loginAs({ email: `otro${i}@x.test`, password: 'Incorrecta1', tenantSlug: session.tenant.slug }, address)).statusCode).toBe(401);
    }
    for (let i = 0; i < 3; i++) {
      expect((await loginAs({ email: session.user.email, password: session.password, tenantSlug: session.tenant.slug }, address)).statusCode).toBe(200);
    }
    expect((await loginAs({ email: 'ultimo@x.test', password: 'Incorrecta1', tenantSlug: session.tenant.slug }, address)).statusCode).toBe(401);
    expect((await loginAs({ email: 'sobra@x.test', password: 'Incorrecta1', tenantSlug: session.tenant.slug }, address)).statusCode).toBe(429);
  });
});

describe('TRUST_PROXY behind a proxy', () => {
  let behindProxy: TestApp;
  beforeAll(async () => {
    behindProxy = await buildTestApp({ trustProxy: 1 });
  });
  afterAll(async () => behindProxy.close());

  it("throttles the forwarded client address, not the proxy's", async () => {
    const session = await registerTenant(behindProxy.app);
    const guess = (client: string, i: number) =>
      behindProxy.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '10.0.0.2',
        headers: { 'x-forwarded-for': client },
        payload: { email: `cliente${i}@x.test`, password: 'Incorrecta1', tenantSlug: session.tenant.slug },
      });
    for (let i = 0; i < defaultThrottleLimits.perAddress; i++) expect((await guess('198.51.100.7', i)).statusCode).toBe(401);
    expect((await guess('198.51.100.7', 99)).statusCode).toBe(429);
    // Another client behind the same proxy is not punished for the first one.
    expect((await guess('198.51.100.8', 100)).statusCode).toBe(401);
  });
});

describe('sessions', () => {
  it('logout revokes the token', async () => {
    const session = await registerTenant(t.app);
    const logout = await post('/api/auth/logout', undefined, bearer(session.token));
    expect(logout.statusCode).toBe(204);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(session.token) });
    expect(me.statusCode).toBe(401);
  });

  it('refuses a missing, malformed or unknown token', async () => {
    for (const headers of [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer nope' }]) {
      const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers });
      expect(me.statusCode).toBe(401);
    }
  });

  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
  const lastUsedOf = async (token: string) => {
    const rows = await queryRows<{ last_used_at: string | Date }>(
      t.database.db,
      sql`select last_used_at from sessions where revoked_at is null and token_hash = encode(sha256(convert_to(${token}, 'UTF8')), 'hex')`,
    );
    return new Date(rows[0]!.last_used_at).getTime();
  };

  it('expires after 30 days without use, answering 401 like a revoked session', async () => {
    const session = await registerTenant(t.app);
    clock.advance(29 * DAY_MS);
    expect((await me(session.token)).statusCode).toBe(200);
    clock.advance(29 * DAY_MS);
    expect((await me(session.token)).statusCode).toBe(200);
    clock.advance(30 * DAY_MS);
    const expired = await me(session.token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ code: 'UNAUTHORIZED', message: 'Sesión inválida o expirada.' });
  });

  it('expires 90 days after sign-in however often it is used', async () => {
    const session = await registerTenant(t.app);
    for (let day = 20; day < 90; day += 20) {
      clock.advance(20 * DAY_MS);
      expect((await me(session.token)).statusCode, `day ${day}`).toBe(200);
    }
    clock.advance(10 * DAY_MS);
    expect((await me(session.token)).statusCode).toBe(401);
  });

  it('is judged by its stored times: a session created 91 days ago is expired even if used a minute ago', async () => {
    const session = await registerTenant(t.app);
    const now = clock.now().getTime();
    await t.database.db
      .update(sessions)
      .set({ createdAt: new Date(now - 91 * DAY_MS), lastUsedAt: new Date(now - 60_000) })
      .where(eq(sessions.userId, session.user.id));
    expect((await me(session.token)).statusCode).toBe(401);
  });

  it('writes the last-used time at most once a minute, never on every request', async () => {
    clock.freeze();
    try {
      const session = await registerTenant(t.app);
      const signedInAt = clock.now().getTime();
      expect(await lastUsedOf(session.token)).toBe(signedInAt);
      for (let i = 0; i < 5; i++) {
        clock.advance(10_000);
        expect((await me(session.token)).statusCode).toBe(200);
      }
      expect(await lastUsedOf(session.token)).toBe(signedInAt);
      clock.advance(15_000);
      expect((await me(session.token)).statusCode).toBe(200);
      expect(await lastUsedOf(session.token)).toBe(signedInAt + 65_000);
    } finally {
      clock.resume();
    }
  });

  it('stores only a hash of the token', async () => {
    const session = await registerTenant(t.app);
    const rows = await queryRows<{ token_hash: string }>(t.database.db, sql`select token_hash from sessions`);
    const hashes = rows.map((row) => row.token_hash);
    expect(hashes).not.toContain(session.token);
    expect(hashes.every((h) => /^[0-9a-f]{64}$/.test(h))).toBe(true);
  });
});

describe('PUT /api/auth/change-password', () => {
  it('revokes every session of the user, hands back a fresh one and swaps the password', async () => {
    const session = await registerTenant(t.app);
    const second = (await post('/api/auth/login', { email: session.user.email, password: session.password, tenantSlug: session.tenant.slug })).json();
    const change = await t.app.inject({ method: 'PUT', url: '/api/auth/change-password', headers: bearer(session.token), payload: { newPassword: 'simple' } });
    expect(change.statusCode).toBe(200);
    const answer = change.json();
    for (const old of [session.token, second.token]) {
      expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(old) })).statusCode).toBe(401);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(answer.token) })).statusCode).toBe(200);
    const oldLogin = await post('/api/auth/login', { email: session.user.email, password: session.password, tenantSlug: session.tenant.slug }, {}, '10.5.0.1');
    expect(oldLogin.statusCode).toBe(401);
    const newLogin = await post('/api/auth/login', { email: session.user.email, password: 'simple', tenantSlug: session.tenant.slug }, {}, '10.5.0.2');
    expect(newLogin.statusCode).toBe(200);
  });

  it('refuses an empty new password', async () => {
    const session = await registerTenant(t.app);
    const change = await t.app.inject({ method: 'PUT', url: '/api/auth/change-password', headers: bearer(session.token), payload: { newPassword: '' } });
    expect(change.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(session.token) })).statusCode).toBe(200);
  });
});

describe('forced password change', () => {
  async function userWithTemporaryPassword() {
    const owner = await registerTenant(t.app);
    const agent = await createUser(t.database.db, {
      tenantId: owner.tenant.id,
      name: 'Agente Temporal',
      email: `agente@${owner.tenant.slug}.test`,
      passwordHash: await hashPassword('TempPass1'),
      role: 'agent',
      forcePasswordChange: true,
    });
    const login = await post('/api/auth/login', { email: agent.email, password: 'TempPass1', tenantSlug: owner.tenant.slug });
    return { owner, agent, login: login.json() };
  }

  it('allows only me, change-password and logout until the password is changed', async () => {
    const { agent, owner, login } = await userWithTemporaryPassword();
    expect(login.user.force_password_change).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(login.token) })).statusCode).toBe(200);
    const blocked = await t.app.inject({
      method: 'PUT',
      url: `/t/${owner.tenant.slug}/api/users/${agent.id}`,
      headers: bearer(login.token),
      payload: { name: 'Otro' },
    });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().code).toBe('PASSWORD_CHANGE_REQUIRED');
  });

  it.each([
    ['Abc123', 'La contraseña debe tener al menos 8 caracteres.'],
    ['abcdefg1', 'Debe contener al menos una mayúscula.'],
    ['ABCDEFG1', 'Debe contener al menos una minúscula.'],
    ['Abcdefgh', 'Debe contener al menos un número.'],
  ])('enforces the four rules on a forced change: %s', async (newPassword, message) => {
    const { login } = await userWithTemporaryPassword();
    const change = await t.app.inject({ method: 'PUT', url: '/api/auth/change-password', headers: bearer(login.token), payload: { newPassword } });
    expect(change.statusCode).toBe(400);
    expect(change.json().message).toBe(message);
  });

  it('refuses the temporary password itself as the new one, and keeps the change pending', async () => {
    const { login } = await userWithTemporaryPassword();
    const change = await t.app.inject({ method: 'PUT', url: '/api/auth/change-password', headers: bearer(login.token), payload: { newPassword: 'TempPass1' } });
    expect(change.statusCode).toBe(400);
    expect(change.json().message).toBe(SAME_AS_TEMPORARY_PASSWORD);
    expect(SAME_AS_TEMPORARY_PASSWORD).toBe('La nueva contraseña debe ser distinta de la contraseña temporal.');
    const still = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(login.token) });
    expect(still.json().user.force_password_change).toBe(true);
  });

  it('clears the flag once a valid password is set', async () => {
    const { agent, owner, login } = await userWithTemporaryPassword();
    const change = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/change-password',
      headers: bearer(login.token),
      payload: { newPassword: 'Definitiva9' },
    });
    expect(change.statusCode).toBe(200);
    const { token, user } = change.json();
    expect(user.force_password_change).toBe(false);
    const rename = await t.app.inject({
      method: 'PUT',
      url: `/t/${owner.tenant.slug}/api/users/${agent.id}`,
      headers: bearer(token),
      payload: { name: 'Agente Fijo' },
    });
    expect(rename.statusCode).toBe(200);
  });
});
