import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { webhookDeliveryHours } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { registerTenant } from '../../../test/support/factories.ts';
import type { Db } from '../../platform/db/database.ts';
import { DeliveryCounter } from './webhook-activity.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const silent = { warn: () => {} };
const rowsOf = (tenantId: string) => t.database.db.select().from(webhookDeliveryHours).where(eq(webhookDeliveryHours.tenantId, tenantId));

describe('webhook delivery counts', () => {
  it('are kept in memory and written as one row per company, hour and kind, added to what is there', async () => {
    const { tenant } = await registerTenant(t.app);
    const counter = new DeliveryCounter(t.database.db, silent);
    const at = (iso: string) => new Date(iso);
    counter.count(tenant.id, 'message', at('2031-01-01T10:05:00Z'));
    counter.count(tenant.id, 'message', at('2031-01-01T10:50:00Z'));
    counter.count(tenant.id, 'message', at('2031-01-01T10:20:00Z'));
    counter.count(tenant.id, 'status', at('2031-01-01T11:01:00Z'));
    expect(await rowsOf(tenant.id)).toEqual([]);
    await counter.flush();
    counter.count(tenant.id, 'message', at('2031-01-01T10:10:00Z'));
    await counter.stop();
    const rows = (await rowsOf(tenant.id)).map((row) => [row.hour.toISOString(), row.kind, row.deliveries, row.lastAt.toISOString()]);
    expect(rows.sort()).toEqual([
      ['2031-01-01T10:00:00.000Z', 'message', 4, '2031-01-01T10:50:00.000Z'],
      ['2031-01-01T11:00:00.000Z', 'status', 1, '2031-01-01T11:01:00.000Z'],
    ]);
  });

  it('keeps the counts for the next flush when the database refuses them', async () => {
    const { tenant } = await registerTenant(t.app);
    const warnings: string[] = [];
    const failing = { insert: () => ({ values: () => ({ onConflictDoUpdate: () => Promise.reject(new Error('database gone')) }) }) } as unknown as Db;
    const counter = new DeliveryCounter(failing, { warn: (_details, message) => void warnings.push(message) });
    counter.count(tenant.id, 'refused', new Date('2031-01-02T08:00:00Z'));
    counter.count(tenant.id, 'refused', new Date('2031-01-02T08:30:00Z'));
    await counter.flush();
    expect(warnings).toEqual(['could not write webhook delivery counts; kept for the next try']);
    // The same counts, now written through a database that answers.
    Object.assign(counter, { db: t.database.db });
    await counter.flush();
    expect((await rowsOf(tenant.id)).map((row) => row.deliveries)).toEqual([2]);
  });

  it('lets at most 60 wrong-secret deliveries an hour per company keep their payload', () => {
    const counter = new DeliveryCounter(t.database.db, silent);
    const at = new Date('2031-01-03T09:00:00Z');
    const allowed = Array.from({ length: 65 }, () => counter.mayRecordWrongSecret('c1', at)).filter(Boolean).length;
    expect(allowed).toBe(60);
    expect(counter.mayRecordWrongSecret('c2', at)).toBe(true);
    expect(counter.mayRecordWrongSecret('c1', new Date('2031-01-03T10:00:00Z'))).toBe(true);
  });
});
