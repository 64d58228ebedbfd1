/**
 * What the bulk-send benches share: the server on the sandbox provider, a tenant with an approved template, and
 * the upload of an N-row Excel file as a batch into the first column of its first funnel.
 */
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import { openPglite, openPostgres } from '../apps/server/src/platform/db/database.ts';
import { createLogger } from '../apps/server/src/platform/logger/logger.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { bootstrapPlatformAdmin } from '../apps/server/src/modules/admin/index.ts';

export interface Batch {
  id: string;
  status: string;
  total_messages: number;
  sent_count: number;
  delivered_count: number;
  read_count: number;
  failed_count: number;
}

/**
 * `messagesPerSecond`: the company's send rate, set as the operator sets it (PUT /api/admin/tenants/{id}/send-rate);
 * 1000, the most a number may send, leaves the pipeline practically unpaced.
 */
export async function startBulkSendBench(pace: { messagesPerSecond: number }) {
  const database = process.env.DATABASE_URL ? await openPostgres(process.env.DATABASE_URL) : await openPglite(undefined);
  const app = await buildApp({
    db: database.db,
    logger: createLogger('silent'),
    mediaDir: os.tmpdir(),
    appSecret: 'bench-and-test-secret-0123456789abcdef',
    providerMode: 'sandbox',
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  app.sandboxPhone!.templateReviewMs = 20;
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const slug = `bulk-${Date.now()}`;
  const session = (await (
    await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ companyName: 'Bench Bulk', companySlug: slug, userName: 'Bench', userEmail: 'bench@bulk.test', userPassword: 'Bench12345' }),
    })
  ).json()) as { token: string; tenant: { id: string } };
  const operator = { email: 'bench-operator@bulk.test', password: 'Operador123' };
  await bootstrapPlatformAdmin(database.db, operator);
  const { token: operatorToken } = (await (
    await fetch(`${base}/api/auth/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(operator) })
  ).json()) as { token: string };
  const rate = await fetch(`${base}/api/admin/tenants/${session.tenant.id}/send-rate`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ messagesPerSecond: pace.messagesPerSecond }),
  });
  if (!rate.ok) throw new Error(`send rate refused: ${rate.status} ${await rate.text()}`);
  const headers = { authorization: `Bearer ${session.token}` };
  const api = (path: string) => `${base}/t/${slug}/api${path}`;
  const get = async <T>(path: string) => (await fetch(api(path), { headers })).json() as Promise<T>;
  const post = async <T>(path: string, body: unknown) =>
    (await fetch(api(path), { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<T>;

  const template = await post<{ id: string }>('/templates', { name: 'bench_bulk', body_text: 'Hola {{1}}, tu pedido {{2}} está listo.' });
  for (;;) {
    const synced = await post<{ templates: Array<{ id: string; status: string }> }>('/templates/sync', {});
    if (synced.templates.find((entry) => entry.id === template.id)?.status === 'APPROVED') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const [funnel] = await get<Array<{ id: string }>>('/funnels/summary');
  const columns = await get<Array<{ id: string }>>(`/funnels/${funnel!.id}/columns`);

  /** Uploads `rows` customers as one batch; the queue is not started (the caller times its stages). */
  const uploadBatch = async (rows: number) => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Clientes');
    sheet.addRow(['telefono', 'Variable 1', 'Variable 2']);
    for (let i = 0; i < rows; i++) sheet.addRow([`52155${String(i).padStart(8, '0')}`, `Cliente ${i}`, `P-${i}`]);
    const file = Buffer.from(await workbook.xlsx.writeBuffer());
    const form = new FormData();
    form.append('file', new Blob([file]), 'clientes.xlsx');
    form.append('templateId', template.id);
    form.append('targetColumnId', columns[0]!.id);
    form.append('phoneColumn', 'telefono');
    const started = performance.now();
    const created = await fetch(api(`/funnels/${funnel!.id}/batches`), { method: 'POST', headers, body: form });
    if (created.status !== 201) throw new Error(`batch refused: ${created.status} ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    return { id, started, acceptedMs: performance.now() - started, fileBytes: file.length };
  };

  const batch = async (id: string) => (await get<Batch[]>('/batches')).find((entry) => entry.id === id);

  const close = async () => {
    await app.close();
    await database.close();
  };

  return { database, app, base, slug, token: session.token, headers, api, funnelId: funnel!.id, uploadBatch, batch, close };
}
