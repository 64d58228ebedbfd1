/**
 * Posts inbound Gupshup webhooks over HTTP as fast as the server takes them and prints messages/s
 * stored and broadcast to a connected client, beside the raw single-row INSERT rate of the same
 * database. The ratio is the figure that matters. Figures only; nothing asserts a time.
 */
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { io } from 'socket.io-client';
import { openPglite, openPostgres, queryRows } from '../apps/server/src/platform/db/database.ts';
import { createLogger } from '../apps/server/src/platform/logger/logger.ts';
import { buildApp } from '../apps/server/src/app.ts';

const TOTAL = Number(process.env.BENCH_MESSAGES ?? 2000);
const CONCURRENCY = 8;

const database = process.env.DATABASE_URL ? await openPostgres(process.env.DATABASE_URL) : await openPglite(undefined);
const app = await buildApp({
  db: database.db,
  logger: createLogger('silent'),
  mediaDir: os.tmpdir(),
  appSecret: 'bench-and-test-secret-0123456789abcdef',
  providerMode: 'sandbox',
});
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

const slug = `bench-${Date.now()}`;
const registered = (await (
  await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ companyName: 'Bench', companySlug: slug, userName: 'Bench', userEmail: 'bench@bench.test', userPassword: 'Bench12345' }),
  })
).json()) as { token: string };
const settings = (await (await fetch(`${base}/t/${slug}/api/gupshup/settings`, { headers: { authorization: `Bearer ${registered.token}` } })).json()) as {
  webhookUrl: string;
};
const webhookPath = new URL(settings.webhookUrl).pathname;

const socket = io(base, { query: { token: registered.token, tenantSlug: slug }, transports: ['websocket'] });
await new Promise<void>((resolve) => socket.on('connect', () => socket.emit('join_tenant', { tenantSlug: slug, token: registered.token }, () => resolve())));
let broadcast = 0;
let lastBroadcastAt = 0;
socket.on('message:new', () => {
  broadcast++;
  lastBroadcastAt = performance.now();
});

const body = (i: number) =>
  JSON.stringify({
    app: 'bench',
    timestamp: Date.now(),
    version: 2,
    type: 'message',
    payload: {
      id: `wamid.bench.${i}`,
      source: `52155${String(i % 200).padStart(8, '0')}`,
      type: 'text',
      payload: { text: `mensaje ${i}` },
      sender: { phone: `52155${String(i % 200).padStart(8, '0')}`, name: `Cliente ${i % 200}` },
    },
  });

let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < TOTAL) {
      const i = next++;
      const response = await fetch(`${base}${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(i) });
      if (response.status !== 200) throw new Error(`webhook answered ${response.status}`);
    }
  }),
);
const storedMs = performance.now() - started;
const deadline = Date.now() + 10_000;
while (broadcast < TOTAL && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
const [stored] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from messages`);

await database.db.execute(
  sql`create temporary table bench_raw (id uuid primary key default gen_random_uuid(), body text not null, created_at timestamptz not null default now())`,
);
const rawStarted = performance.now();
for (let i = 0; i < TOTAL; i++) await database.db.execute(sql`insert into bench_raw (body) values (${`mensaje ${i}`})`);
const rawMs = performance.now() - rawStarted;

const rate = (count: number, ms: number) => (count / (ms / 1000)).toFixed(0);
process.stdout.write(`database                 ${database.kind}\n`);
process.stdout.write(`webhooks posted          ${TOTAL} (concurrency ${CONCURRENCY}) in ${storedMs.toFixed(0)} ms\n`);
process.stdout.write(`messages stored          ${stored!.n}  -> ${rate(stored!.n, storedMs)} msg/s\n`);
process.stdout.write(`messages broadcast       ${broadcast}  -> ${rate(broadcast, lastBroadcastAt - started)} msg/s\n`);
process.stdout.write(`raw single-row INSERT    ${rate(TOTAL, rawMs)} rows/s\n`);
process.stdout.write(`ingest / raw insert      ${(Number(rate(stored!.n, storedMs)) / Number(rate(TOTAL, rawMs))).toFixed(2)}\n`);

socket.disconnect();
await app.close();
await database.close();
