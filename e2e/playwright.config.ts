import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH_OPTIONS } from './chromium-launch.ts';

const port = Number(process.env.E2E_PORT ?? 3199);
const baseURL = `http://127.0.0.1:${port}`;
// Every run starts from an empty embedded database, as a newcomer's `npm start` does.
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-e2e-'));
// The compiled server, as production runs it (`npm run test:e2e` builds first).
const server = path.resolve(import.meta.dirname, '../apps/server/dist/src/main.js');

export default defineConfig({
  testDir: './specs',
  // A guard against a journey that hangs, not a speed check: in CI the journeys share two cores with the web suite and
  // the server suites on PostgreSQL, and there the bot editor's journey (eight drags in the flow canvas, each mouse move
  // 7–8 s) ran out of 120 s (26–28 s alone on the same machine; every journey took about twice as long in that run).
  timeout: 180_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
  },
  webServer: {
    command: `node --conditions=embudo-dist ${server}`,
    url: `${baseURL}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'operador@embudo.test',
      ADMIN_PASSWORD: 'Operador123',
      DATABASE_URL: '',
      REDIS_URL: '',
      // The journeys rely on the deterministic built-in model ("IA de prueba"), whatever keys the machine has.
      AI_PROVIDER: 'sandbox',
    },
  },
});
