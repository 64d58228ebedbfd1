/**
 * What every benchmark shares: the app on a fresh database (in-memory PGlite, or a new PostgreSQL database dropped
 * at the end when DATABASE_URL is set, with Redis when REDIS_URL is set), a registered company, inbound webhooks
 * posted under load, latency percentiles, and the one result table each run prints at its end:
 * what | figure | baseline | ratio. Absolute times on a shared 2-core machine are noisy; the ratio to a baseline
 * measured in the same run is the figure to compare. Nothing here asserts a time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@embudo/contracts/realtime/events';
import { openPglite, queryRows, type Db } from '../apps/server/src/platform/db/database.ts';
import { createLogger } from '../apps/server/src/platform/logger/logger.ts';
import { buildApp, type App, type AppOptions } from '../apps/server/src/app.ts';
import { bootstrapPlatformAdmin } from '../apps/server/src/modules/admin/index.ts';
import { createTestDatabase } from '../apps/server/test/support/test-database.ts';

export const BENCH_APP_SECRET = 'bench-and-test-secret-0123456789abcdef';
/** Gupshup retries a webhook whose 2xx takes longer than this. */
export const PROVIDER_RETRY_MS = 10_000;
/** The pool size production opens (openDatabase's default). */
const PRODUCTION_POOL_SIZE = 10;

/** A size knob: BENCH_* environment variable or its default. */
export function knob(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number`);
  return value;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- Figures ----

/** The p-th percentile (nearest rank) of the values; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const perSecond = (count: number, ms: number) => (ms > 0 ? count / (ms / 1000) : Number.NaN);

const grouped = (value: number, digits: number) =>
  Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a';
export const fmt = {
  rate: (value: number, unit: string) => `${grouped(value, value < 10 ? 1 : 0)} ${unit}`,
  ms: (value: number) => `${grouped(value, value < 10 ? 1 : 0)} ms`,
  kb: (bytes: number) => `${grouped(bytes / 1024, 0)} KB`,
  count: (value: number) => grouped(value, 0),
};

export function machineDescription() {
  const cpus = os.cpus();
  const load = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, load ${load}`;
}

interface ResultRow {
  bench: string;
  database: string;
  what: string;
  figure: string;
  baseline: string;
  ratio: string;
}

/**
 * The one table a run prints at its end. With BENCH_RESULTS_FILE set (bench/run.ts sets it) the rows are also
 * appended there as JSON lines, so a whole `npm run bench` ends with every bench's rows in one table.
 */
export class ResultTable {
  private readonly rows: ResultRow[] = [];
  constructor(
    private readonly bench: string,
    private readonly database: string,
  ) {}

  /** A ratio is figure ÷ baseline, as a number or already written out. */
  add(what: string, figure: string, baseline = '', ratio: number | string = '') {
    const written = typeof ratio === 'number' ? (Number.isFinite(ratio) ? ratio.toFixed(2) : 'n/a') : ratio;
    this.rows.push({ bench: this.bench, database: this.database, what, figure, baseline, ratio: written });
  }

