import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPglite, openPostgres, type Database } from '../../src/platform/db/database.ts';

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database
 * on the server named by TEST_DATABASE_URL / DATABASE_URL (dropped again on close), as CI runs it. The benchmarks
 * use it too, with the production pool size.
 */
export async function createTestDatabase(options: { poolSize?: number } = {}): Promise<Database & { url?: string }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return openPglite(undefined);

  const name = `embudo_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();

  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString(), { poolSize: options.poolSize ?? 5 });
  return {
    ...database,
    url: url.toString(),
    close: async () => {
      await database.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
