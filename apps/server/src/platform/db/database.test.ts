import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { EMBEDDED_BACKGROUND_SHARE, openPglite, queryRows, turningBetweenStatementsOf, type Db } from './database.ts';
import type { LeaveGate } from './database-gate.ts';
import { DataDirLockedError } from './data-dir-lock.ts';

const tempDirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-db-'));
  tempDirs.push(dir);
  return path.join(dir, 'nested', 'data');
};
afterAll(() => tempDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe('embedded database (PGlite)', () => {
  it("lets the event loop turn between a transaction's statements only inside turningBetweenStatementsOf", async () => {
    const database = await openPglite(undefined);
    try {
      /** What ran first after the transaction's first statement: its next line, or a callback queued for the next turn. */
      const firstAfterAStatement = async (db: Db) => {
        const order: string[] = [];
        await db.transaction(async (tx) => {
          setImmediate(() => order.push('next turn'));
          await tx.execute(sql`select 1`);
          order.push('next statement');
          await tx.execute(sql`select 2`);
        });
        return order[0];
      };
      // PGlite answers without waiting for I/O: a transaction runs within one turn unless told otherwise.
      expect(await firstAfterAStatement(database.db)).toBe('next statement');
      expect(await turningBetweenStatementsOf(() => firstAfterAStatement(database.db))).toBe('next turn');
    } finally {
      await database.close();
    }
    // Opens a fresh database and migrates it: past 30 s beside the other suites on a loaded 2-core machine.
  }, 90_000);

  it('tells its gate how long each statement and transaction held the connection, for the background time share', async () => {
    const database = await openPglite(undefined);
    try {
      expect(database.gate.backgroundShare).toBe(EMBEDDED_BACKGROUND_SHARE);
      const held: number[] = [];
      const enter = database.gate.enter.bind(database.gate);
      vi.spyOn(database.gate, 'enter').mockImplementation(async () => {
        const leave = await enter();
        const reporting: LeaveGate = (busyMs) => {
          held.push(busyMs ?? 0);
          leave(busyMs);
        };
        return reporting;
      });
      // The transaction holds PGlite's one connection while its callback waits, so that time counts.
      await database.gate.runInBackground(() =>
        database.db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          await new Promise((resolve) => setTimeout(resolve, 30));
        }),
      );
      await database.db.execute(sql`select 1`);
      expect(held).toHaveLength(2);
      expect(held[0]).toBeGreaterThanOrEqual(29);
      expect(held[1]).toBeGreaterThan(0);
    } finally {
      vi.restoreAllMocks();
      await database.close();
    }
  }, 90_000);

  it('persists under DATA_DIR (creating it) and re-running migrations on reopen is a no-op', async () => {
    const dataDir = tempDir();
    const first = await openPglite(dataDir);
    await first.db.execute(sql`insert into tenants (name, slug) values ('Persistida', 'persistida')`);
    await first.close();

    const again = await openPglite(dataDir);
    const rows = await queryRows(again.db, sql`select slug from tenants`);
    expect(rows).toEqual([{ slug: 'persistida' }]);
    const [migrations] = await queryRows<{ n: number }>(again.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(migrations!.n).toBe(fs.readdirSync(path.resolve(import.meta.dirname, '../../../db/migrations')).filter((f) => f.endsWith('.sql')).length);
    await again.close();
    // Opens on-disk databases: 6 s alone, past 30 s beside the other suites on a loaded 2-core machine.
  }, 90_000);

  it('refuses a second opener of the same DATA_DIR with a clear message', async () => {
    const dataDir = tempDir();
    const first = await openPglite(dataDir);
    try {
      // Simulate another live process holding the lock: the parent process id is alive.
      fs.writeFileSync(path.join(dataDir, 'embudo.lock'), String(process.ppid));
      await expect(openPglite(dataDir)).rejects.toThrowError(DataDirLockedError);
      await expect(openPglite(dataDir)).rejects.toThrowError(/is in use by process/);
    } finally {
      fs.writeFileSync(path.join(dataDir, 'embudo.lock'), String(process.pid));
      await first.close();
    }
    expect(fs.existsSync(path.join(dataDir, 'embudo.lock'))).toBe(false);
    // Opens on-disk databases: 6 s alone, past 30 s beside the other suites on a loaded 2-core machine.
  }, 90_000);

  it('takes over a lock left by a process that no longer exists', async () => {
    const dataDir = tempDir();
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'embudo.lock'), '999999999');
    const database = await openPglite(dataDir);
    await database.close();
    // Opens an on-disk database: past 30 s beside the other suites on a loaded 2-core machine.
  }, 90_000);
});
