import { sql } from 'drizzle-orm';
import { bigint, index, integer, uniqueIndex, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The durable job queue (see docs/decisions/0002-job-queue.md). A row is claimed with
 * FOR UPDATE SKIP LOCKED and leased until `locked_until`; an expired lease is reclaimable. An insert signals
 * `jobs_enqueued` (trigger, at commit) so the queues of other processes wake at once (docs/decisions/0016).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: ['pending', 'running', 'completed', 'failed'] })
      .notNull()
      .default('pending'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    /** When set, at most one pending or running job holds this key (e.g. one send per message row). */
    singletonKey: text('singleton_key'),
    /**
     * Jobs sharing an order key run one at a time, in `seq` order (e.g. the sends of one chat): a job is claimed only
     * when no earlier job of its key is pending or running.
     */
    orderKey: text('order_key'),
    /** Insertion order; orders the jobs of one order key. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    /** The company the job works for, read from its payload's `tenantId` (null for platform jobs): its activity panel lists its failed jobs. */
    tenantId: uuid('tenant_id'),
    /** The request that caused the job, directly or through the jobs and events it created; its log lines carry it. */
    requestId: text('request_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the job finished: completed, or failed for good. Finished jobs are pruned some days later. */
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('jobs_due_idx').on(t.status, t.runAt),
    uniqueIndex('jobs_singleton_key')
      .on(t.singletonKey)
      .where(sql`status in ('pending', 'running')`),
    index('jobs_tenant_failed_idx')
      .on(t.tenantId, t.completedAt)
      .where(sql`status = 'failed'`),
    index('jobs_order_key_idx')
      .on(t.orderKey, t.seq)
      .where(sql`status in ('pending', 'running') and order_key is not null`),
    index('jobs_finished_idx')
      .on(t.completedAt)
      .where(sql`status in ('completed', 'failed')`),
  ],
);