  print() {
    process.stdout.write(`\n${this.bench} (${this.database}; ${machineDescription()})\n${formatTable(this.rows)}\n`);
    const file = process.env.BENCH_RESULTS_FILE;
    if (file) fs.appendFileSync(file, this.rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
  }
}

/** Rows as a Markdown table (readable on a terminal, pasted as is into bench/RESULTS.md). */
export function formatTable(rows: readonly ResultRow[], withBench = false) {
  const header = [...(withBench ? ['bench'] : []), 'what', 'figure', 'baseline', 'ratio'];
  const cells = rows.map((row) => [...(withBench ? [row.bench] : []), row.what, row.figure, row.baseline, row.ratio]);
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((line) => line[column]!.length)));
  const line = (values: string[]) => `| ${values.map((value, column) => value.padEnd(widths[column]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...cells.map(line)].join('\n');
}

export function readResultsFile(file: string): ResultRow[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ResultRow);
}

// ---- The app ----

export interface BenchApp {
  app: App;
  database: Awaited<ReturnType<typeof createTestDatabase>>;
  /** PGlite, or PostgreSQL (+ Redis). */
  databaseLabel: string;
  base: string;
  close(): Promise<void>;
}

export const databaseLabel = () => (process.env.DATABASE_URL ? `PostgreSQL${process.env.REDIS_URL ? ' + Redis' : ''}` : 'PGlite');

/**
 * The app as production builds it (job workers and the webhook intake running, sign-in throttling off so the load
 * is not refused), listening on a free port, on a fresh database; `overrides` change any option.
 */
export async function startBenchApp(
  overrides: Partial<Omit<AppOptions, 'db' | 'logger' | 'appSecret'>> = {},
  { embeddedOnDisk = false }: { embeddedOnDisk?: boolean } = {},
): Promise<BenchApp> {
  // Without DATABASE_URL the database is PGlite in this process's memory, as the tests have it; `embeddedOnDisk`
  // puts it in a DATA_DIR of its own, as `npm start` does (its files then live on disk, not in this process).
  const dataDir = embeddedOnDisk && !process.env.DATABASE_URL ? fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-bench-data-')) : undefined;
  const database = dataDir ? await openPglite(dataDir) : await createTestDatabase({ poolSize: PRODUCTION_POOL_SIZE });
  const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-bench-media-'));
  const app = await buildApp({
    db: database.db,
    logger: createLogger(process.env.BENCH_LOG ?? 'silent'),
    mediaDir,
    appSecret: BENCH_APP_SECRET,
    providerMode: 'sandbox',
    redisUrl: process.env.REDIS_URL,
    runJobs: true,
    throttle: { windowMs: 1, perAddress: 1e9, freeAccountFailures: 1e9, accountDelayBaseMs: 0, accountDelayCapMs: 0 },
    ...overrides,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    database,
    databaseLabel: databaseLabel(),
    base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    close: async () => {
      // The workers first: the app's own close shuts the realtime (and its Redis connections) before the job queue,
      // so a job still running then (a bulk send's chunk) emits on a closed Redis connection and the process dies of
      // an unhandled rejection (seen in bench:server; reported, server code is not the benches' to change).
      await app.webhookIntake.stop();
      await app.queue.stop();
      await app.close();
      await database.close();
      fs.rmSync(mediaDir, { recursive: true, force: true });
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Answer times as the server sees them (from its request event, headers read, to the last byte written) for requests
 * whose path starts with `pathPrefix`: beside the client's times, they tell the server's share of a slow answer.
 */
export function serverAnswerTimes(app: App, pathPrefix: string) {
  let times: number[] = [];
  app.server.on('request', (request: { url?: string }, response: { once(event: 'finish', listener: () => void): void }) => {
    if (!request.url?.startsWith(pathPrefix)) return;
    const started = performance.now();
    response.once('finish', () => times.push(performance.now() - started));
  });
  /** The times recorded since the last call. */
  return () => {
    const taken = times;
    times = [];
    return taken;
  };
}

/** Starts the job queue, the webhook intake and the embedded upkeep of an app built with runJobs: false (a bench that times stages). */
export function startWorkers(app: App) {
  app.queue.start();
  app.webhookIntake.start();
  // As a server that runs jobs does on the embedded database: without it, dead rows piled up for the whole bench.
  app.embeddedUpkeep?.start();
}

// ---- A company and its calls ----

export interface Company {
  slug: string;
  token: string;
  user: unknown;
  tenant: { id: string; slug: string };
  headers: { authorization: string };
  /** The URL of a tenant API path (`/funnels/summary` → `/t/{slug}/api/funnels/summary`). */
  api(route: string): string;
  get<T>(route: string): Promise<T>;
  send<T>(method: 'POST' | 'PUT' | 'DELETE', route: string, body?: unknown): Promise<T>;
}

let companies = 0;

/** Registers a company (and its owner) on the server at `base`. */
export async function registerCompany(base: string, name = 'bench'): Promise<Company> {
  companies += 1;
  const slug = `${name}-${process.pid}-${companies}`;
  const answer = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ companyName: `Bench ${slug}`, companySlug: slug, userName: 'Bench', userEmail: `owner@${slug}.test`, userPassword: 'Bench12345' }),
  });
  if (answer.status !== 201 && answer.status !== 200) throw new Error(`register answered ${answer.status}: ${await answer.text()}`);
  const session = (await answer.json()) as { token: string; user: unknown; tenant: { id: string; slug: string } };
  return companyOf(base, slug, session);
}

export function companyOf(base: string, slug: string, session: { token: string; user: unknown; tenant: { id: string; slug: string } }): Company {
  const headers = { authorization: `Bearer ${session.token}` };
  const api = (route: string) => `${base}/t/${slug}/api${route}`;
  const read = async <T>(route: string, answer: Response) => {
    if (!answer.ok) throw new Error(`${route} answered ${answer.status}: ${await answer.text()}`);
    return (answer.status === 204 ? undefined : await answer.json()) as T;
  };
  return {
    slug,
    token: session.token,
    user: session.user,
    tenant: session.tenant,
    headers,
    api,
    get: async (route) => read(route, await fetch(api(route), { headers })),
    send: async (method, route, body) =>
      read(
        route,
        await fetch(api(route), {
          method,
          headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      ),
  };
}

/** The company's Gupshup webhook path (it carries the company's secret). */
export async function webhookPathOf(company: Company): Promise<string> {
  const settings = await company.get<{ webhookUrl: string }>('/gupshup/settings');
  return new URL(settings.webhookUrl).pathname;
}

export const phoneOf = (index: number) => `52155${String(index).padStart(8, '0')}`;

/** A Gupshup inbound text message, as the provider posts it. */
export function inboundText(id: string, phone: string, text: string) {
  return JSON.stringify({
    app: 'bench',
    timestamp: Date.now(),
    version: 2,
    type: 'message',
    payload: { id, source: phone, type: 'text', payload: { text }, sender: { phone, name: `Cliente ${phone.slice(-4)}` } },
  });
}

/** The company's inbound messages stored so far (what the intake has applied). */
export async function storedMessages(db: Db, tenantId: string) {
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from messages where tenant_id = ${tenantId}`);
  return row!.n;
}

