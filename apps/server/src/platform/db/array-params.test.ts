import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { contacts, tenants, webhookIntake } from '../../../db/schema/index.ts';
import { createTestDatabase } from '../../../test/support/test-database.ts';
import { queryRows, type Database } from './database.ts';
import { isAnyOf, unnestRows } from './array-params.ts';

let database: Database;
let tenantId: string;
/** Texts an array literal must escape: separators, braces, quotes, backslashes, spaces, the word NULL, unicode. */
const awkward = ['a,b', '{llaves}', 'comillas "dobles"', 'barra \\ invertida', ' espacios ', 'NULL', '¿Qué tal? 👋', ''];

beforeAll(async () => {
  database = await createTestDatabase();
  [{ id: tenantId }] = (await database.db.insert(tenants).values({ name: 'Acme', slug: 'acme-array-params' }).returning({ id: tenants.id })) as [
    { id: string },
  ];
  await database.db.insert(contacts).values(awkward.map((phone, index) => ({ tenantId, phone, name: index % 2 === 0 ? null : `n${index}` })));
});
afterAll(() => database.close());

const phonesWhere = async (condition: ReturnType<typeof isAnyOf>) =>
  (
    await database.db
      .select({ phone: contacts.phone })
      .from(contacts)
      .where(and(eq(contacts.tenantId, tenantId), condition))
      .orderBy(asc(contacts.phone))
  ).map((row) => row.phone);

describe('isAnyOf', () => {
  it('finds what inArray finds, whatever the texts hold, with one parameter for the whole list', async () => {
    const asked = [...awkward.slice(0, 5), 'nadie', 'NULL'];
    expect(await phonesWhere(isAnyOf(contacts.phone, asked))).toEqual(await phonesWhere(inArray(contacts.phone, asked)));
    expect(await phonesWhere(isAnyOf(contacts.phone, asked))).toHaveLength(6);
    const { params, sql: text } = database.db.select().from(contacts).where(isAnyOf(contacts.phone, asked)).toSQL();
    expect(params).toHaveLength(1);
    expect(text).toContain('= any($1::text[]::text[])');
  });

  it('finds nothing in an empty list, and keys of other types (uuid, bigserial) are cast', async () => {
    expect(await phonesWhere(isAnyOf(contacts.phone, []))).toEqual([]);
    const ids = (await database.db.select({ id: contacts.id }).from(contacts).where(eq(contacts.tenantId, tenantId)).limit(2)).map((row) => row.id);
    expect(await database.db.select({ id: contacts.id }).from(contacts).where(isAnyOf(contacts.id, ids))).toHaveLength(2);
    const stored = await database.db
      .insert(webhookIntake)
      .values(['a', 'b', 'c'].map((text) => ({ tenantId, provider: 'gupshup' as const, body: Buffer.from(text), bodyHash: text, receivedAt: new Date() })))
      .returning({ id: webhookIntake.id });
    const deleted = await database.db
      .delete(webhookIntake)
      .where(isAnyOf(webhookIntake.id, [stored[0]!.id, stored[2]!.id]))
      .returning({ id: webhookIntake.id });
    expect(deleted.map((row) => row.id).sort()).toEqual([stored[0]!.id, stored[2]!.id].sort());
  });
});

describe('unnestRows', () => {
  it('gives back the rows it was given, typed, nulls included, in order', async () => {
    const at = '2026-11-27T10:11:12.345Z';
    const rows = await queryRows<{ label: string | null; at: Date | string | null; n: number | null; flag: boolean | null }>(
      database.db,
      sql`select label, at, n, flag from ${unnestRows('r', { label: 'text', at: 'timestamptz', n: 'int', flag: 'boolean' }, [
        ...awkward.map((label, index) => ({ label, at, n: String(index), flag: String(index % 2 === 0) })),
        { label: null, at: null, n: null, flag: null },
      ])}`,
    );
    expect(rows.map((row) => row.label)).toEqual([...awkward, null]);
    expect(rows.map((row) => (row.at === null ? null : new Date(row.at).toISOString()))).toEqual([...awkward.map(() => at), null]);
    expect(rows.map((row) => row.n)).toEqual([...awkward.map((_, index) => index), null]);
    expect(rows.map((row) => row.flag)).toEqual([...awkward.map((_, index) => index % 2 === 0), null]);
  });
});
