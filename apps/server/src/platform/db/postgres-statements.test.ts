import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestDatabase } from '../../../test/support/test-database.ts';
import { queryRows, type Database } from './database.ts';
import { NAMED_STATEMENTS_KEPT, PostgresStatementNames } from './postgres-statements.ts';

describe('statement names for node-postgres', () => {
  it('names a text from its second run on, the same name every time and in every process', () => {
    const names = new PostgresStatementNames();
    const other = new PostgresStatementNames();
    expect(names.nameFor('select 1')).toBeUndefined();
    const name = names.nameFor('select 1');
    expect(name).toMatch(/^embudo_[0-9a-f]{20}$/);
    expect(names.nameFor('select 1')).toBe(name);
    other.nameFor('select 1');
    expect(other.nameFor('select 1')).toBe(name);
    names.nameFor('select 2');
    expect(names.nameFor('select 2')).not.toBe(name);
  });

  it('names a statement reported stale anew, and keeps the name on any other error', () => {
    const names = new PostgresStatementNames();
    names.nameFor('select * from t');
    const first = names.nameFor('select * from t')!;
    names.failed('select * from t', Object.assign(new Error('duplicate'), { code: '23505' }));
    expect(names.nameFor('select * from t')).toBe(first);
    names.failed('select * from t', Object.assign(new Error('cached plan must not change result type'), { code: '0A000' }));
    const renamed = names.nameFor('select * from t');
    expect(renamed).toBe(`${first}_1`);
  });

  it(`names at most ${NAMED_STATEMENTS_KEPT} texts; later ones run unnamed`, () => {
    const names = new PostgresStatementNames();
    for (let i = 0; i < NAMED_STATEMENTS_KEPT; i++) {
      names.nameFor(`select ${i}`);
      expect(names.nameFor(`select ${i}`)).toBeDefined();
    }
    names.nameFor('select -1');
    expect(names.nameFor('select -1')).toBeUndefined();
  });

  it('passes results and errors through unchanged, by promise and by callback', async () => {
    const names = new PostgresStatementNames();
    const seen: unknown[] = [];
    const failing = Object.assign(new Error('stale'), { code: '0A000' });
    const query = names.wrapQuery((config, values, callback) => {
      seen.push(config);
      const answer = (config as { text: string }).text === 'falla' ? Promise.reject(failing) : Promise.resolve({ rows: [values] });
      if (typeof callback !== 'function') return answer;
      answer.then(
        (result) => (callback as (e: unknown, r: unknown) => void)(undefined, result),
        (error: unknown) => (callback as (e: unknown, r: unknown) => void)(error, undefined),
      );
      return undefined;
    });
    await query({ text: 'select $1' }, [1]);
    expect(await query({ text: 'select $1', rowMode: 'array' }, [2])).toEqual({ rows: [[2]] });
    expect(seen.at(-1)).toEqual({ text: 'select $1', rowMode: 'array', name: names.nameFor('select $1') });
    expect(await new Promise((resolve) => query({ text: 'select $1' }, [3], (_: unknown, result: unknown) => resolve(result)))).toEqual({ rows: [[3]] });
    await expect(query({ text: 'falla' })).rejects.toBe(failing);
    await expect(query({ text: 'falla' })).rejects.toBe(failing);
    // Named on its second run, reported stale: named anew.
    expect(names.nameFor('falla')).toMatch(/_1$/);
    // Plain strings and configs with a name of their own are left alone.
    await query('select 9', []);
    await query({ text: 'select 8', name: 'propio' }, []);
    expect(seen.slice(-2)).toEqual(['select 9', { text: 'select 8', name: 'propio' }]);
  });
});

describe('repeated statements on the database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase({ poolSize: 1 });
  });
  afterAll(() => database.close());

  it('are prepared once on the connection and answer exactly as their first run', async () => {
    const read = () => queryRows<{ slug: string; n: number }>(database.db, sql`select ${'uno'}::text as slug, ${41}::int + 1 as n`);
    const first = await read();
    expect(await read()).toEqual(first);
    expect(await read()).toEqual(first);
    expect(first).toEqual([{ slug: 'uno', n: 42 }]);
    const prepared = await queryRows<{ statement: string }>(
      database.db,
      sql`select statement from pg_prepared_statements where name like 'embudo_%' and statement like '%as slug%'`,
    );
    expect(prepared).toHaveLength(1);
  });
});
