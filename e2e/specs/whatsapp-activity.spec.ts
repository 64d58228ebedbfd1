import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { expect, test } from '@playwright/test';
import { DEMO } from '../fixtures/api.ts';
import { LoginPage } from '../pages/login-page.ts';
import { Shell } from '../pages/shell.ts';

/**
 * Issue 17: a refused webhook delivery and a job that failed for good show in the company's WhatsApp activity, and
 * Reintentar runs the job once more. The app handles every expected failure itself, so a job that fails for good is
 * written into a server's own embedded database while it is stopped: this journey runs its own built server (random
 * port, its own DATA_DIR) beside the suite's.
 */
const serverMain = path.resolve(import.meta.dirname, '../../apps/server/dist/src/main.js');

interface RunningServer {
  url: string;
  stop: () => Promise<void>;
}

async function startServer(dataDir: string): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, ['--conditions=embudo-dist', serverMain], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '' },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 60_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /running at (http:\/\/localhost:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!.replace('localhost', '127.0.0.1'));
      }
    });
    child.stderr!.on('data', (chunk) => (out += chunk));
    void exited.then(() => reject(new Error(`server exited: ${out}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

test('a refused delivery and a failed job show in Conexión WhatsApp, and Reintentar runs the job again', async ({ page, request }) => {
  // The embedded server starts twice on its own data dir: up to a minute each beside the other suites on a loaded machine.
  test.setTimeout(180_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-e2e-activity-'));
  let server = await startServer(dataDir);
  await server.stop();
  // While the server is stopped, the demo company gets a read receipt that failed for good.
  const database = new PGlite(path.join(dataDir, 'pg'));
  const [demo] = (await database.query<{ id: string }>(`select id from tenants where slug = 'demo'`)).rows;
  await database.query(
    `insert into jobs (name, payload, status, attempts, max_attempts, last_error, tenant_id, completed_at)
     values ('chats.send-read-receipt', $1, 'failed', 5, 5, 'Gupshup no respondió a tiempo', $2, now())`,
    [JSON.stringify({ tenantId: demo!.id, messageId: randomUUID() }), demo!.id],
  );
  await database.close();

  server = await startServer(dataDir);
  try {
    // A webhook URL copied with the wrong secret: refused, and recorded for the company.
    const forged = await request.post(`${server.url}/webhooks/gupshup/${demo!.id}/secreto-equivocado`, { data: { app: 'demo', type: 'message' } });
    expect(forged.status()).toBe(401);

    await page.goto(`${server.url}/login`);
    const login = new LoginPage(page);
    await login.signIn(DEMO);
    await login.expectOnBoard(DEMO.tenantSlug);
    await new Shell(page).openUserMenu();
    await page.getByRole('menuitem', { name: 'Conexión WhatsApp' }).click();
    const dialog = page.getByRole('dialog', { name: 'Conexión WhatsApp' });
    const activity = dialog.getByTestId('whatsapp-activity');
    await expect(activity.getByRole('img', { name: /Entregas por hora en las últimas 24 horas: 1 en total/ })).toBeVisible();
    await expect(activity.getByTestId('refused-delivery')).toContainText('Secreto del webhook incorrecto');
    const failedJob = activity.getByTestId('failed-job');
    await expect(failedJob).toContainText('Avisar a WhatsApp que se leyó un chat');
    await expect(failedJob).toContainText('Gupshup no respondió a tiempo');

    await failedJob.getByRole('button', { name: /^Reintentar/ }).click();
    await expect(page.getByText('El trabajo se volvió a poner en la cola.')).toBeVisible();
    // It ran once more (the message it was about no longer exists, so there was nothing to send) and left the list.
    await expect
      .poll(
        async () => {
          await activity.getByRole('button', { name: 'Actualizar' }).click();
          return activity.getByTestId('failed-job').count();
        },
        { timeout: 10_000 },
      )
      .toBe(0);
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
