import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { cards, messages } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { connectClient, joinTenant, listenOnRandomPort, type TestSocket } from '../../../test/support/realtime-client.ts';
import { createSandboxAiModel, type AiModel } from '../../modules/ai/index.ts';
import { sandboxAppName } from '../../modules/tenants/index.ts';
import { defineJob } from '../queue/job-definition.ts';
import { meterAiModel } from './ai-metering.ts';
import { createMetrics } from './metrics.ts';

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

/** The value of one series in Prometheus' text format (labels in any order), or undefined when absent. */
function value(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((label) => [label[1], label[2]]));
    if (Object.entries(labels).every(([key, wanted]) => present[key] === wanted)) return Number(match[3]);
  }
  return undefined;
}

const scrape = async () => {
  const response = await t.app.inject({ method: 'GET', url: '/metrics' });
  expect(response.statusCode).toBe(200);
  return response.body;
};

async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found) return found;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await t.app.queue.runDueJobsOnce();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('GET /metrics series', () => {
  it('counts requests by route template and status in a duration histogram', async () => {
    await t.app.inject({ method: 'GET', url: '/api/tenants/check-slug/uno' });
    await t.app.inject({ method: 'GET', url: '/api/tenants/check-slug/dos' });
    await t.app.inject({ method: 'GET', url: '/api/no-such-route-anywhere' });
    const text = await scrape();
    expect(value(text, 'embudo_http_request_duration_seconds_count', { route: '/api/tenants/check-slug/:slug', status_code: '200', method: 'GET' })).toBe(2);
    expect(value(text, 'embudo_http_request_duration_seconds_count', { route: 'unmatched', status_code: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('no-such-route-anywhere');
  });

  it('counts webhook deliveries by outcome, the outbox lag, sockets, realtime emits and job runs', async () => {
    const owner = await registerTenant(t.app);
    const socket = connectClient(baseUrl, owner.token, owner.tenant.slug);
    sockets.push(socket);
    expect(await joinTenant(socket, owner.tenant.slug, owner.token)).toEqual({ ok: true });
    const before = await scrape();
    expect(value(before, 'embudo_realtime_connected_sockets')).toBe(1);
    const outcome = (text: string, name: string) => value(text, 'embudo_webhook_deliveries_total', { outcome: name }) ?? 0;

    const settings = (await t.app.inject({ method: 'GET', url: '/api/gupshup/settings', headers: bearer(owner.token) })).json();
    const path = new URL(settings.webhookUrl as string).pathname;
    const delivery = JSON.stringify({
      app: sandboxAppName(owner.tenant),
      timestamp: Date.now(),
      version: 2,
      type: 'message',
      payload: {
        id: `wamid.${crypto.randomUUID()}`,
        source: '5215512345678',
        type: 'text',
        payload: { text: 'Hola' },
        sender: { phone: '5215512345678', name: 'Ana' },
      },
    });
    const deliver = (url: string, body: string) => t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body });
    expect((await deliver(path, delivery)).statusCode).toBe(200);
    expect((await deliver(path, delivery)).statusCode).toBe(200);
    expect((await deliver(path, '{"roto":')).statusCode).toBe(200);
    expect((await deliver(path.replace(/[^/]+$/, 'otro-secreto'), delivery)).statusCode).toBe(401);
    const delivered = await scrape();
    expect(outcome(delivered, 'stored') - outcome(before, 'stored')).toBe(1);
    expect(outcome(delivered, 'duplicate') - outcome(before, 'duplicate')).toBe(1);
    expect(outcome(delivered, 'malformed') - outcome(before, 'malformed')).toBe(1);
    expect(outcome(delivered, 'refused') - outcome(before, 'refused')).toBe(1);

    const [card] = await t.database.db
      .select()
      .from(cards)
      .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, '5215512345678')));
    const sent = await t.app.inject({ method: 'POST', url: '/api/message', headers: bearer(owner.token), payload: { cardId: card!.id, text: 'Con gusto' } });
    expect(sent.statusCode).toBe(201);
    await until(async () => {
      const [row] = await t.database.db
        .select()
        .from(messages)
        .where(eq(messages.id, sent.json().id as string));
      return row?.ack === 3;
    });
    await t.app.queue.drain();

    const after = await scrape();
    // The provider's statuses of the reply came back through the webhook too.
    expect(outcome(after, 'stored') - outcome(delivered, 'stored')).toBeGreaterThanOrEqual(1);
    expect(value(after, 'embudo_outbox_lag_seconds_count')).toBe(1);
    expect(value(after, 'embudo_realtime_emits_total', { event: 'message:new' })).toBeGreaterThanOrEqual(2);
    expect(value(after, 'embudo_job_duration_seconds_count', { job: 'chats.send-message', outcome: 'completed' })).toBe(1);
  });

  it('counts failed runs by job name, and the queue depth and the age of the oldest due job', async () => {
    let runs = 0;
    const broken = defineJob({
      name: 'test.metrics-broken',
      payload: z.object({}),
      maxAttempts: 2,
      backoff: { baseMs: 1, maxMs: 1 },
      handler: async () => {
        runs += 1;
        throw new Error('no');
      },
    });
    const idle = defineJob({ name: 'test.metrics-idle', payload: z.object({}), handler: async () => {} });
    t.app.queue.register(broken);
    t.app.queue.register(idle);
    await t.app.queue.enqueue(t.database.db, broken, {});
    await t.app.queue.runDueJobsOnce();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await t.app.queue.runDueJobsOnce();
    expect(runs).toBe(2);
    await t.app.queue.enqueue(t.database.db, idle, {}, { runAt: new Date(Date.now() - 90_000) });
    await t.app.queue.enqueue(t.database.db, idle, {}, { delayMs: 3_600_000 });
    // The queue is read once per scrape at most every second: a fresh read.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const text = await scrape();
    expect(value(text, 'embudo_job_failures_total', { job: 'test.metrics-broken', final: 'false' })).toBe(1);
    expect(value(text, 'embudo_job_failures_total', { job: 'test.metrics-broken', final: 'true' })).toBe(1);
    expect(value(text, 'embudo_job_duration_seconds_count', { job: 'test.metrics-broken', outcome: 'failed' })).toBe(1);
    expect(value(text, 'embudo_jobs', { state: 'due' })).toBeGreaterThanOrEqual(1);
    expect(value(text, 'embudo_jobs', { state: 'scheduled' })).toBeGreaterThanOrEqual(1);
    expect(value(text, 'embudo_jobs', { state: 'failed' })).toBeGreaterThanOrEqual(1);
    expect(value(text, 'embudo_jobs_oldest_due_age_seconds')).toBeGreaterThanOrEqual(89);
    await t.app.queue.drain();
  });

  it('counts AI calls and their tokens by provider, whatever part of the app calls the model', async () => {
    const metrics = createMetrics();
    const model: AiModel = meterAiModel(createSandboxAiModel(), metrics);
    const answer = await model.answer({ instructions: 'Eres el asistente de una tienda.', turns: [{ role: 'customer', text: 'Hola' }], tools: [] });
    expect(model.provider).toBe('sandbox');
    const text = await metrics.registry.metrics();
    expect(value(text, 'embudo_ai_calls_total', { provider: 'sandbox', kind: 'answer', outcome: 'ok' })).toBe(1);
    expect(value(text, 'embudo_ai_tokens_total', { provider: 'sandbox', direction: 'input' })).toBe(answer.usage.inputTokens);
    expect(value(text, 'embudo_ai_tokens_total', { provider: 'sandbox', direction: 'output' })).toBe(answer.usage.outputTokens);
    expect(answer.usage.inputTokens).toBeGreaterThan(0);
  });

  it('has every series the sample Grafana dashboard (docs/operations) queries', async () => {
    const dashboard = fs.readFileSync(path.resolve(import.meta.dirname, '../../../../../docs/operations/grafana-dashboard.json'), 'utf8');
    const queried = new Set([...dashboard.matchAll(/\b((?:embudo|nodejs|process)_\w+?)(?:_bucket|_count|_sum)?\b/g)].map((match) => match[1]!));
    const exposed = new Set([...(await scrape()).matchAll(/^# TYPE (\w+) /gm)].map((match) => match[1]!));
    expect([...queried].filter((name) => !exposed.has(name))).toEqual([]);
    expect(queried.size).toBeGreaterThan(10);
  });
});
