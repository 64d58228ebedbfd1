import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { BatchDto } from '@embudo/contracts/http/bulk-sends';
import type { TemplateDto } from '@embudo/contracts/http/templates';
import { openPglite, queryRows } from '../../src/platform/db/database.ts';
import { excelFile, multipartForm } from '../support/excel.ts';
import { registrationPayload } from '../support/factories.ts';
import { api, startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { startFakeGupshupServer } from '../fakes/fake-gupshup-server.ts';

/**
 * Issue 17's acceptance at process level: SIGTERM while a bulk send is going out. The server stops within
 * SHUTDOWN_TIMEOUT_MS with exit code 0 and leaves no job claimed; started again on the same DATA_DIR it sends the
 * rest, and every customer gets the template exactly once. Live mode against the Gupshup fake running in this test,
 * so the provider's record of sends outlives the server's restart.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-shutdown-'));
const servers: ServerProcess[] = [];
const SHUTDOWN_TIMEOUT_MS = 8_000;
const ROWS = 60;
const OPERATOR = { email: 'operador@embudo.test', password: 'Operador123' };
let gupshup: Awaited<ReturnType<typeof startFakeGupshupServer>>;

beforeAll(async () => {
  gupshup = await startFakeGupshupServer();
  gupshup.fake.templateReviewMs = 20;
});
afterAll(async () => {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  await Promise.all(servers.map((server) => server.exited));
  await gupshup.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const start = async () => {
  const server = await startServerProcess(
    {
      DATA_DIR: dataDir,
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      LOG_LEVEL: 'info',
      PROVIDER_MODE: 'live',
      GUPSHUP_API_URL: gupshup.url,
      GUPSHUP_PARTNER_URL: gupshup.url,
      ADMIN_EMAIL: OPERATOR.email,
      ADMIN_PASSWORD: OPERATOR.password,
      // Two starts of an embedded server in one test: each up to a minute and more beside the other suites on a loaded machine.
    },
    120_000,
  );
  servers.push(server);
  // Gupshup calls the webhook of whichever process now runs (its port changes on a restart).
  for (const app of gupshup.apps) app.callbackUrl = app.callbackUrl.replace(/^http:\/\/[^/]+/, server.url);
  return server;
};

/** The template sends Gupshup received, by destination phone. */
const sendsByPhone = () => {
  const counts = new Map<string, number>();
  for (const request of gupshup.fake.requests) {
    if (!request.path.endsWith('/template/msg')) continue;
    const phone = request.form.destination!;
    counts.set(phone, (counts.get(phone) ?? 0) + 1);
  }
  return counts;
};

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The database as the stopped server left it (the embedded database admits one process at a time). */
async function inspect<T>(read: (query: <Row>(statement: ReturnType<typeof sql>) => Promise<Row[]>) => Promise<T>): Promise<T> {
  const database = await openPglite(dataDir);
  try {
    return await read((statement) => queryRows(database.db, statement));
  } finally {
    await database.close();
  }
}

describe('SIGTERM during a bulk send', () => {
  it('exits within the deadline with no job left claimed, and after a restart every row is sent exactly once', async () => {
    const first = await start();
    const operator = (await (await api(first.url, undefined, 'POST', '/api/auth/admin/login', OPERATOR)).json()) as { token: string };
    const credentials = { apiKey: 'live-key-123', partnerEmail: 'ops@embudo.test', partnerPassword: 'secreto-partner' };
    expect((await api(first.url, operator.token, 'PUT', '/api/admin/settings/gupshup', credentials)).status).toBe(200);
    const registered = await api(first.url, undefined, 'POST', '/api/auth/register', registrationPayload());
    expect(registered.status).toBe(201);
    const { token } = (await registered.json()) as { token: string };
    const account = { appName: `apagado-${Date.now()}`, sourceNumber: '5215500000042' };
    const saved = await api(first.url, token, 'PUT', '/api/gupshup/settings', account);
    expect(saved.status).toBe(200);
    gupshup.apps.push({ ...account, callbackUrl: ((await saved.json()) as { webhookUrl: string }).webhookUrl, apiKey: credentials.apiKey });
    const created = await api(first.url, token, 'POST', '/api/templates', { name: 'aviso_envio', body_text: 'Hola {{1}}, tu pedido salió.' });
    expect(created.status).toBe(201);
    const templateId = ((await created.json()) as { id: string }).id;
    await until(async () => {
      const synced = (await (await api(first.url, token, 'POST', '/api/templates/sync')).json()) as { templates: TemplateDto[] };
      return synced.templates.find((template) => template.id === templateId && template.status === 'APPROVED');
    }, 15_000);
    const [funnel] = (await (await api(first.url, token, 'GET', '/api/funnels/summary')).json()) as { id: string }[];
    const [, column] = (await (await api(first.url, token, 'GET', `/api/funnels/${funnel!.id}/columns`)).json()) as { id: string }[];
    const phones = Array.from({ length: ROWS }, (_, row) => `52155900${String(row).padStart(5, '0')}`);
    const form = multipartForm(
      { templateId, targetColumnId: column!.id, phoneColumn: 'telefono' },
      { field: 'file', name: 'clientes.xlsx', data: await excelFile([['telefono', 'Variable 1'], ...phones.map((phone, row) => [phone, `Cliente ${row}`])]) },
    );
    const posted = await fetch(`${first.url}/api/funnels/${funnel!.id}/batches`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...form.headers },
      body: form.body,
    });
    expect(posted.status).toBe(201);
    const batchId = ((await posted.json()) as BatchDto).id;
    const batchOn = async (server: ServerProcess) =>
      ((await (await api(server.url, token, 'GET', '/api/batches')).json()) as BatchDto[]).find((batch) => batch.id === batchId)!;

    // Some rows out (the batch goes 10 rows every 500 ms), most still to go: stop now.
    await until(async () => (sendsByPhone().size > 0 ? true : undefined), 15_000);
    const signalled = performance.now();
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const stoppedInMs = performance.now() - signalled;
    expect(stoppedInMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    expect(first.stdout()).toContain('shut down cleanly');
    const sentBeforeRestart = sendsByPhone().size;
    expect(sentBeforeRestart).toBeLessThan(ROWS);

    const left = await inspect(async (query) => ({
      running: await query<{ n: number }>(sql`select count(*)::int as n from jobs where status = 'running'`),
      pending: await query<{ n: number }>(sql`select count(*)::int as n from jobs where status = 'pending' and name = 'bulk-sends.send-chunk'`),
    }));
    expect(left.running[0]!.n).toBe(0);
    // The shutdown came in the middle: chunks were left for the next start.
    expect(left.pending[0]!.n).toBeGreaterThan(0);

    const second = await start();
    const done = await until(async () => {
      const batch = await batchOn(second);
      return batch.status === 'completed' && sendsByPhone().size === ROWS ? batch : undefined;
    }, 30_000);
    expect(done.failed_count).toBe(0);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    const counts = sendsByPhone();
    expect([...counts.keys()].sort()).toEqual(phones);
    expect([...counts.entries()].filter(([, sent]) => sent !== 1)).toEqual([]);
    const repeated = await inspect((query) =>
      query<{ n: number }>(sql`select count(*)::int as n from messages where type = 'template' group by card_id having count(*) > 1`),
    );
    expect(repeated).toEqual([]);
  }, 300_000);
});
