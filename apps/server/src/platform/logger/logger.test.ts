import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { cards, jobs } from '../../../db/schema/index.ts';
import { TEST_APP_SECRET } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant, registrationPayload } from '../../../test/support/factories.ts';
import { createTestDatabase } from '../../../test/support/test-database.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { buildApp, type App } from '../../app.ts';
import { sandboxAppName } from '../../modules/tenants/index.ts';
import { defineListener } from '../events/index.ts';
import { createLogger, loggableUrl } from './logger.ts';

/** Every line the app writes, parsed. */
const lines: string[] = [];
const capture = { write: (line: string) => void lines.push(line) };
const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: App;
const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-logs-'));

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp({
    db: database.db,
    logger: createLogger('trace', { destination: capture, pretty: false }),
    mediaDir,
    appSecret: TEST_APP_SECRET,
    providerMode: 'sandbox',
  });
  await listenOnRandomPort(app);
});
afterAll(async () => {
  await app.close();
  await database.close();
  fs.rmSync(mediaDir, { recursive: true, force: true });
});

const CUSTOMER_TEXT = 'Texto-Privado-Cliente-7781';
const TEAM_TEXT = 'Respuesta-Privada-Equipo-5523';

describe('request ids', () => {
  it('answers one id per request: the one a proxy sent when it looks like an id, a new UUID otherwise', async () => {
    const given = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'proxy-id-0123456789' } });
    expect(given.headers['x-request-id']).toBe('proxy-id-0123456789');
    const odd = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'no ok\u0001' } });
    expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const fresh = await app.inject({ method: 'GET', url: '/healthz' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(fresh.headers['x-request-id']).not.toBe(odd.headers['x-request-id']);
  });

  it("carries the request's id into every job and event it creates, into the jobs those create, and onto their log lines", async () => {
    lines.length = 0;
    // No bot, assistant or batch reacts to this chat: this listener gives its customer's message a job to follow.
    app.domainEvents.register(
      defineListener({ name: 'test.every-customer-message', event: 'customer-message.stored', receipts: false, handle: async () => {} }),
    );
    const payload = registrationPayload();
    const owner = await registerTenant(app, payload);
    const settings = (await app.inject({ method: 'GET', url: '/api/gupshup/settings', headers: bearer(owner.token) })).json();
    const webhookPath = new URL(settings.webhookUrl as string).pathname;
    const secret = webhookPath.split('/').pop()!;
    const delivery = JSON.stringify({
      app: sandboxAppName(owner.tenant),
      timestamp: Date.now(),
      version: 2,
      type: 'message',
      payload: {
        id: `wamid.${crypto.randomUUID()}`,
        source: '5215512345678',
        type: 'text',
        payload: { text: CUSTOMER_TEXT },
        sender: { phone: '5215512345678', name: 'Ana' },
      },
    });
    const received = await app.inject({
      method: 'POST',
      url: webhookPath,
      headers: { 'content-type': 'application/json', 'x-request-id': 'webhook-request-0001' },
      body: delivery,
    });
    expect(received.statusCode).toBe(200);
    // Applied right after the answer, with the request's id (docs/decisions/0015).
    await app.webhookIntake.drain();
    const fromWebhook = await database.db.select().from(jobs).where(eq(jobs.requestId, 'webhook-request-0001'));
    // One job per listener of customer-message.stored that the message concerns, each carrying the id.
    expect(fromWebhook.length).toBeGreaterThan(0);
    expect(fromWebhook.every((job) => job.name.startsWith('event.') && job.tenantId === owner.tenant.id)).toBe(true);

    const [card] = await database.db
      .select()
      .from(cards)
      .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, '5215512345678')));
    const sent = await app.inject({
      method: 'POST',
      url: '/api/message',
      headers: { ...bearer(owner.token), 'x-request-id': 'send-request-0002' },
      payload: { cardId: card!.id, text: TEAM_TEXT },
    });
    expect(sent.statusCode).toBe(201);
    await app.queue.drain();
    const sendJob = (await database.db.select().from(jobs).where(eq(jobs.requestId, 'send-request-0002'))).find((job) => job.name === 'chats.send-message');
    expect(sendJob).toMatchObject({ status: 'completed', tenantId: owner.tenant.id });
    // The send published events (the team's reply, which pauses the assistant) whose listener jobs carry the request's id on.
    const followUps = await database.db.select().from(jobs).where(eq(jobs.requestId, 'send-request-0002'));
    expect(followUps.some((job) => job.name.startsWith('event.'))).toBe(true);

    const jobLines = logged().filter((line) => line.jobId === sendJob!.id);
    expect(jobLines.length).toBeGreaterThan(0);
    expect(jobLines.every((line) => line.requestId === 'send-request-0002')).toBe(true);
    const requestLines = logged().filter((line) => line.msg === 'incoming request' && line.requestId === 'webhook-request-0001');
    expect(requestLines).toHaveLength(1);

    // Never a secret, a password, a session token nor what the customer and the team wrote.
    const everything = lines.join('\n');
    for (const secretValue of [CUSTOMER_TEXT, TEAM_TEXT, payload.userPassword as string, owner.token, secret]) {
      expect(everything).not.toContain(secretValue);
    }
    expect(JSON.stringify(requestLines[0]!.req)).toContain('/[redacted]');
  });
});

describe('redaction', () => {
  it('masks credentials and message texts wherever a log call puts them (one level deep)', () => {
    const out: string[] = [];
    const logger = createLogger('info', { destination: { write: (line: string) => void out.push(line) }, pretty: false });
    logger.info(
      {
        password: 'p4ss',
        apiKey: 'k3y',
        token: 't0k',
        message: { text: 'hola', caption: 'foto' },
        req: { headers: { authorization: 'Bearer x' } },
        messageId: 'm-1',
      },
      'something happened',
    );
    const line = JSON.parse(out[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({
      password: '[redacted]',
      apiKey: '[redacted]',
      token: '[redacted]',
      message: { text: '[redacted]', caption: '[redacted]' },
      req: { headers: { authorization: '[redacted]' } },
      messageId: 'm-1',
    });
  });

  it("masks a webhook's secret path segment and credential-looking query values in logged URLs", () => {
    expect(loggableUrl('/webhooks/gupshup/5b0cbd4e-7d4c-4a3f-9d44-1f8f0a2c9e11/s3cr3t')).toBe(
      '/webhooks/gupshup/5b0cbd4e-7d4c-4a3f-9d44-1f8f0a2c9e11/[redacted]',
    );
    expect(loggableUrl('/socket.io/?EIO=4&token=abc&tenantSlug=acme')).toBe('/socket.io/?EIO=4&token=[redacted]&tenantSlug=acme');
    expect(loggableUrl('/api/cards?id=1')).toBe('/api/cards?id=1');
  });
});

describe('output format', () => {
  it('writes human-readable lines (pino-pretty) when asked, as on a terminal, and JSON otherwise', () => {
    const pretty: string[] = [];
    createLogger('info', { destination: { write: (line: string) => void pretty.push(line) }, pretty: true }).info({ jobId: 'j-1' }, 'hola');
    expect(pretty.join('')).toMatch(/INFO.*hola/);
    expect(pretty.join('')).toContain('jobId: "j-1"');
    expect(() => JSON.parse(pretty.join(''))).toThrow();
    const json: string[] = [];
    createLogger('info', { destination: { write: (line: string) => void json.push(line) }, pretty: false }).info('hola');
    expect(JSON.parse(json[0]!)).toMatchObject({ level: 30, msg: 'hola' });
  });
});
