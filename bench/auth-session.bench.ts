/**
 * Prints how fast the auth hot path is on the embedded database: sign-in (argon2id verify) and
 * a session-checked call (token hash lookup). Figures only; nothing here asserts a time.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { openPglite } from '../apps/server/src/platform/db/database.ts';
import { createLogger } from '../apps/server/src/platform/logger/logger.ts';
import { buildApp } from '../apps/server/src/app.ts';

const database = await openPglite(undefined);
const app = await buildApp({
  db: database.db,
  logger: createLogger('silent'),
  mediaDir: os.tmpdir(),
  appSecret: 'bench-and-test-secret-0123456789abcdef',
  throttle: { windowMs: 1, perAddress: 1e9, freeAccountFailures: 1e9, accountDelayBaseMs: 0, accountDelayCapMs: 0 },
});
await app.ready();

const register = await app.inject({
  method: 'POST',
  url: '/api/auth/register',
  payload: { companyName: 'Bench', companySlug: 'bench', userName: 'Bench', userEmail: 'bench@bench.test', userPassword: 'Bench12345' },
});
const { token } = register.json() as { token: string };

async function measure(label: string, runs: number, call: () => Promise<{ statusCode: number }>) {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const response = await call();
    samples.push(performance.now() - started);
    if (response.statusCode >= 400) throw new Error(`${label} failed with ${response.statusCode}`);
  }
  samples.sort((a, b) => a - b);
  const pct = (p: number) => samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))]!.toFixed(2);
  process.stdout.write(`${label.padEnd(28)} runs=${runs} p50=${pct(50)}ms p95=${pct(95)}ms max=${pct(100)}ms\n`);
}

await measure('POST /api/auth/login', 30, () =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'bench@bench.test', password: 'Bench12345', tenantSlug: 'bench' } }),
);
await measure('GET /api/auth/me', 300, () => app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } }));

await app.close();
await database.close();
