import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { queryRows, type DbExecutor } from './database.ts';

/**
 * A multi-row insert as `insert into t (…) select … from unnest(<one text array per column>)`: the statement is the
 * same whatever the number of rows (one prepared statement), and building it costs a parameter per column instead
 * of drizzle's parameter per column of every row — on the webhook path, drizzle building `values (…), (…)` cost more
 * CPU than the database spent on the insert (docs/decisions/0015).
 *
 * Every row names the same columns (null where it has no value); a column no row names gets its default. Values go
 * as text and are cast to the column's type, so both drivers serialise one kind of array. Answers the rows the
 * database returned (all columns, or those asked for), read back through each column as drizzle's own insert would.
 */
export async function insertRows<Table extends PgTable, Key extends keyof Table['$inferSelect'] & string = keyof Table['$inferSelect'] & string>(
  executor: DbExecutor,
  table: Table,
  rows: ReadonlyArray<Table['$inferInsert']>,
  options: { onConflictDoNothing?: true | PgColumn[]; returning?: readonly Key[] } = {},
): Promise<Array<Pick<Table['$inferSelect'], Key>>> {
  if (rows.length === 0) return [];
  const columns = Object.entries(getTableColumns(table)) as Array<[string, PgColumn]>;
  const named = columns.filter(([key]) => (rows[0] as Record<string, unknown>)[key] !== undefined);
  const arrays = named.map(([key, column]) => sql`${sql.param(rows.map((row) => asText(column, (row as Record<string, unknown>)[key])))}::text[]`);
  const castValues = named.map(([, column]) => sql`v.${sql.identifier(column.name)}::${sql.raw(column.getSQLType())}`);
  const conflict = options.onConflictDoNothing
    ? options.onConflictDoNothing === true
      ? sql` on conflict do nothing`
      : sql` on conflict (${sql.join(
          options.onConflictDoNothing.map((column) => sql.identifier(column.name)),
          sql`, `,
        )}) do nothing`
    : sql``;
  const returned = options.returning ? columns.filter(([key]) => (options.returning as readonly string[]).includes(key)) : columns;
  const statement: SQL = sql`insert into ${sql.identifier(getTableName(table))} (${sql.join(
    named.map(([, column]) => sql.identifier(column.name)),
    sql`, `,
  )})
    select ${sql.join(castValues, sql`, `)}
    from unnest(${sql.join(arrays, sql`, `)}) as v(${sql.join(
      named.map(([, column]) => sql.identifier(column.name)),
      sql`, `,
    )})${conflict}
    returning ${sql.join(
      returned.map(([, column]) => sql.identifier(column.name)),
      sql`, `,
    )}`;
  const stored = await queryRows<Record<string, unknown>>(executor, statement);
  return stored.map((raw) => {
    const row: Record<string, unknown> = {};
    for (const [key, column] of returned) {
      const value = raw[column.name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as Pick<Table['$inferSelect'], Key>;
  });
}

/** A value as the text PostgreSQL reads back into its column's type. */
function asText(column: PgColumn, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const driverValue: unknown = column.mapToDriverValue(value);
  if (driverValue === null || driverValue === undefined) return null;
  if (driverValue instanceof Uint8Array) return `\\x${Buffer.from(driverValue.buffer, driverValue.byteOffset, driverValue.byteLength).toString('hex')}`;
  if (driverValue instanceof Date) return driverValue.toISOString();
  if (typeof driverValue === 'object') return JSON.stringify(driverValue);
  return String(driverValue);
}
