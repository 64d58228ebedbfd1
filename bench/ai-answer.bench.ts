/**
 * The column assistant's overhead, the model excluded (issue 15): for each customer message posted to the inbound
 * webhook, the time until the model is asked (webhook → model request: store, domain event, listener, answer job,
 * context and knowledge search), and from the model's answer until the provider receives the send (model answer →
 * provider send: usage, outbox, send job). The model answers at once, so only Embudo's own work is timed; the job
 * workers run as in production. Figures only; nothing asserts a time.
 */
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { tenants } from '../apps/server/db/schema/index.ts';
import { openPglite, openPostgres } from '../apps/server/src/platform/db/database.ts';
import { createLogger } from '../apps/server/src/platform/logger/logger.ts';
import { buildApp } from '../apps/server/src/app.ts';
import type { AiModel } from '../apps/server/src/modules/ai/index.ts';

const TOTAL = Number(process.env.BENCH_AI_ANSWERS ?? 100);
const WARMUP = 5;

const asked = new Map<number, number>();
const answered = new Map<number, number>();
const sent = new Map<string, number>();
const indexOf = (text: string) => Number(/pregunta (\d+)/.exec(text)?.[1] ?? -1);

/** A model that answers at once: what is timed is everything around it. */
const instantModel: AiModel = {
  provider: 'sandbox',
  label: 'modelo instantáneo',
  async answer(request) {
    const index = indexOf(request.turns.at(-1)?.text ?? '');
    asked.set(index, performance.now());
    const answer = { text: `Respuesta ${index}`, toolCalls: [], usage: { inputTokens: 100, outputTokens: 20 }, model: 'instantaneo', latencyMs: 0 };
    answered.set(index, performance.now());
    return answer;
  },
  transcribe: () => Promise.reject(new Error('sin audio')),
};

const database = process.env.DATABASE_URL ? await openPostgres(process.env.DATABASE_URL) : await openPglite(undefined);
const app = await buildApp({
  db: database.db,
  logger: createLogger('silent'),
  mediaDir: os.tmpdir(),
  appSecret: 'bench-and-test-secret-0123456789abcdef',
  providerMode: 'sandbox',
  aiModel: instantModel,
  runJobs: true,
});
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

// The provider send: the in-process fake Gupshup receives the send request.
const fake = app.sandboxPhone!;
const handleSend = fake.handleSend.bind(fake);
fake.handleSend = async (path, headers, form) => {
  if (form['destination']) sent.set(form['destination'], performance.now());
  return handleSend(path, headers, form);
};

const slug = `bench-ai-${Date.now()}`;
const registered = (await (
  await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ companyName: 'Bench IA', companySlug: slug, userName: 'Bench', userEmail: 'bench@bench.test', userPassword: 'Bench12345' }),
  })
).json()) as { token: string; tenant: { id: string } };
await database.db.update(tenants).set({ subscriptionPlan: 'professional' }).where(eq(tenants.id, registered.tenant.id));
const auth = { authorization: `Bearer ${registered.token}`, 'content-type': 'application/json' };
const [funnel] = (await (await fetch(`${base}/t/${slug}/api/funnels/summary`, { headers: auth })).json()) as { id: string }[];
const [column] = (await (await fetch(`${base}/t/${slug}/api/funnels/${funnel!.id}/columns`, { headers: auth })).json()) as { id: string }[];
const saved = await fetch(`${base}/t/${slug}/api/columns/${column!.id}`, {
  method: 'PUT',
  headers: auth,
  body: JSON.stringify({ gemini_config: { isEnabled: true, systemPrompt: 'Responde breve.', tools: [], quietSeconds: 0 } }),
});
if (!saved.ok) throw new Error(`assistant not saved: ${saved.status} ${await saved.text()}`);
const settings = (await (await fetch(`${base}/t/${slug}/api/gupshup/settings`, { headers: auth })).json()) as { webhookUrl: string };
const webhookPath = new URL(settings.webhookUrl).pathname;

const phoneOf = (index: number) => `52155${String(index).padStart(8, '0')}`;
const webhookAt = new Map<number, number>();
for (let index = 0; index < WARMUP + TOTAL; index++) {
  const phone = phoneOf(index);
  const body = JSON.stringify({
    app: 'bench',
    timestamp: Date.now(),
    version: 2,
    type: 'message',
    payload: {
      id: `wamid.bench-ai.${index}`,
      source: phone,
      type: 'text',
      payload: { text: `pregunta ${index}` },
      sender: { phone, name: `Cliente ${index}` },
    },
  });
  webhookAt.set(index, performance.now());
  const response = await fetch(`${base}${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  if (response.status !== 200) throw new Error(`webhook answered ${response.status}`);
  // One answer at a time: each is timed alone.
  const deadline = Date.now() + 15_000;
  while (!sent.has(phone) && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
  if (!sent.has(phone)) throw new Error(`no answer was sent for message ${index}`);
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const measured = Array.from({ length: TOTAL }, (_, offset) => WARMUP + offset);
const toModel = measured.map((index) => asked.get(index)! - webhookAt.get(index)!);
const toProvider = measured.map((index) => sent.get(phoneOf(index))! - answered.get(index)!);
const line = (label: string, values: number[]) =>
  console.log(`  ${label.padEnd(34)} median ${percentile(values, 50).toFixed(1).padStart(7)} ms   p99 ${percentile(values, 99).toFixed(1).padStart(7)} ms`);

console.log(`\nAI assistant answer overhead, model excluded (${TOTAL} answers, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, job workers on)`);
line('webhook → model request', toModel);
line('model answer → provider send', toProvider);
line(
  'both (all but the model)',
  measured.map((_, position) => toModel[position]! + toProvider[position]!),
);

await app.close();
await database.close();
process.exit(0);
