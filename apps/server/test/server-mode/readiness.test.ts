import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ runJobs: true, redisUrl: process.env.REDIS_URL! });
});
afterAll(async () => t.close());

describe('GET /readyz on PostgreSQL + Redis', () => {
  it('checks Redis beside the database, the migrations and the job worker', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ready',
      failing: [],
      checks: { database: { ok: true }, migrations: { ok: true }, queue: { ok: true }, redis: { ok: true } },
    });
  });
});
