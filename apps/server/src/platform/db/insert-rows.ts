import { getTableColumns, getTableName, Param, SQL, StringChunk } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { asText, castTypeOf } from './array-params.ts';
import { queryRows, type DbExecutor } from './database.ts';

/** Rows that conflict with any unique index (true) or with the one on these columns are skipped. */
export type SkipConflicts = true | PgColumn[];

/**
 * A multi-row insert as `insert into t (…) select … from unnest(<one text array per column>)`: the statement is the
 * same whatever the number of rows (one prepared statement), and it is written once per shape (table, columns,
 * conflict, returning) and then only takes its arrays. drizzle building `values (…), (…)` — a parameter per column
 * of every row, each through several type checks — cost more CPU on the webhook path than the database spent on the
 * insert (docs/decisions/0015).
 *
 * A column that some row names is null in the rows that do not; a column no row names gets its default. Values go as
 * text and are cast to the column's type, so both drivers serialise one kind of array. Answers the rows the database
 * returned (all columns, or those asked for), read back through each column as drizzle's own insert would.
 */
export async function insertRows<Table extends PgTable, Key extends keyof Table['$inferSelect'] & string = keyof Table['$inferSelect'] & string>(
  executor: DbExecutor,
  table: Table,
  rows: ReadonlyArray<Table['$inferInsert']>,
  options: { onConflictDoNothing?: SkipConflicts; returning?: readonly Key[] } = {},
): Promise<Array<Pick<Table['$inferSelect'], Key>>> {
  if (rows.length === 0) return [];
  const values = rows as ReadonlyArray<Record<string, unknown>>;
  const columns = Object.entries(getTableColumns(table)) as Array<[string, PgColumn]>;
  const named = columns.filter(([key]) => values.some((row) => row[key] !== undefined));
  const shape = shapeOf(table, columns, named, options);
  const chunks: Array<StringChunk | Param> = [new StringChunk(shape.pieces[0]!)];
  named.forEach(([key, column], index) => {
    chunks.push(new Param(values.map((row) => asText(column, row[key]))), new StringChunk(shape.pieces[index + 1]!));
  });
  const stored = await queryRows<Record<string, unknown>>(executor, new SQL(chunks));
  return stored.map((raw) => {
    const row: Record<string, unknown> = {};
    for (const [key, column] of shape.returned) {
      const value = raw[column.name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as Pick<Table['$inferSelect'], Key>;
  });
}

interface Shape {
  /** The statement's text around its arrays: one more piece than arrays. */
  pieces: string[];
  returned: Array<[string, PgColumn]>;
}

const shapes = new WeakMap<PgTable, Map<string, Shape>>();

function shapeOf(
  table: PgTable,
  columns: Array<[string, PgColumn]>,
  named: Array<[string, PgColumn]>,
  options: { onConflictDoNothing?: SkipConflicts; returning?: readonly string[] },
): Shape {
  const conflict = conflictClause(options.onConflictDoNothing);
  const returned = options.returning ? columns.filter(([key]) => options.returning!.includes(key)) : columns;
  const key = [named.map(([name]) => name).join(','), conflict, returned.map(([name]) => name).join(',')].join('|');
  let byKey = shapes.get(table);
  if (!byKey) shapes.set(table, (byKey = new Map()));
  const known = byKey.get(key);
  if (known) return known;

  const names = named.map(([, column]) => quoted(column.name)).join(', ');
  const casts = named.map(([, column]) => `v.${quoted(column.name)}::${castTypeOf(column)}`).join(', ');
  const pieces = [`insert into ${quoted(getTableName(table))} (${names}) select ${casts} from unnest(`];
  for (let index = 1; index < named.length; index++) pieces.push('::text[], ');
  pieces.push(`::text[]) as v(${names})${conflict} returning ${returned.map(([, column]) => quoted(column.name)).join(', ')}`);
  const shape = { pieces, returned };
  byKey.set(key, shape);
  return shape;
}

function conflictClause(skip: SkipConflicts | undefined): string {
  if (!skip) return '';
  if (skip === true) return ' on conflict do nothing';
  return ` on conflict (${skip.map((column) => quoted(column.name)).join(', ')}) do nothing`;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
