import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGlite, types, type PGliteOptions, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import pg from 'pg';
import * as schema from '../../../db/schema/index.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { byteaText } from './array-params.ts';
import { attachGate, DatabaseGate, type LeaveGate } from './database-gate.ts';
import { PgliteStatements } from './pglite-statements.ts';
import { PostgresStatementNames } from './postgres-statements.ts';
import { SERVER_ROOT } from '../paths/server-root.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything that runs queries: the database itself or an open transaction. */
export type DbExecutor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Background permits, the statement count and the jobs-enqueued signal (docs/decisions/0016). */
  gate: DatabaseGate;
  close(): Promise<void>;
}

/** The `NOTIFY` channel the `jobs` insert trigger (migration) signals on, so every process's queue wakes at commit. */
export const JOBS_CHANNEL = 'jobs_enqueued';

/**
 * Background work's share of the connections: half the pool (at least one) on PostgreSQL; on PGlite one, so a
 * request's query waits behind at most one job statement or transaction on the single connection.
 */
export function defaultBackgroundPermits(kind: Database['kind'], poolSize = DEFAULT_POOL_SIZE): number {
  return kind === 'pglite' ? 1 : Math.max(1, Math.floor(poolSize / 2));
}

/**
 * The embedded database's share for background work while requests have statements in flight (database-gate.ts):
 * half, so a request waits behind at most about as much background time as it gets.
 */
export const EMBEDDED_BACKGROUND_SHARE = 0.5;

const DEFAULT_POOL_SIZE = 10;
const LISTENER_RETRY_MS = { first: 500, max: 30_000 };
const COUNTED = Symbol('counted');

/**
 * node-postgres pool whose checkouts pass the gate (permits for background work), whose statements are counted, and
 * whose repeated statements run named, so each connection plans them once (postgres-statements.ts).
 */
class GatedPool extends pg.Pool {
  private readonly statementNames = new PostgresStatementNames();