/**
 * Waits until `count()` reaches `target`, polling; gives up when it stops growing for `stallMs`. Resolves with
 * when the target was reached (performance.now()) or undefined, and the last count.
 */
export async function waitForCount(count: () => Promise<number>, target: number, stallMs = 60_000, pollMs = 25) {
  let last = -1;
  let grewAt = performance.now();
  for (;;) {
    const now = await count();
    if (now >= target) return { reachedAt: performance.now(), count: now };
    if (now > last) {
      last = now;
      grewAt = performance.now();
    } else if (performance.now() - grewAt > stallMs) {
      return { reachedAt: undefined, count: now };
    }
    await sleep(pollMs);
  }
}

// ---- Load ----

export { load, type LoadResult, WEBHOOK_TIMEOUT_MS } from './load.ts';
import type { LoadResult } from './load.ts';
import { loadOffThread } from './load-off-thread.ts';

export const describeFailures = (result: LoadResult) =>
  result.failures.size === 0 ? 'none' : [...result.failures].map(([reason, count]) => `${count} × ${reason}`).join(', ');

/** Requests per second of one GET at `concurrency`. */
export async function requestRate(url: string, total: number, concurrency: number, headers: Record<string, string> = {}) {
  const result = await loadOffThread({ urls: [url], total, concurrency, headers });
  if (result.ok !== total) throw new Error(`${url}: ${describeFailures(result)}, ${result.timeouts} timeouts`);
  return { perSecond: perSecond(result.ok, result.elapsedMs), result };
}

/**
 * The baseline of the request-rate ratios: the cheapest call that reads the database, one indexed read of `tenants`
 * by slug and no session. The slug must be a valid one that nobody holds: `check-slug/x` (the issue's first figures)
 * is refused as too short before any query, so it measured HTTP alone.
 */
