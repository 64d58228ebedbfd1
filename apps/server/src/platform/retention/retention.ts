import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from '../db/database.ts';
import { defineJob } from '../queue/job-definition.ts';
import type { QueueLogger } from '../queue/job-queue.ts';

const DAY_MS = 86_400_000;

/** How long finished and expired rows are kept (JOB_RETENTION_DAYS, FAILED_JOB_RETENTION_DAYS, WEBHOOK_REJECTION_RETENTION_DAYS). */
export interface RetentionPolicy {
  completedJobsDays: number;
  /** Failed jobs stay longer: the activity panel lists them with Reintentar. */
  failedJobsDays: number;
  /** Refused webhook deliveries, with their raw payload. */
  webhookRejectionsDays: number;
  /** The hourly webhook counts behind the activity chart and the operator's "silent companies" list. */
  deliveryHoursDays: number;
  /** Sessions expire after this idle time or this long after sign-in (SESSION_IDLE_DAYS, SESSION_MAX_DAYS). */
  sessionLifetime: { idleMs: number; maxMs: number };
}

export const DEFAULT_RETENTION: RetentionPolicy = {
  completedJobsDays: 7,
  failedJobsDays: 30,
  webhookRejectionsDays: 7,
  deliveryHoursDays: 35,
  sessionLifetime: { idleMs: 30 * DAY_MS, maxMs: 90 * DAY_MS },
};

/** How often the retention job runs. */
export const RETENTION_EVERY_MS = 60 * 60_000;
/** Rows deleted per statement, so a first run on a large table never holds long locks. */
const BATCH = 5_000;

const ago = (now: Date, ms: number) => new Date(now.getTime() - ms).toISOString();
const daysAgo = (now: Date, days: number) => ago(now, days * DAY_MS);

/** Deletes the rows of `table` matching `where`, a batch at a time; answers how many. */
async function pruneTable(db: Db, table: string, where: SQL): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await queryRows<{ n: number }>(
      db,
      sql`with gone as (delete from ${sql.identifier(table)} where ctid in (select ctid from ${sql.identifier(table)} where ${where} limit ${BATCH}) returning 1)
          select count(*)::int as n from gone`,
    );
    const deleted = rows[0]?.n ?? 0;
    total += deleted;
    if (deleted < BATCH) return total;
  }
}

/**
 * Deletes what is no longer needed: finished jobs, event receipts older than any job that could still deliver their
 * event again, refused webhook deliveries and old hourly counts, expired or revoked sessions, and sign-in throttling
 * rows whose window has long passed. Answers the count per table.
 */
export async function pruneExpiredRows(db: Db, policy: RetentionPolicy, now = new Date()): Promise<Record<string, number>> {
  const { idleMs, maxMs } = policy.sessionLifetime;
  const expiredSession = sql`revoked_at is not null or last_used_at < ${ago(now, idleMs)} or created_at < ${ago(now, maxMs)}`;
  const receiptsDays = Math.max(policy.completedJobsDays, policy.failedJobsDays) + 1;
  return {
    completedJobs: await pruneTable(db, 'jobs', sql`status = 'completed' and completed_at < ${daysAgo(now, policy.completedJobsDays)}`),
    failedJobs: await pruneTable(db, 'jobs', sql`status = 'failed' and coalesce(completed_at, created_at) < ${daysAgo(now, policy.failedJobsDays)}`),
    eventReceipts: await pruneTable(db, 'event_deliveries', sql`delivered_at < ${daysAgo(now, receiptsDays)}`),
    webhookRejections: await pruneTable(db, 'webhook_rejections', sql`received_at < ${daysAgo(now, policy.webhookRejectionsDays)}`),
    webhookDeliveryHours: await pruneTable(db, 'webhook_delivery_hours', sql`hour < ${daysAgo(now, policy.deliveryHoursDays)}`),
    sessions: await pruneTable(db, 'sessions', expiredSession),
    adminSessions: await pruneTable(db, 'admin_sessions', expiredSession),
    signInThrottle: await pruneTable(db, 'sign_in_throttle', sql`last_failure_at < ${daysAgo(now, 1)} and next_attempt_at < ${now.toISOString()}`),
  };
}

/** The hourly retention run (the queue keeps one pending row of it: see JobQueue.every). */
export function createRetentionJob(options: { db: Db; policy: RetentionPolicy; logger: QueueLogger; clock?: () => Date }) {
  return defineJob({
    name: 'platform.retention',
    payload: z.object({}),
    maxAttempts: 3,
    backoff: { baseMs: 60_000, maxMs: 10 * 60_000 },
    handler: async () => {
      const deleted = await pruneExpiredRows(options.db, options.policy, options.clock?.() ?? new Date());
      options.logger.info({ deleted }, 'retention: old rows pruned');
    },
  });
}
