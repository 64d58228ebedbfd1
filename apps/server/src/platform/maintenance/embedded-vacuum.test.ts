import { afterAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { jobs, tenants } from '../../../db/schema/index.ts';
import { buildTestApp } from '../../../test/support/build-test-app.ts';
import { createLogger } from '../logger/logger.ts';
import { openPglite, queryRows, type Database } from '../db/database.ts';
import { createEmbeddedVacuumJob, upkeepDue, type TableActivity } from './embedded-vacuum.ts';

const activity = (overrides: Partial<TableActivity>): TableActivity => ({
  table: 't',
  live: 1_000,
  dead: 0,
  insertedSinceVacuum: 0,
  changedSinceAnalyze: 0,
  ...overrides,
});

describe("upkeepDue (autovacuum's default thresholds)", () => {
  it('vacuums past 50 + 20% of the live rows dead, and analyzes with it', () => {
    expect(upkeepDue([activity({ dead: 250 })])).toEqual([]);
    expect(upkeepDue([activity({ dead: 251 })])).toEqual([{ table: 't', vacuum: true, analyze: true }]);
  });

  it('vacuums an append-only table past 1,000 + 20% of its live rows inserted', () => {
    expect(upkeepDue([activity({ insertedSinceVacuum: 1_200, changedSinceAnalyze: 0 })])).toEqual([]);
    expect(upkeepDue([activity({ insertedSinceVacuum: 1_201 })])).toEqual([{ table: 't', vacuum: true, analyze: true }]);
  });

  it('only analyzes past 50 + 10% of the live rows changed, and leaves quiet tables alone', () => {
    expect(upkeepDue([activity({ changedSinceAnalyze: 151 }), activity({ table: 'quiet', changedSinceAnalyze: 150 })])).toEqual([
      { table: 't', vacuum: false, analyze: true },
    ]);
  });
});

describe('the embedded vacuum job', () => {
  let embedded: Database | undefined;
  afterAll(async () => embedded?.close());

  // PostgreSQL publishes a session's table counters at most once a second; a test reads them at once.
  const statsOf = async (database: Database, table: string) => {
    await queryRows(database.db, sql`select pg_stat_force_next_flush()`);
    await queryRows(database.db, sql`select 1`);
    return (
      await queryRows<{ dead: number; vacuumed: boolean; analyzed: boolean }>(
        database.db,
        sql`select n_dead_tup::int as dead, last_vacuum is not null as vacuumed, last_analyze is not null as analyzed
            from pg_stat_user_tables where relname = ${table}`,
      )
    )[0]!;
  };

  it('vacuums and analyzes what the embedded database left dead (it has no autovacuum), and only what is due', async () => {
    embedded = await openPglite(undefined);
    const { db } = embedded;
    const [tenant] = await db.insert(tenants).values({ name: 'Acme', slug: 'acme-vacuum' }).returning();
    await db.insert(jobs).values(Array.from({ length: 400 }, (_, index) => ({ name: `j${index}`, payload: {}, tenantId: tenant!.id })));
    await db.update(jobs).set({ status: 'completed' }).where(eq(jobs.tenantId, tenant!.id));
    expect(await statsOf(embedded, 'jobs')).toMatchObject({ dead: 400, vacuumed: false, analyzed: false });

    const job = createEmbeddedVacuumJob({ db, logger: createLogger('silent') });
    await job.handler({}, {} as never);

    expect(await statsOf(embedded, 'jobs')).toEqual({ dead: 0, vacuumed: true, analyzed: true });
    // Again, as its next run does (the same statements, now kept prepared).
    await db.update(jobs).set({ status: 'failed' }).where(eq(jobs.tenantId, tenant!.id));
    expect(await statsOf(embedded, 'jobs')).toMatchObject({ dead: 400 });
    await job.handler({}, {} as never);
    expect(await statsOf(embedded, 'jobs')).toMatchObject({ dead: 0 });
    // One row in a table: below every threshold.
    expect(await statsOf(embedded, 'tenants')).toMatchObject({ vacuumed: false, analyzed: false });
  });

  it('is scheduled by an app on the embedded database, and not on PostgreSQL (which vacuums by itself)', async () => {
    const t = await buildTestApp();
    try {
      t.app.queue.start();
      await t.app.queue.stop();
      const scheduled = await t.database.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.name, 'platform.embedded-vacuum'));
      expect(scheduled).toHaveLength(t.database.kind === 'pglite' ? 1 : 0);
    } finally {
      await t.close();
    }
  });
});
