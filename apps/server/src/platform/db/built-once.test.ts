import { describe, expect, it } from 'vitest';
import type { Db } from './database.ts';
import { builtOnce } from './built-once.ts';

describe('builtOnce', () => {
  it('builds the query once per database and hands the same one back', () => {
    const built: unknown[] = [];
    const queryOf = builtOnce((db) => {
      const query = { db };
      built.push(query);
      return query;
    });
    const first = {} as Db;
    const second = {} as Db;
    expect(queryOf(first)).toBe(queryOf(first));
    expect(queryOf(second)).not.toBe(queryOf(first));
    expect(queryOf(second).db).toBe(second);
    expect(built).toHaveLength(2);
  });
});
