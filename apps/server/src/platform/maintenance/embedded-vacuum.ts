import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/database.ts';
import { gateOf } from '../db/database-gate.ts';
import type { Logger } from '../logger/logger.ts';

/**
 * How often the embedded database's table counters are read while statements run. Autovacuum naps 60 s between
 * looks, but it is not what the embedded database's first minute needs: PostgreSQL keeps a statement's generic plan
 * from its sixth run, so plans made in a new database's first seconds, on tables of a few rows and without statistics,
 * stayed until the first analyze. Seen: a message's dispatch claim looked its row up by company and filtered on the id
 * (0.4 ms with 600 messages, growing with them) instead of by primary key (0.1 ms). A look reads four counters a table
 * (1.4 ms); a database no statement ran on since the last look is not looked at (the count does not tell reads from writes).
 */
export const EMBEDDED_UPKEEP_EVERY_MS = 2_000;
/**
 * Under many writes a look comes sooner: every EMBEDDED_UPKEEP_BUSY_EVERY_MS once EMBEDDED_UPKEEP_BUSY_STATEMENTS ran
 * since the last. A chat's card is rewritten with each message (its board position is indexed, so no update is HOT):
 * under webhook ingest at 1,800 messages a second, 200 cards left some 3,600 dead versions in 2 s, each a new entry in
 * every index of cards that the next batch's lookups waded through. Looking every 250 ms under that load, the batch's
 * cards lookup took 6–7 µs a message instead of 36, and its card update 18–21 instead of 35.
 */
export const EMBEDDED_UPKEEP_BUSY_EVERY_MS = 250;
export const EMBEDDED_UPKEEP_BUSY_STATEMENTS = 200;

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
 * One look at the embedded database: reads the table counters PostgreSQL keeps even there and vacuums (and analyzes)
 * or analyzes each table that is due, each statement as background work (the database gate's permit), so requests
 * interleave between them. Answers what it did.
 */
export async function upkeepEmbeddedTables(db: Db): Promise<TableUpkeep[]> {
  const gate = gateOf(db);
  const tables = await gate.runInBackground(() =>
    queryRows<TableActivity>(
      db,
      // The four counters alone: the whole pg_stat_user_tables view calls some twenty functions a table (3.5 ms a read, against 1.4).
      sql`select c.relname as "table", pg_stat_get_live_tuples(c.oid)::float8 as live, pg_stat_get_dead_tuples(c.oid)::float8 as dead,
            pg_stat_get_ins_since_vacuum(c.oid)::float8 as "insertedSinceVacuum", pg_stat_get_mod_since_analyze(c.oid)::float8 as "changedSinceAnalyze"
          from pg_class c where c.relkind = 'r' and c.relnamespace = 'public'::regnamespace`,
    ),
  );
  const due = upkeepDue(tables);
  for (const { table, vacuum } of due) {
    // Two statements, not `vacuum (analyze)`: each holds the embedded database's one connection while it runs, and the
    // requests that waited meanwhile get it in between.
    if (vacuum) await gate.runInBackground(() => db.execute(sql`vacuum ${sql.identifier(table)}`));
    await gate.runInBackground(() => db.execute(sql`analyze ${sql.identifier(table)}`));
  }
  return due;
}

/**
 * What autovacuum does, for the embedded database (docs/decisions/0019): PGlite runs PostgreSQL as one process without
 * background workers, so nothing vacuumed or analyzed its tables. The rows the job queue, the webhook intake and status
 * changes leave dead stayed for good, for every scan and index lookup to wade through, and the planner had no
 * statistics to choose by. A timer in this process (the embedded database has no other), not a job: a job left a
 * finished row for each look. PostgreSQL has its own autovacuum; this runs on the embedded database only.
 */
export class EmbeddedUpkeep {
  private timer: NodeJS.Timeout | undefined;
  private looking: Promise<void> | undefined;
  private stopped = true;
  private lastLook = { at: 0, statements: 0 };

  constructor(
    private readonly options: {
      db: Db;
      logger: Pick<Logger, 'debug' | 'warn'>;
      everyMs?: number;
      busyEveryMs?: number;
      busyStatements?: number;
    },
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.lastLook = { at: performance.now(), statements: gateOf(this.options.db).statements };
    this.scheduleCheck();
  }

  isRunning(): boolean {
    return !this.stopped;
  }

  /** Stops looking; a look under way finishes first. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.looking;
  }

  private scheduleCheck(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.looking = (this.due() ? this.look() : Promise.resolve()).finally(() => {
        this.looking = undefined;
        this.scheduleCheck();
      });
    }, this.options.busyEveryMs ?? EMBEDDED_UPKEEP_BUSY_EVERY_MS);
    this.timer.unref();
  }

  /** Many statements since the last look, or any and the longest pause is over. */
  private due(): boolean {
    const statementsSince = gateOf(this.options.db).statements - this.lastLook.statements;
    if (statementsSince >= (this.options.busyStatements ?? EMBEDDED_UPKEEP_BUSY_STATEMENTS)) return true;
    return statementsSince > 0 && performance.now() - this.lastLook.at >= (this.options.everyMs ?? EMBEDDED_UPKEEP_EVERY_MS);
  }

  private async look(): Promise<void> {
    try {
      const due = await upkeepEmbeddedTables(this.options.db);
      if (due.length > 0)
        this.options.logger.debug(
          { vacuumed: due.filter((upkeep) => upkeep.vacuum).map((upkeep) => upkeep.table), analyzed: due.map((upkeep) => upkeep.table) },
          'embedded database: tables vacuumed and analyzed',
        );
    } catch (error) {
      this.options.logger.warn({ err: error }, 'embedded database: vacuum and analyze failed; tried again at the next look');
    }
    // Counted after the look, so its own statements do not call for the next one.
    this.lastLook = { at: performance.now(), statements: gateOf(this.options.db).statements };
  }
}
