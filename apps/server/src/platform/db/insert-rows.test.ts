import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { jobs, tenants, webhookIntake } from '../../../db/schema/index.ts';
import { createTestDatabase } from '../../../test/support/test-database.ts';
import { queryText, type Database } from './database.ts';
import { insertRows } from './insert-rows.ts';

let database: Database;
let tenantId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  [{ id: tenantId }] = (await database.db.insert(tenants).values({ name: 'Acme', slug: 'acme-insert-rows' }).returning({ id: tenants.id })) as [{ id: string }];
});
afterAll(() => database.close());

describe('insertRows', () => {
  it("stores and answers rows exactly as drizzle's own insert does: defaults, nulls, JSON, dates, bytes, quotes and unicode", async () => {
    const at = new Date('2026-11-27T10:11:12.345Z');
    const rows = (prefix: string) => [
      {
        name: `${prefix}.a`,
        payload: { text: 'comillas "dobles", \'simples\', \\barra y {llaves}', emoji: '¿Qué tal? 👋', n: [1, 2.5, null] },
        runAt: at,
        orderKey: null,
      },
      { name: `${prefix}.b`, payload: [], runAt: at, orderKey: 'chat:1' },
      { name: `${prefix}.c`, payload: 'texto suelto', runAt: at, orderKey: 'NULL' },
    ];
    const byDrizzle = await database.db.insert(jobs).values(rows('drizzle')).returning();
    const byArrays = await insertRows(database.db, jobs, rows('arrays'));

    const comparable = (row: (typeof byDrizzle)[number]) => ({
      ...row,
      id: typeof row.id,
      seq: typeof row.seq,
      createdAt: row.createdAt instanceof Date,
      name: row.name.slice(row.name.indexOf('.') + 1),
    });
    expect(byArrays.map(comparable)).toEqual(byDrizzle.map(comparable));
    expect(byArrays[0]).toMatchObject({ status: 'pending', attempts: 0, maxAttempts: 5, lockedUntil: null, runAt: at, orderKey: null });
    expect(byArrays[2]!.orderKey).toBe('NULL');
    const reread = await database.db
      .select()
      .from(jobs)
      .where(inArray(jobs.name, ['arrays.a', 'arrays.b', 'arrays.c']));
    expect(reread.map(comparable).sort((a, b) => a.name.localeCompare(b.name))).toEqual(byArrays.map(comparable));
  });

  it('skips conflicting rows (a repeat in the same statement too) and answers only the columns asked for', async () => {
    const delivery = (body: string) => ({
      tenantId,
      provider: 'gupshup' as const,
      body: Buffer.from(body),
      bodyHash: `hash-${body}`,
      receivedAt: new Date(),
      requestId: null,
    });
    const first = await insertRows(database.db, webhookIntake, [delivery('uno'), delivery('dos'), delivery('uno')], {
      onConflictDoNothing: true,
      returning: ['id', 'bodyHash'],
    });
    expect(first.map((row) => row.bodyHash).sort()).toEqual(['hash-dos', 'hash-uno']);
    expect(Object.keys(first[0]!).sort()).toEqual(['bodyHash', 'id']);
    expect(typeof first[0]!.id).toBe('number');

    const again = await insertRows(database.db, webhookIntake, [delivery('dos'), delivery('tres')], {
      onConflictDoNothing: [webhookIntake.tenantId, webhookIntake.bodyHash],
    });
    expect(again.map((row) => row.bodyHash)).toEqual(['hash-tres']);
    expect(again[0]!.body).toEqual(Buffer.from('tres'));
    expect(again[0]!.attempts).toBe(0);
    expect(await insertRows(database.db, webhookIntake, [])).toEqual([]);
  });

  it('takes a serial key when one is given (cast to its integer type)', async () => {
    const [stored] = await insertRows(
      database.db,
      webhookIntake,
      [{ id: 900_000_001, tenantId, provider: 'gupshup', body: Buffer.from('con id'), bodyHash: 'hash-con-id', receivedAt: new Date() }],
      { returning: ['id'] },
    );
    expect(stored).toEqual({ id: 900_000_001 });
  });
});

describe('a statement written by hand (queryText)', () => {
  it('stores bytes byte for byte, answers the rows, and is counted like any statement, run after run', async () => {
    const everyByte = Buffer.from(Array.from({ length: 256 }, (_, value) => value));
    const insert = `insert into webhook_intake (tenant_id, provider, body, body_hash, received_at) values ($1, $2, $3, $4, $5) returning id, body_hash`;
    // Three runs: PGlite runs a text's first run unprepared and prepares it from its second.
    for (const hash of ['uno', 'dos', 'tres']) {
      const { result, statements } = await database.gate.countStatements(() =>
        queryText<{ id: number | string; body_hash: string }>(database.db, insert, [tenantId, 'gupshup', everyByte, hash, new Date()]),
      );
      expect(statements).toBe(1);
      expect(result).toEqual([{ id: expect.anything(), body_hash: hash }]);
      const [stored] = await database.db
        .select()
        .from(webhookIntake)
        .where(eq(webhookIntake.id, Number(result[0]!.id)));
      expect(Buffer.from(stored!.body)).toEqual(everyByte);
    }
  });
});
