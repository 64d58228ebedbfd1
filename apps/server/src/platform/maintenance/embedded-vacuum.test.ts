import { afterAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { jobs, tenants } from '../../../db/schema/index.ts';
import { buildTestApp } from '../../../test/support/build-test-app.ts';
import { createLogger } from '../logger/logger.ts';
import { EMBEDDED_STATISTICS_TARGET, openPglite, queryRows, type Database } from '../db/database.ts';
import { EmbeddedUpkeep, upkeepDue, upkeepEmbeddedTables, type TableActivity } from './embedded-vacuum.ts';

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

// Each test opens a PGlite of its own (WebAssembly) and rewrites rows: about 4 s alone, but 10–35 s in CI, where the
// PostgreSQL run of these suites shares the two cores with the browser journeys (one passed the 30 s default there).
describe("the embedded database's upkeep", { timeout: 120_000 }, () => {
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

    expect(await upkeepEmbeddedTables(db)).toContainEqual({ table: 'jobs', vacuum: true, analyze: true });

    expect(await statsOf(embedded, 'jobs')).toEqual({ dead: 0, vacuumed: true, analyzed: true });
    // Sampled at the embedded target, not PostgreSQL's 100: 400 distinct names make a histogram of target + 1 bounds.
    const [names] = await queryRows<{ bounds: number }>(
      db,
      sql`select array_length(histogram_bounds::text::text[], 1) as bounds from pg_stats where tablename = 'jobs' and attname = 'name'`,
    );
    expect(names!.bounds).toBe(EMBEDDED_STATISTICS_TARGET + 1);
    // Again, as its next look does (the same statements, now kept prepared).
    await db.update(jobs).set({ status: 'failed' }).where(eq(jobs.tenantId, tenant!.id));
    expect(await statsOf(embedded, 'jobs')).toMatchObject({ dead: 400 });
    await upkeepEmbeddedTables(db);
    expect(await statsOf(embedded, 'jobs')).toMatchObject({ dead: 0 });
    // One row in a table: below every threshold.
    expect(await statsOf(embedded, 'tenants')).toMatchObject({ vacuumed: false, analyzed: false });
    // Opens a fresh database and migrates it: past 30 s beside the other suites on a loaded 2-core machine.
  }, 90_000);

  it('looks again and again while it runs, and stops looking when stopped', async () => {
    const database = await openPglite(undefined);
    try {
      const { db } = database;
      const [tenant] = await db.insert(tenants).values({ name: 'Acme', slug: 'acme-upkeep' }).returning();
      const upkeep = new EmbeddedUpkeep({ db, logger: createLogger('silent'), everyMs: 20, busyEveryMs: 20 });
      upkeep.start();
      for (const status of ['completed', 'failed'] as const) {
        await db.insert(jobs).values(Array.from({ length: 200 }, (_, index) => ({ name: `${status}${index}`, payload: {}, tenantId: tenant!.id })));
        await db.update(jobs).set({ status }).where(eq(jobs.tenantId, tenant!.id));
        await expect.poll(async () => (await statsOf(database, 'jobs')).dead, { timeout: 5_000 }).toBe(0);
      }
      await upkeep.stop();
      await db.update(jobs).set({ status: 'pending' }).where(eq(jobs.tenantId, tenant!.id));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await statsOf(database, 'jobs')).dead).toBe(400);
    } finally {
      await database.close();
    }
  });

  it('looks sooner under many statements, and not at all while none runs', async () => {
    const database = await openPglite(undefined);
    try {
      const { db, gate } = database;
      const [tenant] = await db.insert(tenants).values({ name: 'Acme', slug: 'acme-busy' }).returning();
      await db.insert(jobs).values(Array.from({ length: 100 }, (_, index) => ({ name: `busy${index}`, payload: {}, tenantId: tenant!.id })));
      const rewrite = async (times: number) => {
        for (let run = 0; run < times; run++) await db.update(jobs).set({ attempts: run }).where(eq(jobs.tenantId, tenant!.id));
      };
      const watching = (busyStatements: number) => new EmbeddedUpkeep({ db, logger: createLogger('silent'), everyMs: 60_000, busyEveryMs: 20, busyStatements });

      // Fewer statements than a busy look needs, and the longest pause far off: the dead rows stay.
      const patient = watching(1_000);
      patient.start();
      await rewrite(30);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await statsOf(database, 'jobs')).dead).toBeGreaterThan(0);
      await patient.stop();

      // Enough statements: looked at within a few checks, long before the longest pause.
      const busy = watching(20);
      busy.start();
      await rewrite(30);
      await expect.poll(async () => (await statsOf(database, 'jobs')).dead, { timeout: 5_000 }).toBe(0);
      await busy.stop();

      // Nothing written: no look, not even after the longest pause.
      const idle = new EmbeddedUpkeep({ db, logger: createLogger('silent'), everyMs: 20, busyEveryMs: 20 });
      idle.start();
      const before = gate.statements;
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(gate.statements).toBe(before);
      await idle.stop();
    } finally {
      await database.close();
    }
  });

  it.each([true, false])(
    'runs on the embedded database (not on PostgreSQL, which vacuums by itself) from the start when the app runs jobs (%s), else once started',
    async (runJobs) => {
      const t = await buildTestApp({ runJobs });
      try {
        await t.app.ready();
        const embedded = t.database.kind === 'pglite';
        expect(t.app.embeddedUpkeep !== undefined).toBe(embedded);
        expect(t.app.embeddedUpkeep?.isRunning() ?? false).toBe(embedded && runJobs);
        t.app.embeddedUpkeep?.start();
        expect(t.app.embeddedUpkeep?.isRunning() ?? false).toBe(embedded);
      } finally {
        await t.close();
      }
    },
  );
});
