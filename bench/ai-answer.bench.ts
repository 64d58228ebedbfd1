/**
 * The column assistant's overhead, the model excluded (issue 15): for each customer message posted to the inbound
 * webhook, the time until the model is asked (webhook → model request: store, domain event, listener, answer job,
 * context and knowledge search), and from the model's answer until the provider receives the send (model answer →
 * provider send: usage, outbox, send job). The model answers at once, so only Embudo's own work is timed; the job
 * workers run as in production. Figures only; nothing asserts a time.
 */
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { tenants } from '../apps/server/db/schema/index.ts';
import type { AiModel } from '../apps/server/src/modules/ai/index.ts';
import { fmt, knob, percentile, phoneOf, inboundText, registerCompany, ResultTable, startBenchApp, webhookPathOf } from './support.ts';

const TOTAL = knob('BENCH_AI_ANSWERS', 100);
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

const bench = await startBenchApp({ aiModel: instantModel });
const { app, base, database } = bench;

// The provider send: the in-process fake Gupshup receives the send request.
const fake = app.sandboxPhone!;
const handleSend = fake.handleSend.bind(fake);
fake.handleSend = async (path, headers, form) => {
  if (form['destination']) sent.set(form['destination'], performance.now());
  return handleSend(path, headers, form);
};

const registered = await registerCompany(base, 'ai');
const slug = registered.slug;
await database.db.update(tenants).set({ subscriptionPlan: 'professional' }).where(eq(tenants.id, registered.tenant.id));
const auth = { authorization: `Bearer ${registered.token}`, 'content-type': 'application/json' };
const [funnel] = await registered.get<{ id: string }[]>('/funnels/summary');
const [column] = await registered.get<{ id: string }[]>(`/funnels/${funnel!.id}/columns`);
const saved = await fetch(`${base}/t/${slug}/api/columns/${column!.id}`, {
  method: 'PUT',
  headers: auth,
  body: JSON.stringify({ gemini_config: { isEnabled: true, systemPrompt: 'Responde breve.', tools: [], quietSeconds: 0 } }),
});
if (!saved.ok) throw new Error(`assistant not saved: ${saved.status} ${await saved.text()}`);
const webhookPath = await webhookPathOf(registered);

const webhookAt = new Map<number, number>();
for (let index = 0; index < WARMUP + TOTAL; index++) {
  const phone = phoneOf(index);
  const body = inboundText(`wamid.bench-ai.${index}`, phone, `pregunta ${index}`);
  webhookAt.set(index, performance.now());
  const response = await fetch(`${base}${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  if (response.status !== 200) throw new Error(`webhook answered ${response.status}`);
  // One answer at a time: each is timed alone.
  const deadline = Date.now() + 15_000;
  while (!sent.has(phone) && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
  if (!sent.has(phone)) throw new Error(`no answer was sent for message ${index}`);
}

const measured = Array.from({ length: TOTAL }, (_, offset) => WARMUP + offset);
const toModel = measured.map((index) => asked.get(index)! - webhookAt.get(index)!);
const toProvider = measured.map((index) => sent.get(phoneOf(index))! - answered.get(index)!);
const both = measured.map((_, position) => toModel[position]! + toProvider[position]!);
const table = new ResultTable('ai-answer', bench.databaseLabel);
const line = (label: string, values: number[]) =>
  table.add(
    `AI answer overhead, model excluded (${TOTAL} answers): ${label}`,
    `median ${fmt.ms(percentile(values, 50))}, p99 ${fmt.ms(percentile(values, 99))}`,
  );
line('webhook → model request', toModel);
line('model answer → provider send', toProvider);
line('both (all but the model)', both);
table.print();
await bench.close();
process.exit(0);