export const checkSlugUrl = (base: string) => `${base}/api/tenants/check-slug/${CHECK_SLUG_FREE}`;
export const CHECK_SLUG_FREE = 'empresa-libre';
/** How the baseline reads in the tables. */
export const CHECK_SLUG_LABEL = `GET /api/tenants/check-slug/${CHECK_SLUG_FREE} (one indexed read)`;
/** The same route answered without a query (too short a slug): HTTP alone, printed beside the baseline. */
export const noQueryUrl = (base: string) => `${base}/api/tenants/check-slug/x`;

/**
 * check-slug at a steady `perSecond` calls a second for `ms`, from a thread of its own, whatever the answers take: one
 * call at a time would make one call during a second-long stall and hundreds around it. A failed call throws.
 */
export async function steadyCheckSlug(base: string, ms: number, perSecond: number) {
  const result = await loadOffThread({
    urls: [checkSlugUrl(base)],
    total: Math.round((ms / 1000) * perSecond),
    concurrency: 500,
    intervalMs: 1000 / perSecond,
  });
  if (result.failures.size > 0) throw new Error(`check-slug failed: ${describeFailures(result)}`);
  return result;
}

/** Posts `total` inbound webhooks with `concurrency` in flight, round-robin over `urls`, from a thread of their own. */
export function postWebhooks(urls: readonly string[], total: number, concurrency: number, bodyOf: (index: number) => string) {
  return loadOffThread({
    urls: [...urls],
    total,
    concurrency,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    bodies: Array.from({ length: total }, (_, index) => bodyOf(index)),
  });
}

/** Raw single-row INSERTs, one at a time, into a plain table: what one round trip to this database costs. */
export async function rawInsertRate(db: Db, rows: number) {
  const table = sql.identifier(`bench_raw_${process.pid}`);
  await db.execute(
    sql`create table ${table} (id uuid primary key default gen_random_uuid(), body text not null, created_at timestamptz not null default now())`,
  );
  const started = performance.now();
  for (let i = 0; i < rows; i++) await db.execute(sql`insert into ${table} (body) values (${`mensaje ${i}`})`);
  const elapsed = performance.now() - started;
  await db.execute(sql`drop table ${table}`);
  return perSecond(rows, elapsed);
}

// ---- Operator and sockets ----

const PLATFORM_ADMIN = { email: 'operador@bench.test', password: 'Operador12345' };

/** A platform operator's token (the account is created, or its password reset, as ADMIN_EMAIL/ADMIN_PASSWORD do). */
export async function signInPlatformAdmin(db: Db, base: string) {
  await bootstrapPlatformAdmin(db, PLATFORM_ADMIN);
  const answer = await fetch(`${base}/api/auth/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(PLATFORM_ADMIN),
  });
  if (!answer.ok) throw new Error(`operator sign-in answered ${answer.status}`);
  return ((await answer.json()) as { token: string }).token;
}

/**
 * Sets a company's send rate per number as the operator does (`PUT /api/admin/tenants/{id}/send-rate`). Resolves
 * false when the server has no such route yet (404 on an unknown route).
 */
export async function setSendRate(base: string, adminToken: string, tenantId: string, messagesPerSecond: number) {
  const answer = await fetch(`${base}/api/admin/tenants/${tenantId}/send-rate`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ messagesPerSecond }),
  });
  if (answer.status === 404) return false;
  if (!answer.ok) throw new Error(`send-rate answered ${answer.status}: ${await answer.text()}`);
  return true;
}

export type BenchSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A socket.io client joined to its company, as the web's SocketProvider joins. */
export async function connectSocket(base: string, credentials: { token: string; tenantSlug: string }): Promise<BenchSocket> {
  const socket: BenchSocket = io(base, { query: credentials, auth: credentials, transports: ['websocket'], forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect_error', reject);
    socket.once('connect', () =>
      socket.emit('join_tenant', credentials, (answer) => (answer.ok ? resolve() : reject(new Error(`join refused: ${answer.message}`)))),
    );
  });
  return socket;
}
