import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite, QueryOptions } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { openPglite, queryRows, type Database } from './database.ts';
import { PREPARED_STATEMENTS_KEPT } from './pglite-statements.ts';

let database: Database;
beforeAll(async () => {
  database = await openPglite(undefined);
  await database.db.execute(
    sql.raw(`create table kinds (
      id serial primary key, label text unique, at timestamptz, data jsonb, tags text[], amount numeric, raw bytea, flag boolean
    )`),
  );
});
afterAll(() => database.close());

const preparedNames = async () =>
  (await queryRows<{ name: string }>(database.db, sql`select name from pg_prepared_statements where name like 'embudo_%'`)).map((row) => row.name);

const insertKind = (label: string) =>
  database.db.execute(
    sql`insert into kinds (label, at, data, tags, amount, raw, flag)
        values (${label}, ${new Date('2026-01-02T03:04:05.678Z')}, ${JSON.stringify({ a: [1, 'dos'] })}::jsonb, array[${'x'}, ${'y'}]::text[], ${'12.50'}, ${Buffer.from([0, 1, 255])}, ${null})
        returning id, label, at, data, tags, amount, raw, flag`,
  );

describe('prepared statements on the embedded database', () => {
  it('answers a repeated statement exactly as its first, unprepared run, and prepares it from its second run on', async () => {
    const before = await preparedNames();
    const first = (await insertKind('uno')) as unknown as { rows: Array<Record<string, unknown>> };
    const afterFirst = await preparedNames();
    const second = (await insertKind('dos')) as unknown as { rows: Array<Record<string, unknown>> };
    const third = (await insertKind('tres')) as unknown as { rows: Array<Record<string, unknown>> };
    const afterThird = await preparedNames();

    const { id: _firstId, label: _first, ...firstValues } = first.rows[0]!;
    for (const run of [second, third]) {
      const { id: _id, label: _label, ...values } = run.rows[0]!;
      expect(values).toEqual(firstValues);
    }
    expect(firstValues).toMatchObject({ data: { a: [1, 'dos'] }, tags: ['x', 'y'], amount: '12.50', flag: null });
    expect(Buffer.from(firstValues.raw as Uint8Array)).toEqual(Buffer.from([0, 1, 255]));
    // The insert was not prepared after its first run; it was after the second, and the third reused it.
    expect(afterFirst.length).toBe(before.length + 1); // the names query itself, on its second run
    expect(afterThird.length).toBe(afterFirst.length + 1);
  });

  it('maps drizzle selects through the prepared path the same way (dates, nulls, parameters of every kind)', async () => {
    const read = () =>
      queryRows<{ label: string; at: string; flag: boolean | null }>(
        database.db,
        sql`select label, at, flag from kinds where label in (${'uno'}, ${'dos'}) and (${null}::boolean is null) order by label`,
      );
    const runs = [await read(), await read(), await read()];
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
    expect(runs[0]!.map((row) => row.label)).toEqual(['dos', 'uno']);
  });

  it('writes and reads bytea byte for byte (every byte value, empty, inside arrays), prepared or not', async () => {
    const everyByte = Buffer.from(Array.from({ length: 256 }, (_, value) => value));
    const read = () =>
      queryRows<{ raw: Uint8Array; empty: Uint8Array; listed: Uint8Array[] }>(
        database.db,
        sql`select ${everyByte}::bytea as raw, ${Buffer.alloc(0)}::bytea as empty, array[${everyByte}::bytea, ${Buffer.from('ñ')}::bytea] as listed`,
      );
    for (const [row] of [await read(), await read(), await read()]) {
      expect(Buffer.from(row!.raw)).toEqual(everyByte);
      expect(row!.empty).toHaveLength(0);
      expect(row!.listed.map((value) => Buffer.from(value))).toEqual([everyByte, Buffer.from('ñ')]);
    }
    await expect(database.db.execute(sql`select ${'no es binario' as unknown as Buffer}::bytea`)).rejects.toThrow();
  });

  it('answers the same result objects as PGlite itself: rows, fields, command and affected rows, in both row modes', async () => {
    const client = (database.db as unknown as { $client: PGlite }).$client;
    const statements: Array<[string, unknown[], QueryOptions | undefined]> = [
      [`update kinds set flag = $1 where label in ($2, $3) returning label, flag, at`, [true, 'uno', 'dos'], undefined],
      [`update kinds set flag = $1 where label = $2`, [false, 'tres'], { rowMode: 'array' }],
      [`select label, amount, tags from kinds where label = $1`, ['uno'], { rowMode: 'array', parsers: { 1700: (value: string) => Number(value) } }],
      [`select label from kinds where label = $1`, ['nadie'], undefined],
      // Text beyond ASCII, empty text, nulls, and a row of many columns, read in place from the reply's bytes.
      [
        `select $1::text as "ñandú", ''::text as empty, null::int as nothing, $2::text[] as list, k.* from kinds k where label = $3`,
        ['pingüino 🐧 ☃', ['a', 'é', null], 'uno'],
        undefined,
      ],
      [`delete from kinds where label = $1`, ['nadie'], undefined],
    ];
    for (const [text, params, options] of statements) {
      const first = await client.query(text, params, options);
      expect(await client.query(text, params, options)).toEqual(first);
      expect(await client.query(text, params, options)).toEqual(first);
    }
  });

  it("tells a prepared statement's notices to the caller, once each, as PGlite does", async () => {
    const client = (database.db as unknown as { $client: PGlite }).$client;
    const told: string[][] = [];
    for (let run = 0; run < 3; run++) {
      const notices: string[] = [];
      await client.query(`drop table if exists nunca_hubo_tabla`, [], { onNotice: (notice) => notices.push(notice.message ?? '') });
      told.push(notices);
    }
    expect(told).toEqual(Array.from({ length: 3 }, () => ['table "nunca_hubo_tabla" does not exist, skipping']));
  });

  it('throws the database error of a prepared statement with its code and query, and the database keeps answering', async () => {
    await insertKind('repetida').catch(() => undefined);
    const failure = (await insertKind('repetida').then(
      () => undefined,
      (error: unknown) => error,
    )) as (Error & { cause?: { code?: string; query?: string } }) | undefined;
    expect(failure).toBeInstanceOf(Error);
    expect(failure!.cause?.code).toBe('23505');
    expect(failure!.cause?.query).toContain('insert into kinds');
    const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from kinds where label = 'repetida'`);
    expect(row!.n).toBe(1);
  });

  it('rolls back a transaction whose prepared statement failed, and runs the next one', async () => {
    const count = async () => (await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from kinds`))[0]!.n;
    const before = await count();
    await expect(
      database.db.transaction(async (tx) => {
        for (const label of ['t1', 't2']) await tx.execute(sql`insert into kinds (label) values (${label})`);
        await tx.execute(sql`insert into kinds (label) values (${'t1'})`);
      }),
    ).rejects.toThrow();
    expect(await count()).toBe(before);
    await database.db.transaction(async (tx) => {
      for (const label of ['t3', 't4', 't5']) await tx.execute(sql`insert into kinds (label) values (${label})`);
    });
    expect(await count()).toBe(before + 3);
  });

  it('prepares again a statement whose table changed shape under it', async () => {
    await database.db.execute(sql.raw(`create table shifting (id int)`));
    await database.db.execute(sql.raw(`insert into shifting values (1)`));
    const read = () => queryRows<Record<string, unknown>>(database.db, sql`select * from shifting where id = ${1}`);
    await read();
    expect(await read()).toEqual([{ id: 1 }]);
    await database.db.execute(sql.raw(`alter table shifting add column note text default 'nueva'`));
    expect(await read()).toEqual([{ id: 1, note: 'nueva' }]);
    expect(await read()).toEqual([{ id: 1, note: 'nueva' }]);
  });

  it(`keeps at most ${PREPARED_STATEMENTS_KEPT} statements prepared, closing the least recently used`, async () => {
    for (let i = 0; i < PREPARED_STATEMENTS_KEPT + 50; i++) {
      const text = sql.raw(`select ${i} as n`);
      await database.db.execute(text);
      await database.db.execute(text);
    }
    // A closed one is closed with the next prepare: at most one stays open beyond the limit meanwhile.
    expect((await preparedNames()).length).toBeLessThanOrEqual(PREPARED_STATEMENTS_KEPT + 1);
    expect(await queryRows(database.db, sql.raw(`select 3 as n`))).toEqual([{ n: 3 }]);
  });
});
