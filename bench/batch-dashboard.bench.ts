/**
 * The bulk-send dashboard of a company with a long history: BENCH_DASHBOARD_BATCHES (100) batches of
 * BENCH_DASHBOARD_ROWS (1,000) rows, every row sent and read. The first batch goes through the whole pipeline; the
 * others are copies of it written straight to the tables (its messages and rows, new ids). Then GET /api/batches:
 * - one call at a time (p50), and one after a change to every batch, which recounts them all (p50);
 * - as BENCH_DASHBOARD_VIEWERS (20) members watching it live: each `batch_updated` (at most every 500 ms per batch
 *   while a send runs) has every open dashboard ask again, so every 500 ms all of them ask at once, for
 *   BENCH_DASHBOARD_S (10) seconds: their answer p50 / p95;
 * - and what that does to everyone else: GET check-slug (one indexed read) at 50 calls a second, p95 idle and while
 *   the members watch (target ≤ 3, as for the API during a bulk send);
 * - then the same while a campaign of BENCH_DASHBOARD_LIVE_ROWS (100,000) rows is being sent: its messages' statuses
 *   (delivered) arrive through the webhook at BENCH_DASHBOARD_STATUS_RATE (80 a second, Meta's default pace), each
 *   moving its counts. The campaign is written straight to the tables: the first batch's rows and messages, copied
 *   100 times into one batch, every message sent and waiting for its statuses.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { ROWS_PER_COUNT_SLICE } from '../apps/server/db/schema/index.ts';
import { startBulkSendBench, type Batch } from './bulk-send-fixture.ts';
import { loadOffThread } from './load-off-thread.ts';
import {
  describeFailures,
  fmt,
  knob,
  percentile,
  ResultTable,
  setSendRate,
  signInPlatformAdmin,
  sleep,
  startWorkers,
  steadyCheckSlug,
  webhookPathOf,
} from './support.ts';

const BATCHES = knob('BENCH_DASHBOARD_BATCHES', 100);
const ROWS = knob('BENCH_DASHBOARD_ROWS', 1000);
const VIEWERS = knob('BENCH_DASHBOARD_VIEWERS', 20);
const WATCH_MS = knob('BENCH_DASHBOARD_S', 10) * 1000;
const REFRESH_MS = 500;
const PROBE_RATE = knob('BENCH_DASHBOARD_PROBE_RATE', 50);
const LIVE_ROWS = knob('BENCH_DASHBOARD_LIVE_ROWS', 100_000);
const STATUS_RATE = knob('BENCH_DASHBOARD_STATUS_RATE', 80);

const bench = await startBulkSendBench({ runJobs: false });
const { database, app, company } = bench;
const table = new ResultTable('batch-dashboard', bench.databaseLabel);
await setSendRate(bench.base, await signInPlatformAdmin(database.db, bench.base), company.tenant.id, 1000);

const { id: firstBatch } = await bench.uploadBatch(ROWS);
startWorkers(app);
const deadline = performance.now() + 300_000;
for (let batch: Batch | undefined; (batch = await bench.batch(firstBatch))?.read_count !== ROWS; await sleep(250)) {
  if (performance.now() > deadline) throw new Error(`the first batch did not reach read: ${JSON.stringify(batch)}`);
}
await app.queue.stop();

/** The count slices the upload gives a batch, for the batches copied straight into the tables. */
async function addCountSlicesOfCopies() {
  await database.db.execute(sql`
    insert into batch_count_slices (batch_id, slice)
    select distinct batch_id, row_number / ${ROWS_PER_COUNT_SLICE}::int from batch_recipients
    where tenant_id = ${company.tenant.id}
    on conflict do nothing`);
}

// The history: copies of the first batch, each with messages of its own (same chats, statuses and times).
for (let copy = 1; copy < BATCHES; copy++) {
  await database.db.execute(sql`
    with batch as (
      insert into batches (tenant_id, funnel_id, target_column_id, template_id, template_name, user_id, user_name, file_name)
      select tenant_id, funnel_id, target_column_id, template_id, template_name, user_id, user_name, file_name from batches where id = ${firstBatch}
      returning id),
    rows as (select r.*, gen_random_uuid() as copied_message_id from batch_recipients r where r.batch_id = ${firstBatch}),
    copied as (
      insert into messages (id, tenant_id, card_id, sender, text, type, ack, template_id, template_category, payload, created_at)
      select rows.copied_message_id, m.tenant_id, m.card_id, m.sender, m.text, m.type, m.ack, m.template_id, m.template_category, m.payload, m.created_at
      from rows join messages m on m.id = rows.message_id)
    insert into batch_recipients (tenant_id, batch_id, row_number, position, phone, contact_name, variables, status, card_id, message_id)
    select rows.tenant_id, batch.id, rows.row_number, rows.position, rows.phone, rows.contact_name, rows.variables, rows.status, rows.card_id, rows.copied_message_id
    from rows, batch`);
}
await addCountSlicesOfCopies();
await database.db.execute(sql`analyze`);

const list = async () => {
  const started = performance.now();
  const batches = await company.get<Batch[]>('/batches');
  if (batches.length !== BATCHES) throw new Error(`the list has ${batches.length} batches, not ${BATCHES}`);
  return performance.now() - started;
};

/** check-slug at a steady BENCH_DASHBOARD_PROBE_RATE (50) calls a second for `ms`. */
const indexedReads = (ms: number) => steadyCheckSlug(bench.base, ms, PROBE_RATE);

