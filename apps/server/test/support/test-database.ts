import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openPglite, openPostgres, type Database } from '../../src/platform/db/database.ts';
import { SERVER_ROOT } from '../../src/platform/paths/server-root.ts';

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database
 * on the server named by TEST_DATABASE_URL / DATABASE_URL (dropped again on close), as CI runs it. The benchmarks
 * use it too, with the production pool size.
 *
 * Migrating from nothing costs seconds per database (initdb and every migration on PGlite), paid by each of ~100
 * test files: when the suite's global setup has prepared a migrated template (see `prepareTestDatabaseTemplate`),
 * a database starts from it instead, and its own migration step finds nothing left to apply.
 */
export async function createTestDatabase(options: { poolSize?: number } = {}): Promise<Database & { url?: string }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const inMemoryFrom = templateSnapshot();
    return openPglite(undefined, inMemoryFrom ? { inMemoryFrom } : {});
  }

  const name = `embudo_test_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, async (admin) => {
    try {
      await admin.query(`create database ${name} template ${templateDatabaseName()}`);
    } catch (error) {
      if ((error as { code?: string }).code !== UNDEFINED_DATABASE) throw error;
      await admin.query(`create database ${name}`);
    }
  });

  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString(), { poolSize: options.poolSize ?? 5 });
  return {
    ...database,
    url: url.toString(),
    close: async () => {
      await database.close();
      await onServer(serverUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/**
 * Prepares the migrated template the suite's databases start from, once per set of migrations (its name carries their
 * fingerprint, so a changed migration gets a new template and an unchanged one is reused by the next run): a PGlite
 * data directory dump in the system's temporary folder, or a template database on the server.
 */
export async function prepareTestDatabaseTemplate(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const snapshot = templateSnapshotPath();
    if (fs.existsSync(snapshot)) return;
    const database = await openPglite(undefined);
    try {
      // drizzle keeps the driver it was given as `$client`; the Database type does not name the driver.
      const dump = await (database.db as unknown as { $client: PGlite }).$client.dumpDataDir('none');
      fs.mkdirSync(path.dirname(snapshot), { recursive: true });
      const partial = `${snapshot}.${process.pid}.partial`;
      fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
      fs.renameSync(partial, snapshot);
    } finally {
      await database.close();
    }
    return;
  }

  const template = templateDatabaseName();
  const exists = await onServer(serverUrl, async (admin) => (await admin.query('select 1 from pg_database where datname = $1', [template])).rowCount === 1);
  if (exists) return;
  const building = `${template}_building_${randomBytes(3).toString('hex')}`;
  await onServer(serverUrl, (admin) => admin.query(`create database ${building}`));
  const url = new URL(serverUrl);
  url.pathname = `/${building}`;
  await (await openPostgres(url.toString(), { poolSize: 1 })).close();
  // Renamed only once complete, so a run stopped halfway never leaves a half-migrated template behind.
  await onServer(serverUrl, (admin) => admin.query(`alter database ${building} rename to ${template}`));
}

const UNDEFINED_DATABASE = '3D000';

async function onServer<T>(serverUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

let snapshot: Blob | undefined;

/** The migrated PGlite dump, read once per process (test files share a worker's modules); undefined until prepared. */
function templateSnapshot(): Blob | undefined {
  if (snapshot) return snapshot;
  const file = templateSnapshotPath();
  if (fs.existsSync(file)) snapshot = new Blob([fs.readFileSync(file)]);
  return snapshot;
}

function templateSnapshotPath(): string {
  return path.join(os.tmpdir(), 'embudo-test-templates', `pglite-${migrationsFingerprint()}.tar`);
}

function templateDatabaseName(): string {
  return `embudo_template_${migrationsFingerprint()}`;
}

let fingerprint: string | undefined;

/** The migrations' files and the PGlite package (its version decides the dump's format), hashed. */
function migrationsFingerprint(): string {
  if (fingerprint) return fingerprint;
  const hash = createHash('sha256');
  // The package does not export its package.json: read it beside its entry point (dist/index.cjs).
  const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  hash.update(fs.readFileSync(path.join(path.dirname(pgliteEntry), '..', 'package.json')));
  const folder = path.join(SERVER_ROOT, 'db/migrations');
  const files = fs.readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort();
  for (const file of files) {
    const full = path.join(folder, file);
    if (!fs.statSync(full).isFile()) continue;
    hash.update(file);
    hash.update(fs.readFileSync(full));
  }
  fingerprint = hash.digest('hex').slice(0, 16);
  return fingerprint;
}
