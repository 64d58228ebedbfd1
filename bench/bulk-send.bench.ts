/**
 * One bulk send of a 2,000-row Excel file through the whole pipeline (upload and checks, paced chunk jobs, the
 * outbox's send jobs, the sandbox Gupshup and its status webhooks) and prints rows/s for each stage. By default
 * the company's number sends 1,000 messages a second (the most a number may), so the figures show what the pipeline
 * can do; BENCH_RATE sets another rate (the product's defaults are printed beside). Figures only; nothing asserts a time.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/platform/db/database.ts';
import { PROVIDER_DEFAULT_RATES } from '../apps/server/src/modules/send-pacing/index.ts';
import { startBulkSendBench, type Batch } from './bulk-send-fixture.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 2000);
const pace = { messagesPerSecond: Number(process.env.BENCH_RATE ?? 1000) };
const DEADLINE_MS = 10 * 60_000;

const bench = await startBulkSendBench(pace);
const { database, app } = bench;
const { id, started, acceptedMs: accepted, fileBytes } = await bench.uploadBatch(ROWS);
// The workers start once the upload answered, so each stage is timed on its own (on PGlite a running queue
// keeps the one connection, and the event loop, busy).
const sending = performance.now();
app.queue.start();

const reached: Partial<Record<'stored' | 'sent' | 'delivered' | 'read' | 'settled', number>> = {};
let last: Batch | undefined;
while (performance.now() - started < DEADLINE_MS && reached.read === undefined) {
  last = await bench.batch(id);
  const at = performance.now() - sending;
  if (reached.stored === undefined) {
    const [pending] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from batch_recipients where batch_id = ${id} and status = 'pending'`,
    );
    if (pending!.n === 0) reached.stored = at;
  }
  if (last) {
    if (reached.settled === undefined && last.status !== 'processing') reached.settled = at;
    if (reached.sent === undefined && last.sent_count + last.failed_count >= ROWS) reached.sent = at;
    if (reached.delivered === undefined && last.delivered_count + last.failed_count >= ROWS) reached.delivered = at;
    if (reached.read === undefined && last.read_count + last.failed_count >= ROWS) reached.read = at;
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
}

const rate = (ms: number | undefined) => (ms === undefined ? 'not reached' : `${(ROWS / (ms / 1000)).toFixed(0)} rows/s (${(ms / 1000).toFixed(1)} s)`);
process.stdout.write(`database                     ${database.kind}\n`);
process.stdout.write(`rows                         ${ROWS} (file ${(fileBytes / 1024).toFixed(0)} KB)\n`);
process.stdout.write(
  `pace                         ${pace.messagesPerSecond} msg/s (product defaults: Gupshup ${PROVIDER_DEFAULT_RATES.gupshup}, Meta ${PROVIDER_DEFAULT_RATES.meta} msg/s)\n`,
);
process.stdout.write(`upload checked and stored    ${accepted.toFixed(0)} ms -> ${rate(accepted)}\n`);
process.stdout.write(`from the queue's start:\n`);
process.stdout.write(`chats and messages stored    ${rate(reached.stored)}\n`);
process.stdout.write(`accepted by Gupshup (done)   ${rate(reached.settled)}\n`);
process.stdout.write(`sent (webhook)               ${rate(reached.sent)}\n`);
process.stdout.write(`delivered (webhook)          ${rate(reached.delivered)}\n`);
process.stdout.write(`read (webhook)               ${rate(reached.read)}\n`);
process.stdout.write(
  `final counts                 sent ${last?.sent_count} delivered ${last?.delivered_count} read ${last?.read_count} failed ${last?.failed_count}\n`,
);

await bench.close();
