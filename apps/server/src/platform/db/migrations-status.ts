import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { SERVER_ROOT } from '../paths/server-root.ts';
import { queryRows, type Db } from './database.ts';

interface Journal {
  entries: { tag: string; when: number }[];
}

let newestMigration: { tag: string; when: number } | undefined;

/** The newest migration this build ships (db/migrations/meta/_journal.json), read once. */
function newest() {
  if (!newestMigration) {
    const journal = JSON.parse(fs.readFileSync(path.join(SERVER_ROOT, 'db/migrations/meta/_journal.json'), 'utf8')) as Journal;
    newestMigration = journal.entries.reduce((latest, entry) => (entry.when > latest.when ? entry : latest));
  }
  return newestMigration;
}

/**
 * Throws unless the database has every migration this build ships. drizzle's migrator records each applied one in
 * drizzle.__drizzle_migrations with the journal's timestamp as created_at.
 */
export async function assertMigrationsApplied(db: Db): Promise<void> {
  const expected = newest();
  const [row] = await queryRows<{ newest: string | null }>(db, sql`select max(created_at)::text as newest from drizzle.__drizzle_migrations`);
  if (!row?.newest || Number(row.newest) < expected.when) throw new Error(`migration ${expected.tag} is not applied`);
}