  constructor(
    config: pg.PoolConfig,
    private readonly gate: DatabaseGate,
  ) {
    super(config);
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(
    callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | void {
    const checkedOut = this.gatedCheckout();
    if (!callback) return checkedOut;
    // pool.query checks out through this form.
    checkedOut.then(
      (client) => callback(undefined, client, (release) => client.release(release as Error | boolean | undefined)),
      (error: Error) => callback(error, undefined, () => {}),
    );
  }

  private async gatedCheckout(): Promise<pg.PoolClient> {
    const leave = await this.gate.enter();
    let client: pg.PoolClient;
    try {
      client = await super.connect();
    } catch (error) {
      leave();
      throw error;
    }
    const countable = client as pg.PoolClient & { [COUNTED]?: true };
    if (!countable[COUNTED]) {
      countable[COUNTED] = true;
      const query = this.statementNames.wrapQuery(client.query.bind(client) as (...args: unknown[]) => unknown);
      const gate = this.gate;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        gate.counted(1);
        return query(...args);
      };
    }
    const release = client.release.bind(client);
    client.release = (error?: Error | boolean) => {
      leave();
      release(error);
    };
    return client;
  }
}

const turningBetweenStatements = new AsyncLocalStorage<true>();

/**
 * Runs `work`, whose transactions on the embedded database let the event loop turn after each of their statements.
 * PGlite answers a statement without waiting for I/O, so a transaction of many statements runs from start to end
 * within one turn of the event loop, and since libuv 1.45 (Node 20) a server accepts one new connection a turn. The
 * webhook intake's batches (up to a hundred deliveries, some fifteen statements) are such transactions: in a burst of
 * 5,000 webhooks at c = 200, connections opened at the start waited until the end of the run to be accepted (p99 up
 * to 3 s, while the server's own handling had p99 20–30 ms). Only for background work that many requests arrive
 * behind: a turn after every statement of every transaction slowed a bulk send under API load fourfold. On
 * PostgreSQL every statement waits for I/O anyway.
 */
export function turningBetweenStatementsOf<T>(work: () => Promise<T>): Promise<T> {
  return turningBetweenStatements.run(true, work);
}

/** Lets timers and I/O run before the caller goes on (work on PGlite that would otherwise hold the event loop). */
export const nextTurnOfTheEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * PGlite whose statements and transactions pass the gate and are counted (a transaction's BEGIN and COMMIT too), and
 * whose repeated statements run prepared (pglite-statements.ts).
 */
class GatedPGlite extends PGlite {
  gate: DatabaseGate | undefined;
  private readonly statements = new PgliteStatements(this);

  constructor(options: PGliteOptions) {
    super(options);
    // PGlite's own bytea reader turns each byte through parseInt: 30 µs for a webhook body of 544 bytes, read back by
    // every intake batch, against 1 µs through Buffer; its writer maps every byte to a string.
    this.parsers[types.BYTEA] = (text: string) => Buffer.from(text.slice(2), 'hex');
    this.serializers[types.BYTEA] = (value: unknown) => {
      if (!(value instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
      return byteaText(value);
    };
  }

  override async query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    const leave = await this.enterGate(1);
    let busySince = 0;
    try {
      const prepared = await this._runExclusiveTransaction(() =>
        this._runExclusiveQuery(() => {
          busySince = performance.now();
          return this.preparedRun<T>(query, params, options, false);
        }),
      );
      return prepared ?? (await super.query<T>(query, params, options));
    } finally {
      leave(busySince ? performance.now() - busySince : 0);
    }
  }

  override async exec(query: string, options?: QueryOptions): Promise<Array<Results>> {
    const leave = await this.enterGate(1);
    // PGlite's exec queues inside, so this time counts its wait for the connection too (query and transaction count
    // from holding it). No background work runs exec today: drizzle sends through query and transaction.
    const busySince = performance.now();
    try {
      return await super.exec(query, options);
    } finally {
      leave(performance.now() - busySince);
    }
  }

  override async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    const leave = await this.enterGate(2);
    const gate = this.gate;
    // From the moment the transaction holds the connection (PGlite's queue can make it wait before).
    let busySince = 0;
    try {
      return await super.transaction((tx) => {
        busySince = performance.now();
        const counted: Transaction = Object.create(tx) as Transaction;
        counted.query = async <R>(query: string, params?: unknown[], options?: QueryOptions) => {
          gate?.counted(1);
          if (tx.closed) return tx.query<R>(query, params, options);
          const prepared = await this._runExclusiveQuery(() => this.preparedRun<R>(query, params, options, true));
          const result = prepared ?? (await tx.query<R>(query, params, options));
          if (turningBetweenStatements.getStore()) await nextTurnOfTheEventLoop();
          return result;
        };
        counted.exec = (...args) => {
          gate?.counted(1);
          return tx.exec(...args);
        };
        return callback(counted);
      });
    } finally {
      leave(busySince ? performance.now() - busySince : 0);
    }
  }

  private async preparedRun<T>(query: string, params: unknown[] | undefined, options: QueryOptions | undefined, inTransaction: boolean) {
    const result = await this.statements.run<T>(query, params, options, inTransaction);
    // As PGlite's own query does once a statement outside a transaction has run.
    if (result && !inTransaction) await this.syncToFs();
    return result;
  }

  private async enterGate(statements: number): Promise<LeaveGate> {
    if (!this.gate) return () => {};
    this.gate.counted(statements);
    return this.gate.enter();
  }
}

/**
 * `LISTEN` on a dedicated connection (a pooled one would be handed to others): calls `onNotify` on each
 * notification, reconnects with backoff when the connection drops, and wakes once after reconnecting in case
 * something was enqueued meanwhile.
 *
 * This process's own commits wake it too. Its in-process signal for a job enqueued in a transaction is given by
 * whichever unit of work answers next (`JobQueue.wakeAfterCommit`), and that may be another one, before the enqueuing
 * transaction has committed: the claim it wakes finds nothing, and the job waited for the next poll (1 s; the AI
 * assistant's bench saw 1-3 answers in 100 delayed by 1,030 ms on PostgreSQL). The NOTIFY is delivered at the commit
 * itself; PGlite needs none, as a claim there waits behind the open transaction on the one connection.
 */
function listenerOn(url: string, channel: string, onError: (error: Error) => void) {
  return async (onNotify: () => void): Promise<() => Promise<void>> => {
    let client: pg.Client | undefined;
    let stopped = false;
    let retryMs = LISTENER_RETRY_MS.first;
    let retry: NodeJS.Timeout | undefined;
    const connect = async (): Promise<void> => {
      const next = new pg.Client({ connectionString: url, application_name: 'embudo-jobs-listener' });
      next.on('notification', () => onNotify());
      next.on('error', (error) => onError(error));
      next.on('end', () => {
        if (client === next) client = undefined;
        if (!stopped) scheduleReconnect();
      });
      try {
        await next.connect();
        await next.query(`listen ${channel}`);
      } catch (error) {
        onError(error as Error);
        await next.end().catch(() => undefined);
        return;
      }
      if (stopped) {
        await next.end().catch(() => undefined);
        return;
      }
      client = next;
      retryMs = LISTENER_RETRY_MS.first;
      onNotify();
    };
    const scheduleReconnect = () => {
      if (retry || stopped) return;
      retry = setTimeout(() => {
        retry = undefined;
        void connect();
      }, retryMs);
      retryMs = Math.min(LISTENER_RETRY_MS.max, retryMs * 2);
    };
    await connect();
    return async () => {
      stopped = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
      client = undefined;
    };
  };
}

const migrationsFolder = path.join(SERVER_ROOT, 'db/migrations');

/** Any fixed 64-bit number: the advisory lock that serialises migrations across processes. */
const MIGRATION_LOCK_ID = 727_001;

export async function openPostgres(
  url: string,
  options: { poolSize?: number; backgroundPermits?: number; onIdleClientError?: (error: Error) => void } = {},
): Promise<Database> {
  const poolSize = options.poolSize ?? DEFAULT_POOL_SIZE;
  const gate = new DatabaseGate({ backgroundPermits: options.backgroundPermits ?? defaultBackgroundPermits('postgres', poolSize) });
  // Names this pool's connections, so pg_stat_activity tells the processes apart.
  const application = `embudo-${process.pid}-${randomUUID().slice(0, 8)}`;
  gate.listenAcrossProcesses(listenerOn(url, JOBS_CHANNEL, (error) => options.onIdleClientError?.(error)));
  const pool = new GatedPool({ connectionString: url, max: poolSize, application_name: application }, gate);
  // An idle pooled connection closed by the server (restart, failover) must not crash the process;
  // the pool drops it and opens a new one on the next query.
  pool.on('error', (error) => options.onIdleClientError?.(error));
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  attachGate(db, gate);
  const lockClient = await pool.connect();
  try {
    await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migratePg(drizzlePg(lockClient, { schema }), { migrationsFolder });
  } finally {
    await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    lockClient.release();
  }
  return { db, kind: 'postgres', gate, close: () => pool.end() };
}

const embeddedDatabases = new WeakSet<object>();

/** pgvector, which the knowledge search uses for its vectors (docs/decisions/0030); its migration installs it. */
const EMBEDDED_EXTENSIONS = { vector };

/** A database opened by `openPglite`: PostgreSQL inside this process, without autovacuum (platform/maintenance). */
export function isEmbedded(db: Db): boolean {
  return embeddedDatabases.has(db);
}

/**
 * The statistics target of the embedded database's analyzes (PostgreSQL's default is 100): an analyze samples 300 rows
 * per unit, and on the embedded database it runs on the server's thread, holding every request (decision 0019). With
 * 300,000 messages and realistic texts, `analyze messages` took 820–880 ms at 100 and 170–250 ms at 30
 * (bench/embedded-upkeep.bench.ts); 30 buckets still give the planner distinct counts, common values and ranges for
 * the index-driven plans this app's statements need. PostgreSQL keeps its default: its autovacuum analyzes aside.
 */
export const EMBEDDED_STATISTICS_TARGET = 30;

/**
 * PGlite in `dataDir/pg`, or in memory when dataDir is undefined (tests), starting from `inMemoryFrom` when given (a
 * `dumpDataDir` of an already migrated database: a test suite skips initdb and the migrations). A lock file refuses a
 * second process on the same directory, which PGlite would otherwise corrupt silently.
 */
export async function openPglite(dataDir: string | undefined, options: { backgroundPermits?: number; inMemoryFrom?: Blob } = {}): Promise<Database> {
  let releaseLock = () => {};
  let client: GatedPGlite;
  if (dataDir) {
    fs.mkdirSync(dataDir, { recursive: true });
    releaseLock = acquireDataDirLock(dataDir);
    client = new GatedPGlite({ dataDir: path.join(dataDir, 'pg'), extensions: EMBEDDED_EXTENSIONS });
  } else {
    client = new GatedPGlite({ loadDataDir: options.inMemoryFrom, extensions: EMBEDDED_EXTENSIONS });
  }
  try {
    await client.waitReady;
    await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder });
    await client.exec(`set default_statistics_target = ${EMBEDDED_STATISTICS_TARGET}`);
    const gate = new DatabaseGate({
      backgroundPermits: options.backgroundPermits ?? defaultBackgroundPermits('pglite'),
      backgroundShare: EMBEDDED_BACKGROUND_SHARE,
    });
    client.gate = gate;
    const db = drizzlePglite({ client, schema }) as unknown as Db;
    attachGate(db, gate);
    embeddedDatabases.add(db);
    return {
      db,
      kind: 'pglite',
      gate,
      close: async () => {
        await client.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

export function openDatabase(
  config: { databaseUrl?: string; dataDir: string; jobDbConnections?: number },
  onIdleClientError?: (error: Error) => void,
): Promise<Database> {
  const backgroundPermits = config.jobDbConnections;
  return config.databaseUrl ? openPostgres(config.databaseUrl, { onIdleClientError, backgroundPermits }) : openPglite(config.dataDir, { backgroundPermits });
}

/**
 * A statement written by hand, run as it is, outside any transaction (the pool's or PGlite's own `query`, through the
 * gate like every statement): for the hottest statements, where drizzle's building of a query (type checks for every
 * parameter) costs more than the database's work. Bytes (`Uint8Array`) go in the protocol's binary format. Rows come
 * as the driver gives them (node-postgres answers bigint as text; PGlite as a number).
 */
export async function queryText<Row>(db: Db, text: string, params: readonly unknown[]): Promise<Row[]> {
  // drizzle keeps the driver it was given as `$client`; both drivers answer `query(text, params)` with `{ rows }`.
  const client = (db as unknown as { $client: { query(text: string, params: unknown[]): Promise<{ rows: Row[] }> } }).$client;
  return (await client.query(text, [...params])).rows;
}

/** Rows of a raw SQL statement; both drivers answer with `{ rows }` (drizzle types it as unknown). */
export async function queryRows<Row>(executor: DbExecutor, query: SQL): Promise<Row[]> {
  const result = (await executor.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}
