import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openPostgres, queryRows } from '../../src/platform/db/database.ts';

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
      const [applied] = await queryRows<{ n: number }>(opened[0]!.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect(applied!.n).toBeGreaterThan(0);
      const [tables] = await queryRows<{ n: number }>(
        opened[0]!.db,
        sql`select count(*)::int as n from information_schema.tables where table_name = 'tenants'`,
      );
      expect(tables!.n).toBe(1);
      await Promise.all(opened.map((database) => database.close()));
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
