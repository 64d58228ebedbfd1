import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from '../db/database.ts';
import { defineJob } from '../queue/job-definition.ts';
import type { QueueLogger } from '../queue/job-queue.ts';

/** How often the embedded database's tables are looked at (autovacuum's own `autovacuum_naptime`). */
export const EMBEDDED_VACUUM_EVERY_MS = 60_000;

/** PostgreSQL's autovacuum defaults: a table is due past threshold + scale × its live rows. */
const DUE_AFTER = {
  /** Dead rows (autovacuum_vacuum_threshold, autovacuum_vacuum_scale_factor). */
  dead: { threshold: 50, scale: 0.2 },
  /** Rows inserted since the last vacuum, so append-only tables get their visibility map (…_insert_threshold, …). */
  inserted: { threshold: 1_000, scale: 0.2 },
  /** Rows changed since the last analyze (autovacuum_analyze_threshold, autovacuum_analyze_scale_factor). */
  changed: { threshold: 50, scale: 0.1 },
};

export interface TableActivity {
  table: string;
  live: number;
  dead: number;
  insertedSinceVacuum: number;
  changedSinceAnalyze: number;
}

export interface TableUpkeep {
  table: string;
  vacuum: boolean;
  analyze: boolean;
}

const past = (count: number, live: number, rule: { threshold: number; scale: number }) => count > rule.threshold + rule.scale * live;

/** The tables autovacuum would vacuum (and analyze with it) or only analyze now, by its default thresholds. */
export function upkeepDue(tables: readonly TableActivity[]): TableUpkeep[] {
  return tables
    .map(({ table, live, dead, insertedSinceVacuum, changedSinceAnalyze }) => {
      const vacuum = past(dead, live, DUE_AFTER.dead) || past(insertedSinceVacuum, live, DUE_AFTER.inserted);
      return { table, vacuum, analyze: vacuum || past(changedSinceAnalyze, live, DUE_AFTER.changed) };
    })
    .filter((upkeep) => upkeep.analyze);
}

/**
 * What autovacuum does, for the embedded database: PGlite runs PostgreSQL as one process without background workers,
 * so nothing vacuumed or analyzed its tables. The rows the job queue, the webhook intake and status changes leave dead
 * stayed for good, for every scan and index lookup to wade through, and the planner had no statistics to choose by.
 * The job reads the table counters PostgreSQL keeps all the same and vacuums (and analyzes) or analyzes each table that
 * is due, one statement a table. PostgreSQL has its own autovacuum; this job runs on the embedded database only.
 */
export function createEmbeddedVacuumJob(options: { db: Db; logger: QueueLogger }) {
  return defineJob({
    name: 'platform.embedded-vacuum',
    payload: z.object({}),
    maxAttempts: 1,
    handler: async () => {
      const tables = await queryRows<TableActivity>(
        options.db,
        sql`select relname as "table", n_live_tup::float8 as live, n_dead_tup::float8 as dead,
              n_ins_since_vacuum::float8 as "insertedSinceVacuum", n_mod_since_analyze::float8 as "changedSinceAnalyze"
            from pg_stat_user_tables where schemaname = 'public'`,
      );
      const due = upkeepDue(tables);
      for (const { table, vacuum } of due) {
        await options.db.execute(vacuum ? sql`vacuum (analyze) ${sql.identifier(table)}` : sql`analyze ${sql.identifier(table)}`);
      }
      if (due.length > 0)
        options.logger.info(
          { vacuumed: due.filter((upkeep) => upkeep.vacuum).map((upkeep) => upkeep.table), analyzed: due.map((upkeep) => upkeep.table) },
          'embedded database: tables vacuumed and analyzed',
        );
    },
  });
}
