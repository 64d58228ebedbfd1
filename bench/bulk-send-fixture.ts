/**
 * What the bulk-send benches share: the server on the sandbox provider, a company with an approved template, the
 * upload of an N-row Excel file as a batch into the first column of its first funnel, and the time of each send the
 * sandbox provider accepted.
 */
import { performance } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import { phoneOf, registerCompany, setSendRate, signInPlatformAdmin, sleep, startBenchApp } from './support.ts';

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
 * `runJobs: false` leaves the workers stopped, so a bench can time each stage from the queue's start.
 * `messagesPerSecond`: the company's send rate, set as the operator sets it (1,000, the most a number may send,
 * leaves the pipeline practically unpaced); without it the provider's default applies.
 */
export async function startBulkSendBench(options: { runJobs: boolean; messagesPerSecond?: number; embeddedOnDisk?: boolean }) {
  const bench = await startBenchApp({ runJobs: options.runJobs }, { embeddedOnDisk: options.embeddedOnDisk });
  const { app } = bench;
  app.sandboxPhone!.templateReviewMs = 20;
  // When the sandbox provider accepted each send (performance.now()).
  const providerAccepted: number[] = [];
  const fake = app.sandboxPhone!;
  const handleSend = fake.handleSend.bind(fake);
  fake.handleSend = async (route, headers, form) => {
    const answer = await handleSend(route, headers, form);
    if (answer.status < 300) providerAccepted.push(performance.now());
    return answer;
  };

  const company = await registerCompany(bench.base, 'bulk');
  if (options.messagesPerSecond !== undefined) {
    const adminToken = await signInPlatformAdmin(bench.database.db, bench.base);
    if (!(await setSendRate(bench.base, adminToken, company.tenant.id, options.messagesPerSecond))) throw new Error('the send-rate route is missing');
  }
  const template = await company.send<{ id: string }>('POST', '/templates', { name: 'bench_bulk', body_text: 'Hola {{1}}, tu pedido {{2}} está listo.' });
  for (;;) {
    const synced = await company.send<{ templates: Array<{ id: string; status: string }> }>('POST', '/templates/sync', {});
    if (synced.templates.find((entry) => entry.id === template.id)?.status === 'APPROVED') break;
    await sleep(50);
  }
  const [funnel] = await company.get<Array<{ id: string }>>('/funnels/summary');
  const columns = await company.get<Array<{ id: string }>>(`/funnels/${funnel!.id}/columns`);

  /** An Excel file of `rows` customers (phones from `firstPhone` on), as a member fills it in. */
  const customersFile = async (rows: number, firstPhone = 0) => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Clientes');
    sheet.addRow(['telefono', 'Variable 1', 'Variable 2']);
    for (let i = firstPhone; i < firstPhone + rows; i++) sheet.addRow([phoneOf(i), `Cliente ${i}`, `P-${i}`]);
    return Buffer.from(await workbook.xlsx.writeBuffer());
  };

  /** Uploads a file of customers (or one of `rows` customers, made first) as one batch. */
  const uploadBatch = async (rows: number | Buffer<ArrayBuffer>, firstPhone = 0) => {
    const file = typeof rows === 'number' ? await customersFile(rows, firstPhone) : rows;
    const form = new FormData();
    form.append('file', new Blob([file]), 'clientes.xlsx');
    form.append('templateId', template.id);
    form.append('targetColumnId', columns[0]!.id);
    form.append('phoneColumn', 'telefono');
    const started = performance.now();
    const created = await fetch(company.api(`/funnels/${funnel!.id}/batches`), { method: 'POST', headers: company.headers, body: form });
    if (created.status !== 201) throw new Error(`batch refused: ${created.status} ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    return { id, started, acceptedMs: performance.now() - started, fileBytes: file.length };
  };

  const batch = async (id: string) => (await company.get<Batch[]>('/batches')).find((entry) => entry.id === id);

  return { ...bench, company, providerAccepted, funnelId: funnel!.id, customersFile, uploadBatch, batch };
}
