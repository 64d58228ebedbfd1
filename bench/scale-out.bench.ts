/**
 * Scale-out on PostgreSQL + Redis: webhook ingest into one app process, then into two (the real server,
 * src/main.ts, started as child processes on one fresh database and one Redis), webhooks sent round-robin over the
 * processes and over BENCH_SCALE_COMPANIES companies (one company's deliveries are applied in order by one process
 * at a time). The figure is applied msg/s with two processes ÷ with one. Each phase's processes are warmed first
 * (BENCH_SCALE_WARM_UP webhooks), as a server that has been up a while is: the second process used to be measured
 * cold beside a warm first one. Beside it, what bounds it on a small machine: the CPU each phase took (the servers',
 * per message, from /proc, and the whole machine's busy share), and HTTP alone (`check-slug/x`, no query) over one
 * process and over two: the same load split over two processes costs each request more CPU (fewer events per wake-up),
 * which on 2 cores already busy with the database and the load generator outweighs the second process.
 * Only in `npm run bench:server`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inArray, sql } from 'drizzle-orm';
import { messages } from '../apps/server/db/schema/index.ts';
import { createTestDatabase } from '../apps/server/test/support/test-database.ts';
import { startServerProcess, type ServerProcess } from '../apps/server/test/support/server-process.ts';
import { loadOffThread } from './load-off-thread.ts';
import {
  BENCH_APP_SECRET,
  databaseLabel,
  describeFailures,
  fmt,
  inboundText,
  knob,
  noQueryUrl,
  percentile,
  perSecond,
  phoneOf,
  postWebhooks,
  registerCompany,
  ResultTable,
  waitForCount,
  webhookPathOf,
} from './support.ts';

const TOTAL = knob('BENCH_SCALE_MESSAGES', 6000);
const CONCURRENCY = knob('BENCH_SCALE_CONCURRENCY', 32);
const COMPANIES = knob('BENCH_SCALE_COMPANIES', 8);
const WARM_UP = knob('BENCH_SCALE_WARM_UP', 2000);
const HTTP_REQUESTS = knob('BENCH_SCALE_HTTP_REQUESTS', 20_000);
const CHATS = 200;

/** CPU seconds a process has used (user + system), from /proc; undefined where there is no /proc. */
function processCpuSeconds(pid: number): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** The machine's busy and total CPU time so far (all cores), from /proc/stat; undefined where there is none. */
function machineCpu(): { busy: number; total: number } | undefined {
  try {
    const [, ...times] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = times.map(Number) as number[];
    const busy = user! + nice! + system! + irq! + softirq! + steal!;
    return { busy, total: busy + idle! + iowait! };
  } catch {
    return undefined;
  }
}

/** What `work` cost: the servers' CPU seconds and the machine's busy share while it ran. */
async function measuringCpu<T>(work: () => Promise<T>): Promise<{ result: T; serverCpuSeconds: number; machineBusy: number }> {
  const cpuOf = () => servers.reduce((sum, server) => sum + (processCpuSeconds(server.child.pid!) ?? Number.NaN), 0);
  const [serversBefore, machineBefore] = [cpuOf(), machineCpu()];
  const result = await work();
  const [serversAfter, machineAfter] = [cpuOf(), machineCpu()];
  const machineBusy = machineBefore && machineAfter ? (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total) : Number.NaN;
  return { result, serverCpuSeconds: serversAfter - serversBefore, machineBusy };
}

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

/** HTTP alone over the given processes: requests/s and the servers' CPU per request. */
async function httpAlone(urls: string[]) {
  const targets = urls.map(noQueryUrl);
  await loadOffThread({ urls: targets, total: 2000, concurrency: CONCURRENCY });
  const { result, serverCpuSeconds } = await measuringCpu(() => loadOffThread({ urls: targets, total: HTTP_REQUESTS, concurrency: CONCURRENCY }));
  return { perSecond: perSecond(result.ok, result.elapsedMs), cpuPerRequestUs: (serverCpuSeconds / HTTP_REQUESTS) * 1e6 };
}

/**
 * TOTAL webhooks over the given processes and fresh companies, after WARM_UP on the same: applied msg/s from the first
 * post to the last row, and what CPU they took.
 */
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
  await Promise.all([
    postWebhooks(targets, WARM_UP, CONCURRENCY, (i) => inboundText(`wamid.scale.${tag}.warm.${i}`, phoneOf(i % CHATS), `calentando ${i}`)),
    waitForCount(stored, WARM_UP, 60_000, 200),
  ]);
  const storedAfterWarmUp = async () => (await stored()) - WARM_UP;
  const {
    result: [posted, applied],
    serverCpuSeconds,
    machineBusy,
  } = await measuringCpu(() =>
    Promise.all([
      postWebhooks(targets, TOTAL, CONCURRENCY, (i) => inboundText(`wamid.scale.${tag}.${i}`, phoneOf(i % CHATS), `mensaje ${i}`)),
      waitForCount(storedAfterWarmUp, TOTAL, 60_000, 200),
    ]),
  );
  return {
    cpu: `servers ${fmt.count((serverCpuSeconds / TOTAL) * 1e6)} µs CPU per message, machine ${Math.round(machineBusy * 100)}% busy`,
    accepted: perSecond(posted.ok, posted.elapsedMs),
    applied: applied.reachedAt === undefined ? Number.NaN : perSecond(TOTAL, applied.reachedAt - posted.startedAt),
    appliedCount: applied.count,
    p99: percentile(posted.latencies, 99),
    failures: `${describeFailures(posted)}, ${posted.timeouts} timeouts`,
  };
}

try {
  const first = await startServer();
  const httpOne = await httpAlone([first]);
  const one = await ingest([first]);
  const second = await startServer();
  const httpTwo = await httpAlone([first, second]);
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
  table.add('1 process: CPU while applying', one.cpu);
  table.add('2 processes: CPU while applying', two.cpu);
  const httpLabel = (run: typeof httpOne) => `${fmt.rate(run.perSecond, 'req/s')}, servers ${fmt.count(run.cpuPerRequestUs)} µs CPU per request`;
  table.add(`HTTP alone (check-slug/x, no query), c = ${CONCURRENCY}: 1 process`, httpLabel(httpOne));
  table.add(
    'HTTP alone: 2 processes (the same requests split over two)',
    httpLabel(httpTwo),
    `1 process ${fmt.rate(httpOne.perSecond, 'req/s')}`,
    httpTwo.perSecond / httpOne.perSecond,
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
