/**
 * The bulk send pipeline (upload and checks, chunk jobs, the outbox's send jobs, the sandbox provider and its status
 * webhooks), unpaced and paced.
 * - Unpaced (BENCH_ROWS, chunks not spaced, the company's send rate raised to 1,000/s when the operator route
 *   exists): rows/s for each stage from the queue's start; provider acceptance is the figure, beside Meta's default
 *   80 msg/s per number. Measured warm, after a first batch of BENCH_BULK_WARM_UP_ROWS, whose acceptance rate is
 *   printed too.
 * - Paced (BENCH_PACED_ROWS at BENCH_PACED_RATE msg/s, set as the operator sets it with
 *   `PUT /api/admin/tenants/{id}/send-rate`): the achieved rate between the first and the last provider acceptance ÷
 *   the configured rate.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/platform/db/database.ts';
import { startBulkSendBench, type Batch } from './bulk-send-fixture.ts';
import { fmt, knob, perSecond, ResultTable, setSendRate, signInPlatformAdmin, sleep, startWorkers } from './support.ts';

const ROWS = knob('BENCH_ROWS', 500);
/** The first unpaced batch, which warms the server up (cold figure), before the measured one. */
const WARM_UP_ROWS = knob('BENCH_BULK_WARM_UP_ROWS', 500);
const PACED_ROWS = knob('BENCH_PACED_ROWS', 300);
const PACED_RATE = knob('BENCH_PACED_RATE', 20);
const UNPACED_RATE = 1000;
const META_DEFAULT_RATE = 80;
const DEADLINE_MS = knob('BENCH_BULK_DEADLINE_S', 300) * 1000;

const bench = await startBulkSendBench({ runJobs: false });
const { database, app, company } = bench;
const table = new ResultTable('bulk-send', bench.databaseLabel);
const adminToken = await signInPlatformAdmin(database.db, bench.base);
const rateRoute = await setSendRate(bench.base, adminToken, company.tenant.id, UNPACED_RATE);

// ---- Unpaced ----
let workersStarted = false;
/**
 * One unpaced batch of `rows` new customers (phones from `firstPhone`), timed from the moment its upload answered:
 * when its chats and messages were stored, when the provider accepted its last send, when its last status was applied,
 * and this process's CPU to acceptance.
 */
async function unpacedBatch(rows: number, firstPhone: number) {
  const acceptedBefore = bench.providerAccepted.length;
  const { id, acceptedMs: uploaded, fileBytes } = await bench.uploadBatch(rows, firstPhone);
  const queueStart = performance.now();
  const cpuAtStart = process.cpuUsage();
  let cpuToAcceptance: NodeJS.CpuUsage | undefined;
  if (!workersStarted) {
    startWorkers(app);
    workersStarted = true;
  }
  const reached: Partial<Record<'stored' | 'accepted' | 'read', number>> = {};
  let last: Batch | undefined;
  while (performance.now() - queueStart < DEADLINE_MS && reached.read === undefined) {
    last = await bench.batch(id);
    const at = performance.now() - queueStart;
    if (reached.stored === undefined) {
      const [pending] = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from batch_recipients where batch_id = ${id} and status = 'pending'`,
      );
      if (pending!.n === 0) reached.stored = at;
    }
    if (reached.accepted === undefined && bench.providerAccepted.length - acceptedBefore >= rows) {
      reached.accepted = bench.providerAccepted[acceptedBefore + rows - 1]! - queueStart;
      cpuToAcceptance = process.cpuUsage(cpuAtStart);
    }
    if (last && reached.read === undefined && last.read_count + last.failed_count >= rows) reached.read = at;
    await sleep(200);
  }
  const rowsPerSecond = (ms: number | undefined) => (ms === undefined ? Number.NaN : perSecond(rows, ms));
  const figure = (ms: number | undefined) => (ms === undefined ? 'not reached' : `${fmt.rate(rowsPerSecond(ms), 'rows/s')} (${(ms / 1000).toFixed(1)} s)`);
  // The app, the sandbox provider and its callbacks share this process: its CPU per row compares code across runs of a
  // machine whose speed drifts, which rows/s alone cannot.
  const cpuPerRow = cpuToAcceptance && `${((cpuToAcceptance.user + cpuToAcceptance.system) / 1000 / rows).toFixed(1)} ms`;
  return { uploaded, fileBytes, reached, last, rowsPerSecond, figure, cpuPerRow };
}

// Measured warm, as the ingest bench is: the first batch after the server starts runs much of its code before V8 has
// optimised it (on a 2-core machine, V8's compiler threads took a third of the CPU the batch had), which a server that
// has been up a while has done long ago. Its figure is printed too.
const cold = await unpacedBatch(WARM_UP_ROWS, 0);
table.add(
  `unpaced, first batch after the server started (${WARM_UP_ROWS} rows): accepted by the provider`,
  `${cold.figure(cold.reached.accepted)}${cold.cpuPerRow ? `, CPU ${cold.cpuPerRow} a row` : ''}`,
);
const warm = await unpacedBatch(ROWS, WARM_UP_ROWS);
const { reached, last } = warm;
const unpaced = `unpaced, ${ROWS} rows`;
table.add(`${unpaced}: upload checked and stored (file ${fmt.kb(warm.fileBytes)})`, warm.figure(warm.uploaded));
table.add(`${unpaced}: chats and messages stored`, warm.figure(reached.stored));
table.add(
  `${unpaced}: accepted by the provider`,
  warm.figure(reached.accepted),
  `Meta default ${META_DEFAULT_RATE} msg/s per number`,
  warm.rowsPerSecond(reached.accepted) / META_DEFAULT_RATE,
);
table.add(`${unpaced}: read (status webhooks applied)`, warm.figure(reached.read));
if (warm.cpuPerRow) table.add(`${unpaced}: this process's CPU per row, to acceptance`, warm.cpuPerRow);
if (!rateRoute) table.add(`${unpaced}: send rate`, 'product default (send-rate route not available)');
if (reached.read === undefined) {
  table.add(
    `${unpaced}: counts at the deadline`,
    `sent ${last?.sent_count} delivered ${last?.delivered_count} read ${last?.read_count} failed ${last?.failed_count}`,
  );
}

// ---- Paced ----
if (!rateRoute) {
  table.add(`paced, ${PACED_ROWS} rows at ${PACED_RATE} msg/s`, 'paced: route not available');
} else {
  await setSendRate(bench.base, adminToken, company.tenant.id, PACED_RATE);
  const before = bench.providerAccepted.length;
  await bench.uploadBatch(PACED_ROWS, WARM_UP_ROWS + ROWS);
  const pacedStart = performance.now();
  while (bench.providerAccepted.length - before < PACED_ROWS && performance.now() - pacedStart < DEADLINE_MS) await sleep(200);
  const sends = bench.providerAccepted.slice(before);
  const achieved = sends.length < 2 ? Number.NaN : perSecond(sends.length - 1, sends.at(-1)! - sends[0]!);
  table.add(
    `paced, ${PACED_ROWS} rows: achieved rate (first to last acceptance)`,
    `${fmt.rate(achieved, 'msg/s')}${sends.length < PACED_ROWS ? ` (${sends.length} sent by the deadline)` : ''}`,
    `configured ${fmt.rate(PACED_RATE, 'msg/s')}`,
    achieved / PACED_RATE,
  );
}

table.print();
await bench.close();
