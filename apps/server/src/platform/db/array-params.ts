import { Param, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * Lists as one array parameter. `in ($1, …, $n)` and `values (…), (…)` make a new statement text for every count, and
 * a text seen once is neither kept prepared on PGlite nor named on PostgreSQL: a webhook batch's statements were
 * parsed and planned afresh four times in ten. `= any($1)` and `unnest($1, $2)` keep one text whatever the count, and
 * drizzle builds them without a type check per value.
 *
 * Values travel as text[] (the one array both drivers serialise alike) and are cast to their type in the statement.
 */
function arrayParam(sqlType: string, texts: ReadonlyArray<string | null>): SQL {
  return sql`${new Param(texts)}::text[]::${sql.raw(sqlType)}[]`;
}

/**
 * `unnest($1, $2, …) as alias(name, …)`: rows as one typed array per column, for `insert … select` and `update … from`.
 * Values are given as the text PostgreSQL reads into each type.
 */
export function unnestRows<Name extends string>(alias: string, types: Record<Name, string>, rows: ReadonlyArray<Record<Name, string | null>>): SQL {
  const names = Object.keys(types) as Name[];
  const arrays = names.map((name) =>
    arrayParam(
      types[name],
      rows.map((row) => row[name]),
    ),
  );
  return sql`unnest(${sql.join(arrays, sql`, `)}) as ${sql.raw(alias)}(${sql.raw(names.join(', '))})`;
}

/** A serial column's values are of its integer type (`bigserial[]` and `::bigserial` are no types). */
const SERIAL_TYPES: Record<string, string> = { smallserial: 'smallint', serial: 'integer', bigserial: 'bigint' };

/** The type a column's values are cast to. */
export function castTypeOf(column: PgColumn): string {
  const type = column.getSQLType();
  return SERIAL_TYPES[type] ?? type;
}

/** A column's values as one array of its type. */
function columnArray(column: PgColumn, values: readonly unknown[]): SQL {
  return arrayParam(
    castTypeOf(column),
    values.map((value) => asText(column, value)),
  );
}

/** `column in (values)` as one parameter: `column = any($1)`. */
export function isAnyOf(column: PgColumn, values: readonly unknown[]): SQL {
  return sql`${column} = any(${columnArray(column, values)})`;
}

/** A value as the text PostgreSQL reads back into its column's type. */
export function asText(column: PgColumn, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const driverValue: unknown = column.mapToDriverValue(value);
  if (driverValue === null || driverValue === undefined) return null;
  if (driverValue instanceof Uint8Array) return byteaText(driverValue);
  if (driverValue instanceof Date) return driverValue.toISOString();
  if (typeof driverValue === 'object') return JSON.stringify(driverValue);
  return String(driverValue);
}

/** Bytes as PostgreSQL reads a bytea in text: `\\x` and their hex. */
export function byteaText(bytes: Uint8Array): string {
  return `\\x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
}
