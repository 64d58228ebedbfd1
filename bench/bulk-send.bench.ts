/**
 * One bulk send of a 2,000-row Excel file through the whole pipeline (upload and checks, paced chunk jobs, the
 * outbox's send jobs, the sandbox Gupshup and its status webhooks) and prints rows/s for each stage. By default
 * the chunks are not paced, so the figures show what the pipeline can do; the product paces batches (printed
 * beside) and BENCH_CHUNK_SIZE / BENCH_CHUNK_INTERVAL_MS run it paced. Figures only; nothing asserts a time.
 */
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { openPglite, openPostgres, queryRows } from '../apps/server/src/platform/db/database.ts';
import { createLogger } from '../apps/server/src/platform/logger/logger.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { DEFAULT_BULK_SEND_PACE } from '../apps/server/src/modules/bulk-sends/bulk-sends.service.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 2000);
const pace = { chunkSize: Number(process.env.BENCH_CHUNK_SIZE ?? 20), chunkIntervalMs: Number(process.env.BENCH_CHUNK_INTERVAL_MS ?? 0) };
const DEADLINE_MS = 10 * 60_000;

interface Batch {
  id: string;
  status: string;
  total_messages: number;
  sent_count: number;
  delivered_count: number;
  read_count: number;
  failed_count: number;
}

const database = process.env.DATABASE_URL ? await openPostgres(process.env.DATABASE_URL) : await openPglite(undefined);
const app = await buildApp({
  db: database.db, logger: createLogger('silent'), mediaDir: os.tmpdir(), appSecret: 'bench-and-test-secret-0123456789abcdef',
  providerMode: 'sandbox', bulkSendPace: pace,
});
await app.listen({ port: 0, host: '127.0.0.1' });
app.sandboxPhone!.templateReviewMs = 20;
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

const slug = `bulk-${Date.now()}`;
const session = await (await fetch(`${base}/api/auth/register`, {
  method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ companyName: 'Bench Bulk', companySlug: slug, userName: 'Bench', userEmail: 'bench@bulk.test', userPassword: 'Bench12345' }),
})).json() as { token: string };
const headers = { authorization: `Bearer ${session.token}` };
const api = (path: string) => `${base}/t/${slug}/api${path}`;
const post = async (path: string, body: unknown) => (await fetch(api(path), { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();

const template = await post('/templates', { name: 'bench_bulk', body_text: 'Hola {{1}}, tu pedido {{2}} está listo.' }) as { id: string };
for (;;) {
  const synced = await post('/templates/sync', {}) as { templates: Array<{ id: string; status: string }> };
  if (synced.templates.find((entry) => entry.id === template.id)?.status === 'APPROVED') break;
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const [funnel] = await (await fetch(api('/funnels/summary'), { headers })).json() as Array<{ id: string }>;
const columns = await (await fetch(api(`/funnels/${funnel!.id}/columns`), { headers })).json() as Array<{ id: string }>;

const workbook = new ExcelJS.Workbook();
const sheet = workbook.addWorksheet('Clientes');
sheet.addRow(['telefono', 'Variable 1', 'Variable 2']);
for (let i = 0; i < ROWS; i++) sheet.addRow([`52155${String(i).padStart(8, '0')}`, `Cliente ${i}`, `P-${i}`]);
const file = Buffer.from(await workbook.xlsx.writeBuffer());

const form = new FormData();
form.append('file', new Blob([file]), 'clientes.xlsx');
form.append('templateId', template.id);
form.append('targetColumnId', columns[0]!.id);
form.append('phoneColumn', 'telefono');
const started = performance.now();
const created = await fetch(api(`/funnels/${funnel!.id}/batches`), { method: 'POST', headers, body: form });
if (created.status !== 201) throw new Error(`batch refused: ${created.status} ${await created.text()}`);
const accepted = performance.now() - started;
const { id } = await created.json() as { id: string };
// The workers start once the upload answered, so each stage is timed on its own (on PGlite a running queue
// keeps the one connection, and the event loop, busy).
const sending = performance.now();
app.queue.start();

const reached: Partial<Record<'stored' | 'sent' | 'delivered' | 'read' | 'settled', number>> = {};
let last: Batch | undefined;
while (performance.now() - started < DEADLINE_MS && reached.read === undefined) {
  const batches = await (await fetch(api('/batches'), { headers })).json() as Batch[];
  last = batches.find((batch) => batch.id === id);
  const at = performance.now() - sending;
  if (reached.stored === undefined) {
    const [pending] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from batch_recipients where batch_id = ${id} and status = 'pending'`);
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
process.stdout.write(`rows                         ${ROWS} (file ${(file.length / 1024).toFixed(0)} KB)\n`);
process.stdout.write(`pace                         ${pace.chunkIntervalMs === 0 ? 'unpaced' : `${pace.chunkSize} rows every ${pace.chunkIntervalMs} ms`} (product default: ${DEFAULT_BULK_SEND_PACE.chunkSize} rows every ${DEFAULT_BULK_SEND_PACE.chunkIntervalMs} ms)\n`);
process.stdout.write(`upload checked and stored    ${accepted.toFixed(0)} ms -> ${rate(accepted)}\n`);
process.stdout.write(`from the queue's start:\n`);
process.stdout.write(`chats and messages stored    ${rate(reached.stored)}\n`);
process.stdout.write(`accepted by Gupshup (done)   ${rate(reached.settled)}\n`);
process.stdout.write(`sent (webhook)               ${rate(reached.sent)}\n`);
process.stdout.write(`delivered (webhook)          ${rate(reached.delivered)}\n`);
process.stdout.write(`read (webhook)               ${rate(reached.read)}\n`);
process.stdout.write(`final counts                 sent ${last?.sent_count} delivered ${last?.delivered_count} read ${last?.read_count} failed ${last?.failed_count}\n`);

await app.close();
await database.close();