for (let i = 0; i < 3; i++) await list();
// A call after a change to every batch recounts them all: what every call cost when no count was kept.
const recountingAll: number[] = [];
for (let i = 0; i < 5; i++) {
  await database.db.execute(
    sql`update batch_count_slices set changes = changes + 1 where batch_id in (select id from batches where tenant_id = ${company.tenant.id})`,
  );
  recountingAll.push(await list());
  // Past the spacing of reads (three times the last one's time), so each call is timed alone.
  await sleep(4 * recountingAll.at(-1)!);
}
const alone: number[] = [];
for (let i = 0; i < 10; i++) alone.push(await list());
const idle = await indexedReads(5_000);

/** VIEWERS members watching the dashboard for WATCH_MS: their answer times, and check-slug's meanwhile. */
async function watch() {
  const watchEnd = performance.now() + WATCH_MS;
  const answers: number[] = [];
  // Each member asks at every refresh, once its previous answer came (a refresh due while it waits is skipped).
  const watching = Promise.all(
    Array.from({ length: VIEWERS }, async () => {
      for (let tick = performance.now(); tick < watchEnd;) {
        answers.push(await list());
        while (tick <= performance.now()) tick += REFRESH_MS;
        if (tick < watchEnd) await sleep(tick - performance.now());
      }
    }),
  );
  const probes = await indexedReads(WATCH_MS);
  await watching;
  return { answers, probes };
}
const sent = await watch();

// The campaign being sent: one batch of LIVE_ROWS rows, copies of the first batch's, its messages accepted by the
// provider (ids of their own) and not delivered yet.
const copies = Math.ceil(LIVE_ROWS / ROWS);
await database.db.execute(sql`
  with batch as (
    insert into batches (tenant_id, funnel_id, target_column_id, template_id, template_name, user_id, user_name, file_name)
    select tenant_id, funnel_id, target_column_id, template_id, template_name, user_id, user_name, file_name from batches where id = ${firstBatch}
    returning id),
  rows as (
    select r.*, copy, gen_random_uuid() as copied_message_id
    from batch_recipients r, generate_series(0, ${copies - 1}) as copy
    where r.batch_id = ${firstBatch}),
  copied as (
    insert into messages (id, tenant_id, card_id, sender, text, type, ack, template_id, template_category, payload, created_at, provider_message_id)
    select rows.copied_message_id, m.tenant_id, m.card_id, m.sender, m.text, m.type, 1, m.template_id, m.template_category, m.payload, m.created_at,
      'live-' || rows.copy || '-' || rows.row_number
    from rows join messages m on m.id = rows.message_id)
  insert into batch_recipients (tenant_id, batch_id, row_number, position, phone, contact_name, variables, status, card_id, message_id)
  select rows.tenant_id, batch.id, rows.row_number + rows.copy * ${ROWS}, rows.position + rows.copy * ${ROWS}, rows.phone || '-' || rows.copy,
    rows.contact_name, rows.variables, rows.status, rows.card_id, rows.copied_message_id
  from rows, batch`);
await addCountSlicesOfCopies();
await database.db.execute(sql`analyze`);
for (let i = 0; i < 3; i++) await list();
const liveRows = copies * ROWS;
const delivered = (index: number) =>
  JSON.stringify({
    app: 'bench',
    timestamp: Date.now(),
    version: 2,
    type: 'message-event',
    payload: {
      id: `wamid.live-${index}`,
      gsId: `live-${Math.floor(index / ROWS)}-${(index % ROWS) + 2}`,
      type: 'delivered',
      destination: '5215500000000',
      payload: { ts: Math.floor(Date.now() / 1000) },
    },
  });
const statusCount = Math.min(liveRows, Math.round(((WATCH_MS + 2_000) / 1000) * STATUS_RATE));
const statuses = loadOffThread({
  urls: [`${bench.base}${await webhookPathOf(company)}`],
  total: statusCount,
  concurrency: 50,
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  bodies: Array.from({ length: statusCount }, (_, index) => delivered(index)),
  intervalMs: 1000 / STATUS_RATE,
});
const live = await watch();
const statusesPosted = await statuses;
if (statusesPosted.failures.size > 0) throw new Error(`status webhooks failed: ${describeFailures(statusesPosted)}`);
const [{ deliveredCount } = { deliveredCount: 0 }] = await company
  .get<Array<{ delivered_count: number }>>('/batches')
  .then((listed) => listed.slice(0, 1).map((batch) => ({ deliveredCount: batch.delivered_count })));

const history = `${BATCHES} batches × ${fmt.count(ROWS)} rows`;
table.add(`GET /api/batches, ${history}: after a change to every batch (all recounted), p50`, fmt.ms(percentile(recountingAll, 50)));
table.add(`GET /api/batches, ${history}: one call at a time, p50`, fmt.ms(percentile(alone, 50)));
const watchedFigures = (label: string, { answers, probes }: Awaited<ReturnType<typeof watch>>) => {
  table.add(
    `GET /api/batches, ${label}: ${VIEWERS} members asking every ${REFRESH_MS} ms, answer p50 / p95`,
    `${fmt.ms(percentile(answers, 50))} / ${fmt.ms(percentile(answers, 95))}`,
  );
  table.add(
    `GET check-slug (one indexed read) p95 while ${VIEWERS} members watch the dashboard, ${label}`,
    fmt.ms(percentile(probes.latencies, 95)),
    `idle p95 ${fmt.ms(percentile(idle.latencies, 95))}`,
    percentile(probes.latencies, 95) / percentile(idle.latencies, 95),
  );
  table.add(`GET check-slug while they watch, ${label}: timeouts (> 120 s)`, fmt.count(probes.timeouts), 'target 0');
};
watchedFigures(history, sent);
const liveLabel = `${fmt.count(liveRows)}-row campaign receiving ${STATUS_RATE} statuses/s`;
watchedFigures(liveLabel, live);
table.add(`${liveLabel}: delivered count shown after ${fmt.count(statusCount)} statuses`, fmt.count(deliveredCount));
table.print();
await bench.close();
