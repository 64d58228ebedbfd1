import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openPostgres } from '../../src/platform/db/database.ts';

const serverUrl = process.env.DATABASE_URL!;

describe('server database (PostgreSQL)', () => {
  it('applies migrations once when several processes start at the same time', async () => {
    const name = `embudo_migrate_${Date.now()}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    try {
      const opened = await Promise.all([1, 2, 3, 4].map(() => openPostgres(url.toString(), { poolSize: 2 })));
      const rows = await opened[0]!.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect((rows.rows[0] as { n: number }).n).toBeGreaterThan(0);
      const tables = await opened[0]!.db.execute(sql`select count(*)::int as n from information_schema.tables where table_name = 'tenants'`);
      expect((tables.rows[0] as { n: number }).n).toBe(1);
      await Promise.all(opened.map((database) => database.close()));
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
