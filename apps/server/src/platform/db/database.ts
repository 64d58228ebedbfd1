import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import pg from 'pg';
import * as schema from '../../../db/schema/index.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { SERVER_ROOT } from '../paths/server-root.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything that runs queries: the database itself or an open transaction. */
export type DbExecutor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const migrationsFolder = path.join(SERVER_ROOT, 'db/migrations');

/** Any fixed 64-bit number: the advisory lock that serialises migrations across processes. */
const MIGRATION_LOCK_ID = 727_001;

export async function openPostgres(url: string, options: { poolSize?: number; onIdleClientError?: (error: Error) => void } = {}): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  // An idle pooled connection closed by the server (restart, failover) must not crash the process;
  // the pool drops it and opens a new one on the next query.
  pool.on('error', (error) => options.onIdleClientError?.(error));
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const lockClient = await pool.connect();
  try {
    await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migratePg(drizzlePg(lockClient, { schema }), { migrationsFolder });
  } finally {
    await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    lockClient.release();
  }
  return { db, kind: 'postgres', close: () => pool.end() };
}

/**
 * PGlite in `dataDir/pg`, or in memory when dataDir is undefined (tests). A lock file refuses a
 * second process on the same directory, which PGlite would otherwise corrupt silently.
 */
export async function openPglite(dataDir: string | undefined): Promise<Database> {
  let releaseLock = () => {};
  let client: PGlite;
  if (dataDir) {
    fs.mkdirSync(dataDir, { recursive: true });
    releaseLock = acquireDataDirLock(dataDir);
    client = new PGlite(path.join(dataDir, 'pg'));
  } else {
    client = new PGlite();
  }
  try {
    await client.waitReady;
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
    return {
      db,
      kind: 'pglite',
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

export function openDatabase(config: { databaseUrl?: string; dataDir: string }, onIdleClientError?: (error: Error) => void): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl, { onIdleClientError }) : openPglite(config.dataDir);
}

/** Rows of a raw SQL statement; both drivers answer with `{ rows }` (drizzle types it as unknown). */
export async function queryRows<Row>(executor: DbExecutor, query: SQL): Promise<Row[]> {
  const result = (await executor.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}
