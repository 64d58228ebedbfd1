import type { Db } from './database.ts';

/**
 * A query drizzle builds once per database and then only runs, its values given as placeholders (`sql.placeholder`
 * and `.prepare(name)`). drizzle writes a statement's text afresh every time it runs: for the session check's select
 * of three tables' columns that took 155–190 µs, twice what running it then took on PGlite (82–95 µs when built once).
 * Worth it on the paths every request takes; the name must be unique in the app (PostgreSQL prepares it under it).
 */
export function builtOnce<Query>(build: (db: Db) => Query): (db: Db) => Query {
  const built = new WeakMap<Db, Query>();
  return (db) => {
    let query = built.get(db);
    if (!query) built.set(db, (query = build(db)));
    return query;
  };
}
