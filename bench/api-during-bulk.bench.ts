/**
 * Do requests stay fast while background work runs? A mix of the GET calls a browser makes (the board, a chat's
 * messages, /api/auth/me) from BENCH_API_CLIENTS (60) concurrent clients, first idle (BENCH_API_IDLE_S, after a
 * short warm-up), then while a BENCH_API_BULK_ROWS-row (5,000) bulk send runs unpaced: from its upload until
 * BENCH_API_BULK_S after the upload answered. The figure is p95 during the send ÷ p95 idle (target ≤ 3).
 */
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/platform/db/database.ts';
import { startBulkSendBench } from './bulk-send-fixture.ts';
import { loadOffThread } from './load-off-thread.ts';
import {
  describeFailures,
  fmt,
  inboundText,
  knob,
  percentile,
  perSecond,
  phoneOf,
  ResultTable,
  sleep,
  storedMessages,
  waitForCount,
  webhookPathOf,
  type LoadResult,
} from './support.ts';

const CLIENTS = knob('BENCH_API_CLIENTS', 60);
const IDLE_MS = knob('BENCH_API_IDLE_S', 10) * 1000;
const BULK_MS = knob('BENCH_API_BULK_S', 30) * 1000;
const BULK_ROWS = knob('BENCH_API_BULK_ROWS', 5000);
const CHATS = 20;
const WARM_UP_MS = 3000;

const bench = await startBulkSendBench({ runJobs: true, messagesPerSecond: 1000 });
const { company, base } = bench;

// A few chats with messages, written in by customers (not among the bulk send's phones).
const webhook = `${base}${await webhookPathOf(company)}`;
for (let i = 0; i < CHATS * 3; i++) {
  const answer = await fetch(webhook, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: inboundText(`wamid.api.${i}`, phoneOf(900_000 + (i % CHATS)), `hola ${i}`),
  });
  if (!answer.ok) throw new Error(`webhook answered ${answer.status}`);
}
await waitForCount(() => storedMessages(bench.database.db, company.tenant.id), CHATS * 3);
const board = await company.get<{ columns: Array<{ cards: Array<{ id: string }> }> }>(`/funnels/${bench.funnelId}/board`);
const cardIds = board.columns.flatMap((column) => column.cards.map((card) => card.id));
if (cardIds.length === 0) throw new Error('no chats on the board');

/** The browser's calls, in turn: board, a chat's messages, the session (a chat after another). */
const browserCalls = cardIds.flatMap((cardId) => [
  company.api(`/funnels/${bench.funnelId}/board`),
  company.api(`/cards/${cardId}/messages`),
  `${base}/api/auth/me`,
]);
// From a worker thread, as the other benches' loads: browsers are outside the server's process. Made with fetch on
// the server's own thread, the client's half of each call took that thread too, and undici held some calls in its
// own queue for one to two seconds at the send's start (the server's own times for them stayed under 0.7 s).
const callBrowsers = (options: { untilMs?: number }, stopWhen?: Promise<unknown>) =>
  loadOffThread({ urls: browserCalls, concurrency: CLIENTS, headers: company.headers, ...options }, stopWhen);

// Made before the window: building a 5,000-row file took this thread about 8 s, counted in the window as calls at
// the idle pace.
const file = await bench.customersFile(BULK_ROWS);
// Warm-up: the first calls compile the routes' serializers and fill caches.
await callBrowsers({ untilMs: WARM_UP_MS });
const idle = await callBrowsers({ untilMs: IDLE_MS });
const uploading = bench.uploadBatch(file);
const busy = await callBrowsers(
  {},
  uploading.then(() => sleep(BULK_MS)),
);
const { id: batchId, acceptedMs: uploadMs } = await uploading;
const sentDuring = bench.providerAccepted.length;
const [storedDuring] = await queryRows<{ n: number }>(
  bench.database.db,
  sql`select count(*)::int as n from batch_recipients where batch_id = ${batchId} and status <> 'pending'`,
);

const table = new ResultTable('api-during-bulk', bench.databaseLabel);
const summary = (result: LoadResult) =>
  `p50 ${fmt.ms(percentile(result.latencies, 50))}, p95 ${fmt.ms(percentile(result.latencies, 95))}, max ${fmt.ms(percentile(result.latencies, 100))}, ${fmt.rate(perSecond(result.latencies.length, result.elapsedMs), 'req/s')}`;
table.add(`idle, c = ${CLIENTS} (board, messages, /api/auth/me)`, summary(idle), '', '');
table.add(`during a ${BULK_ROWS}-row bulk send (its upload, then ${BULK_MS / 1000} s), c = ${CLIENTS}`, summary(busy), '', '');
table.add(
  'p95 during ÷ p95 idle',
  fmt.ms(percentile(busy.latencies, 95)),
  `idle p95 ${fmt.ms(percentile(idle.latencies, 95))}; target ≤ 3`,
  percentile(busy.latencies, 95) / percentile(idle.latencies, 95),
);
table.add('failed or timed out (idle / during)', `${describeFailures(idle)}, ${idle.timeouts} / ${describeFailures(busy)}, ${busy.timeouts}`);
table.add(
  'the bulk send meanwhile',
  `upload answered in ${fmt.ms(uploadMs)}; in the ${(busy.elapsedMs / 1000).toFixed(0)} s window ${storedDuring!.n} rows stored as chats and messages, ${sentDuring} accepted by the provider`,
);
table.print();
await bench.close();
