import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import {
  adminSessions,
  eventDeliveries,
  jobs,
  platformAdmins,
  sessions,
  signInThrottle,
  webhookDeliveryHours,
  webhookRejections,
} from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { registerTenant } from '../../../test/support/factories.ts';
import { DEFAULT_RETENTION, pruneExpiredRows } from './retention.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const DAY = 86_400_000;
const now = new Date('2031-03-10T12:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY);

describe('retention', () => {
  it('prunes finished jobs, old receipts, refused deliveries and hourly counts, expired sessions and stale throttling, keeping the rest', async () => {
    const db = t.database.db;
    const owner = await registerTenant(t.app);
    const tenantId = owner.tenant.id;
    const jobRow = (name: string, status: 'pending' | 'completed' | 'failed', finishedDaysAgo: number | null) => ({
      name,
      payload: {},
      status,
      completedAt: finishedDaysAgo === null ? null : daysAgo(finishedDaysAgo),
      createdAt: daysAgo(60),
    });
    await db.insert(jobs).values([
      jobRow('old-completed', 'completed', 8),
      jobRow('recent-completed', 'completed', 6),
      jobRow('old-failed', 'failed', 31),
      jobRow('recent-failed', 'failed', 29),
      // Failed before finish times were recorded: judged by when it was created.
      jobRow('failed-without-time', 'failed', null),
      // Pending work is never pruned, however old.
      jobRow('old-pending', 'pending', null),
    ]);
    await db.insert(eventDeliveries).values([
      { listener: 'test.old', eventId: randomUUID(), tenantId, deliveredAt: daysAgo(40) },
      { listener: 'test.recent', eventId: randomUUID(), tenantId, deliveredAt: daysAgo(20) },
    ]);
    await db.insert(webhookRejections).values([
      { tenantId, reason: 'viejo', rawBody: '{', receivedAt: daysAgo(8) },
      { tenantId, reason: 'reciente', rawBody: '{', receivedAt: daysAgo(6) },
    ]);
    await db.insert(webhookDeliveryHours).values([
      { tenantId, hour: daysAgo(36), kind: 'message', deliveries: 3, lastAt: daysAgo(36) },
      { tenantId, hour: daysAgo(34), kind: 'message', deliveries: 2, lastAt: daysAgo(34) },
    ]);
    const session = (hash: string, createdDaysAgo: number, usedDaysAgo: number, revoked = false) => ({
      tokenHash: hash,
      tenantId,
      userId: owner.user.id,
      createdAt: daysAgo(createdDaysAgo),
      lastUsedAt: daysAgo(usedDaysAgo),
      revokedAt: revoked ? daysAgo(usedDaysAgo) : null,
    });
    await db.insert(sessions).values([session('idle-expired', 40, 31), session('too-old', 91, 1), session('revoked', 2, 1, true), session('alive', 20, 0)]);
    const [admin] = await db.insert(platformAdmins).values({ email: 'retencion@embudo.test', name: 'Ret', passwordHash: 'x' }).returning();
    await db.insert(adminSessions).values([
      { tokenHash: 'admin-expired', adminId: admin!.id, createdAt: daysAgo(40), lastUsedAt: daysAgo(35) },
      { tokenHash: 'admin-alive', adminId: admin!.id, createdAt: daysAgo(1), lastUsedAt: daysAgo(0) },
    ]);
    await db.insert(signInThrottle).values([
      { key: 'stale-key', failures: 4, lastFailureAt: daysAgo(2), nextAttemptAt: daysAgo(2) },
      { key: 'fresh-key', failures: 4, lastFailureAt: daysAgo(0), nextAttemptAt: daysAgo(0) },
    ]);

    const deleted = await pruneExpiredRows(db, DEFAULT_RETENTION, now);

    expect(deleted).toMatchObject({
      completedJobs: 1,
      failedJobs: 2,
      eventReceipts: 1,
      webhookRejections: 1,
      webhookDeliveryHours: 1,
      adminSessions: 1,
      signInThrottle: 1,
    });
    // The session registerTenant opened was used just now (real time): with the 2031 clock it is idle-expired too.
    expect(deleted.sessions).toBe(4);
    expect((await db.select({ name: jobs.name }).from(jobs)).map((row) => row.name).sort()).toEqual(['old-pending', 'recent-completed', 'recent-failed']);
    expect((await db.select().from(eventDeliveries)).map((row) => row.listener)).toEqual(['test.recent']);
    expect((await db.select().from(webhookRejections).where(eq(webhookRejections.tenantId, tenantId))).map((row) => row.reason)).toEqual(['reciente']);
    expect(await db.select().from(webhookDeliveryHours).where(eq(webhookDeliveryHours.tenantId, tenantId))).toHaveLength(1);
    expect((await db.select().from(sessions).where(eq(sessions.tenantId, tenantId))).map((row) => row.tokenHash)).toEqual(['alive']);
    expect((await db.select().from(adminSessions)).map((row) => row.tokenHash)).toEqual(['admin-alive']);
    expect(
      (
        await db
          .select()
          .from(signInThrottle)
          .where(inArray(signInThrottle.key, ['stale-key', 'fresh-key']))
      ).map((row) => row.key),
    ).toEqual(['fresh-key']);

    // A second run finds nothing more.
    expect(Object.values(await pruneExpiredRows(db, DEFAULT_RETENTION, now)).every((count) => count === 0)).toBe(true);
  });

  it('runs as one periodic job: a pending run is scheduled when the worker starts and again after each run', async () => {
    const app = await buildTestApp({ runJobs: true, retention: { completedJobsDays: 1 } });
    try {
      const scheduled = async () => (await app.database.db.select().from(jobs).where(eq(jobs.name, 'platform.retention'))).map((row) => row.status).sort();
      const deadline = Date.now() + 10_000;
      while ((await scheduled()).join() !== 'completed,pending' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await scheduled()).toEqual(['completed', 'pending']);
      const [next] = await app.database.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.status, 'pending'), eq(jobs.name, 'platform.retention')));
      expect(next!.runAt.getTime() - Date.now()).toBeGreaterThan(55 * 60_000);
    } finally {
      await app.close();
    }
  });
});
