/**
 * The embedded database's upkeep on a large `messages` table (docs/decisions/0019): PGlite runs on the server's
 * thread, so while the upkeep vacuums and analyzes a table every request waits. Seeds BENCH_UPKEEP_MESSAGES (300,000)
 * messages of one company with texts like customers' and some template payloads, vacuums them once, then has a
 * quarter of them change (as statuses do) and runs one look of the upkeep while a cheap request (check-slug) goes out
 * every 10 ms from another thread. Prints the look's time, the longest wait of those requests against their idle
 * p50, and `analyze messages` alone. PGlite only: PostgreSQL vacuums in workers of its own. Figures only.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { upkeepEmbeddedTables } from '../apps/server/src/platform/maintenance/embedded-vacuum.ts';
import {
  CHECK_SLUG_LABEL,
  fmt,
  inboundText,
  knob,
  percentile,
  phoneOf,
  postWebhooks,
  registerCompany,
  ResultTable,
  sleep,
  startBenchApp,
  steadyCheckSlug,
  storedMessages,
  waitForCount,
  webhookPathOf,
} from './support.ts';

if (process.env.DATABASE_URL) throw new Error('embedded-upkeep measures the embedded database: run it without DATABASE_URL');

const MESSAGES = knob('BENCH_UPKEEP_MESSAGES', 300_000);
const CHATS = 50;
const PROBES_PER_SECOND = 100;

const bench = await startBenchApp();
const db = bench.database.db;
const company = await registerCompany(bench.base);
const webhookUrl = `${bench.base}${await webhookPathOf(company)}`;
await postWebhooks([webhookUrl], CHATS, 8, (index) => inboundText(`upkeep-${index}`, phoneOf(index), `hola ${index}`));
await waitForCount(() => storedMessages(db, company.tenant.id), CHATS);
// The bench runs the look itself, when it measures.
await bench.app.embeddedUpkeep?.stop();

// A third from customers, the rest sent (a fifth of them templates with buttons), spread over the company's chats.
await db.execute(sql`
  with chats as (select array_agg(distinct card_id) as ids from messages where tenant_id = ${company.tenant.id})
  insert into messages (tenant_id, card_id, sender, text, type, provider_message_id, ack, payload, created_at)
  select ${company.tenant.id}, chats.ids[1 + n % ${CHATS}], case when n % 3 = 0 then 'contact' else 'user' end,
    'Hola, quisiera saber el precio del producto número ' || n || ' y si tienen envío a domicilio esta semana. ' || md5(n::text),
    case when n % 5 = 0 then 'template' else 'text' end, 'seed-' || n, 1,
    case when n % 5 = 0 then jsonb_build_object('buttons', jsonb_build_array('Sí, me interesa', 'No, gracias'), 'row', n) end,
    now() - make_interval(secs => n)
  from generate_series(1, ${MESSAGES}) as n, chats`);
await db.execute(sql`vacuum (analyze) messages`);
const changeAQuarter = () =>
  db.execute(sql`update messages set ack = ack + 1 where tenant_id = ${company.tenant.id} and provider_message_id like 'seed-%'
    and substr(provider_message_id, 6)::int % 4 = 0`);

const probe = (durationMs: number) => steadyCheckSlug(bench.base, durationMs, PROBES_PER_SECOND);

const idle = await probe(2_000);
await changeAQuarter();
const busyProbe = probe(4_000);
await sleep(500);
const lookStarted = performance.now();
const due = await upkeepEmbeddedTables(db);
const lookMs = performance.now() - lookStarted;
const busy = await busyProbe;
await changeAQuarter();
const analyzeStarted = performance.now();
await db.execute(sql`analyze messages`);
const analyzeMs = performance.now() - analyzeStarted;

const idleP50 = percentile(idle.latencies, 50);
const longest = percentile(busy.latencies, 100);
const table = new ResultTable('embedded upkeep', bench.databaseLabel);
const scale = `${fmt.count(MESSAGES)} messages, a quarter changed`;
table.add(
  `one look of the upkeep (${scale}): ${due.map((upkeep) => `${upkeep.vacuum ? 'vacuum, analyze' : 'analyze'} ${upkeep.table}`).join(', ')}`,
  fmt.ms(lookMs),
);
table.add(
  `${CHECK_SLUG_LABEL} every ${1000 / PROBES_PER_SECOND} ms during the look: longest wait`,
  fmt.ms(longest),
  `idle p50 ${fmt.ms(idleP50)}`,
  longest / idleP50,
);
table.add(`analyze messages alone (${scale})`, fmt.ms(analyzeMs));
table.print();
await bench.close();
