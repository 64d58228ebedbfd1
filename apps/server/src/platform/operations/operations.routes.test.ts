import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { readinessResponse } from '@embudo/contracts/http/operations';
import { buildTestApp, TEST_APP_SECRET, type TestApp } from '../../../test/support/build-test-app.ts';
import { buildApp } from '../../app.ts';
import { createLogger } from '../logger/logger.ts';
import type { Db } from '../db/database.ts';
import * as schema from '../../../db/schema/index.ts';

let t: TestApp;
const extra: Array<() => Promise<void>> = [];

beforeAll(async () => {
  t = await buildTestApp({ runJobs: true, metricsToken: 'metrics-token-0123456789' });
});
afterAll(async () => t.close());
afterEach(async () => {
  for (const close of extra.splice(0)) await close();
});

const readiness = async (app = t.app) => {
  const response = await app.inject({ method: 'GET', url: '/readyz' });
  return { status: response.statusCode, body: readinessResponse.parse(response.json()) };
};

describe('GET /healthz and GET /readyz', () => {
  it('answers alive, and ready when the database, its migrations and the job worker answer', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await readiness();
    expect(ready).toEqual({
      status: 200,
      body: { status: 'ready', failing: [], checks: { database: { ok: true }, migrations: { ok: true }, queue: { ok: true } } },
    });
  });

  it('answers 503 naming the queue when the job worker is not running', async () => {
    await t.app.queue.stop();
    try {
      const ready = await readiness();
      expect(ready.status).toBe(503);
      expect(ready.body.failing).toEqual(['queue']);
      expect(ready.body.checks.queue).toEqual({ ok: false, detail: 'the job worker is not running' });
    } finally {
      t.app.queue.start();
    }
  });

  it('answers 503 naming the database when PostgreSQL does not answer (a pool on a port where nothing listens)', async () => {
    const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/embudo', connectionTimeoutMillis: 1_000 });
    const app = await buildApp({
      db: drizzle(pool, { schema }) as unknown as Db,
      logger: createLogger('silent'),
      mediaDir: t.mediaDir,
      appSecret: TEST_APP_SECRET,
    });
    extra.push(async () => {
      await app.close();
      await pool.end();
    });
    const ready = await readiness(app);
    expect(ready.status).toBe(503);
    expect(ready.body.failing).toEqual(['database', 'migrations']);
    expect(ready.body.checks.database?.ok).toBe(false);
    expect(ready.body.checks.database?.detail).toMatch(/ECONNREFUSED|connect/);
    // Alive all the same: a restart would not bring the database back.
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('answers 503 naming Redis when REDIS_URL is set and Redis does not answer', async () => {
    const app = await buildApp({
      db: t.database.db,
      logger: createLogger('silent'),
      mediaDir: t.mediaDir,
      appSecret: TEST_APP_SECRET,
      redisUrl: 'redis://127.0.0.1:1',
    });
    extra.push(() => app.close());
    const ready = await readiness(app);
    expect(ready.status).toBe(503);
    expect(ready.body.failing).toEqual(['redis']);
    expect(ready.body.checks.redis?.detail).toMatch(/no answer within/);
  });

  it('answers 503 naming the migrations when the newest one is not applied', async () => {
    await t.database.db.execute(sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`);
    const ready = await readiness();
    expect(ready.status).toBe(503);
    expect(ready.body.failing).toEqual(['migrations']);
    expect(ready.body.checks.migrations?.detail).toMatch(/^migration \d{4}_\w+ is not applied$/);
  });
});

describe('GET /metrics', () => {
  it('answers loopback callers in Prometheus text format', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.body).toContain('# TYPE embudo_http_request_duration_seconds histogram');
    expect(response.body).toContain('process_cpu_user_seconds_total');
  });

  it('asks callers outside loopback for METRICS_TOKEN as a bearer token', async () => {
    const remote = { remoteAddress: '203.0.113.9' };
    expect((await t.app.inject({ method: 'GET', url: '/metrics', ...remote })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/metrics', ...remote, headers: { authorization: 'Bearer wrong' } })).statusCode).toBe(401);
    const allowed = await t.app.inject({ method: 'GET', url: '/metrics', ...remote, headers: { authorization: 'Bearer metrics-token-0123456789' } });
    expect(allowed.statusCode).toBe(200);
    // A proxy on this very host forwards outside callers: they need the token too.
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': '203.0.113.9' } })).statusCode).toBe(401);
  });

  it('is off outside loopback without METRICS_TOKEN', async () => {
    const app = await buildApp({ db: t.database.db, logger: createLogger('silent'), mediaDir: t.mediaDir, appSecret: TEST_APP_SECRET });
    extra.push(() => app.close());
    expect((await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': '203.0.113.9' } })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
  });
});
