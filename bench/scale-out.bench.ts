/**
 * Scale-out on PostgreSQL + Redis: webhook ingest into one app process, then into two (the real server,
 * src/main.ts, started as child processes on one fresh database and one Redis), webhooks sent round-robin over the
 * processes and over BENCH_SCALE_COMPANIES companies (one company's deliveries are applied in order by one process
 * at a time). The figure is applied msg/s with two processes ÷ with one. Only in `npm run bench:server`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inArray, sql } from 'drizzle-orm';
import { messages } from '../apps/server/db/schema/index.ts';
import { createTestDatabase } from '../apps/server/test/support/test-database.ts';
import { startServerProcess, type ServerProcess } from '../apps/server/test/support/server-process.ts';
import {
  BENCH_APP_SECRET,
  databaseLabel,
  describeFailures,
  fmt,
  inboundText,
  knob,
  percentile,
  perSecond,
  phoneOf,
  postWebhooks,
  registerCompany,
  ResultTable,
  waitForCount,
  webhookPathOf,
} from './support.ts';

const TOTAL = knob('BENCH_SCALE_MESSAGES', 3000);
const CONCURRENCY = knob('BENCH_SCALE_CONCURRENCY', 32);
const COMPANIES = knob('BENCH_SCALE_COMPANIES', 8);
const CHATS = 200;

const table = new ResultTable('scale-out', databaseLabel());
if (!process.env.DATABASE_URL || !process.env.REDIS_URL) {
  table.add('scale-out', 'skipped: needs PostgreSQL + Redis (npm run bench:server)');
  table.print();
  process.exit(0);
}

const database = await createTestDatabase({ poolSize: 2 });
const dataDirs: string[] = [];
const servers: ServerProcess[] = [];
async function startServer() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-bench-server-'));
  dataDirs.push(dataDir);
  const server = await startServerProcess(
    { DATABASE_URL: database.url!, REDIS_URL: process.env.REDIS_URL!, APP_SECRET: BENCH_APP_SECRET, DATA_DIR: dataDir },
    120_000,
  );
  servers.push(server);
  return server.url;
}

/** TOTAL webhooks over the given processes and fresh companies: applied msg/s from the first post to the last row. */
async function ingest(urls: string[]) {
  const companies = [];
  for (let i = 0; i < COMPANIES; i++) companies.push(await registerCompany(urls[0]!, 'scale'));
  const paths = await Promise.all(companies.map(webhookPathOf));
  // Message i goes to process i mod P and to company (i div P) mod C, so every process gets every company.
  const targets = Array.from(
    { length: urls.length * COMPANIES },
    (_, slot) => `${urls[slot % urls.length]}${paths[Math.floor(slot / urls.length) % COMPANIES]}`,
  );
  const tenantIds = companies.map((company) => company.tenant.id);
  const stored = async () => {
    const [row] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(messages)
      .where(inArray(messages.tenantId, tenantIds));
    return row!.n;
  };
  const tag = `p${urls.length}`;
  const [posted, applied] = await Promise.all([
    postWebhooks(targets, TOTAL, CONCURRENCY, (i) => inboundText(`wamid.scale.${tag}.${i}`, phoneOf(i % CHATS), `mensaje ${i}`)),
    waitForCount(stored, TOTAL, 60_000, 200),
  ]);
  return {
    accepted: perSecond(posted.ok, posted.elapsedMs),
    applied: applied.reachedAt === undefined ? Number.NaN : perSecond(TOTAL, applied.reachedAt - posted.startedAt),
    appliedCount: applied.count,
    p99: percentile(posted.latencies, 99),
    failures: `${describeFailures(posted)}, ${posted.timeouts} timeouts`,
  };
}

try {
  const first = await startServer();
  const one = await ingest([first]);
  const second = await startServer();
  const two = await ingest([first, second]);
  const applied = (run: typeof one) => (Number.isNaN(run.applied) ? `stalled at ${run.appliedCount} of ${TOTAL}` : fmt.rate(run.applied, 'msg/s'));
  const label = `${TOTAL} webhooks, c = ${CONCURRENCY}, ${COMPANIES} companies`;
  table.add(`1 process: ${label}: applied`, applied(one), '', '');
  table.add(`1 process: accepted / answer p99 / failed`, `${fmt.rate(one.accepted, 'answers/s')} / ${fmt.ms(one.p99)} / ${one.failures}`);
  table.add(`2 processes: ${label}: applied`, applied(two), `1 process ${applied(one)}`, two.applied / one.applied);
  table.add(
    `2 processes: accepted / answer p99 / failed`,
    `${fmt.rate(two.accepted, 'answers/s')} / ${fmt.ms(two.p99)} / ${two.failures}`,
    `1 process ${fmt.rate(one.accepted, 'answers/s')}`,
    two.accepted / one.accepted,
  );
  table.print();
} finally {
  for (const server of servers) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await database.close();
  dataDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
}
