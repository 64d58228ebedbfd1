/**
 * Memory of a 100,000-row bulk send upload (issue 16: RSS growth ≤ 200 MB). The file is written first with exceljs's
 * streaming writer to a temporary file, then uploaded as a batch through the real route (streamed read, checks, rows
 * inserted a few thousand per statement); the process's resident memory is sampled while the upload runs. Figures
 * only; nothing asserts a size. BENCH_ROWS changes the row count. The embedded database is in a DATA_DIR on disk, as
 * `npm start` runs it (the tests' in-memory PGlite would count its files as this process's memory); its buffers and
 * WebAssembly memory are still this process's: the same rows inserted by SQL alone, on a fresh app, give the
 * database's share of the growth. (Loading the same file whole, as the reader did before issue 16, grew RSS by about
 * 250 MB for the parse alone on the same machine.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { spawnSync } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { startBulkSendBench } from './bulk-send-fixture.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;

/** A module that writes the upload's workbook: `rows` customers with a phone, two variables and a name. */
function writeFileScript(file: string, rows: number) {
  return `
    import ExcelJS from 'exceljs';
    const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: ${JSON.stringify(file)}, useSharedStrings: false, useStyles: false });
    const sheet = writer.addWorksheet('Clientes');
    sheet.addRow(['telefono', 'Variable 1', 'Variable 2', 'nombre']).commit();
    for (let i = 0; i < ${rows}; i++) sheet.addRow(['52155' + String(i).padStart(8, '0'), 'Cliente ' + i, 'P-' + i, 'Cliente número ' + i]).commit();
    sheet.commit();
    await writer.commit();`;
}

/** The resident memory's peak while `work` runs, sampled every 10 ms and at the end. */
async function peakRss<T>(work: () => Promise<T>): Promise<{ result: T; before: number; peak: number; ms: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
  const started = performance.now();
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, before, peak, ms: performance.now() - started };
  } finally {
    clearInterval(sampler);
  }
}

// 1. The file, written as a stream to disk by a child process: written here, the writer's churn grew this process's
// heap to several hundred MB first, which the upload then reused (its growth read 0 to 135 MB from run to run).
const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-bench-')), 'clientes.xlsx');
const writing = spawnSync(process.execPath, ['--input-type=module', '-e', writeFileScript(file, ROWS)], {
  cwd: import.meta.dirname,
  stdio: 'inherit',
});
if (writing.status !== 0) throw new Error(`the file was not written (exit ${writing.status})`);
const fileBytes = fs.statSync(file).size;

// 2. The upload through the route, on a running server with a company and an approved template.
const bench = await startBulkSendBench({ runJobs: false, messagesPerSecond: 80, embeddedOnDisk: true });
const [template] = (await (await fetch(bench.company.api('/templates?status=APPROVED'), { headers: bench.company.headers })).json()) as Array<{ id: string }>;
const [column] = (await (await fetch(bench.company.api(`/funnels/${bench.funnelId}/columns`), { headers: bench.company.headers })).json()) as Array<{
  id: string;
}>;
const upload = await peakRss(async () => {
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(file)]), 'clientes.xlsx');
  form.append('templateId', template!.id);
  form.append('targetColumnId', column!.id);
  form.append('phoneColumn', 'telefono');
  form.append('nameColumn', 'nombre');
  const answer = await fetch(bench.company.api(`/funnels/${bench.funnelId}/batches`), { method: 'POST', headers: bench.company.headers, body: form });
  if (answer.status !== 201) throw new Error(`batch refused: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as { total_messages: number };
});
await bench.close();

fs.rmSync(path.dirname(file), { recursive: true, force: true });

// 3. On the embedded database the rows themselves live in this process's memory: what storing the same rows costs
// without any file (one INSERT … SELECT on a fresh app) tells the database's share of the upload's growth.
let databaseShare: number | undefined;
if (bench.database.kind === 'pglite') {
  const fresh = await startBulkSendBench({ runJobs: false, messagesPerSecond: 80, embeddedOnDisk: true });
  const { id } = await fresh.uploadBatch(1);
  const stored = await peakRss(() =>
    fresh.database.db.execute(sql`
      insert into batch_recipients (tenant_id, batch_id, row_number, phone, contact_name, variables, position, status)
      select ${fresh.company.tenant.id}::uuid, ${id}::uuid, g + 10, '52155' || lpad(g::text, 8, '0'), 'Cliente número ' || g,
        jsonb_build_array('Cliente ' || g, 'P-' || g), g + 10, 'pending'
      from generate_series(1, ${ROWS}) g`),
  );
  databaseShare = stored.peak - stored.before;
  await fresh.close();
}

process.stdout.write(
  `database                          ${bench.database.kind === 'pglite' ? 'pglite, in a DATA_DIR on disk (as npm start)' : bench.database.kind}\n`,
);
process.stdout.write(`rows                              ${ROWS} (file ${mb(fileBytes)}, ${(fileBytes / 1024).toFixed(0)} KB)\n`);
process.stdout.write(
  `upload, streamed (the route)      RSS ${mb(upload.before)} -> peak ${mb(upload.peak)}: growth ${mb(upload.peak - upload.before)} ` +
    `(target ≤ 200 MB), ${upload.result.total_messages} rows stored in ${(upload.ms / 1000).toFixed(1)} s\n`,
);
if (databaseShare !== undefined) {
  process.stdout.write(
    `the same rows stored by SQL alone  RSS growth ${mb(databaseShare)} (the in-process database's own share); ` +
      `the upload's own: ${mb(upload.peak - upload.before - databaseShare)}\n`,
  );
}
