import { describe, expect, it } from 'vitest';
import { tenants } from '../../../db/schema/index.ts';
import { createTestDatabase } from '../../../test/support/test-database.ts';
import { upsertContacts } from './contacts.service.ts';

describe('contacts by phone, several at once', () => {
  it('creates the new ones, fills a name only where there was none, and answers every phone', async () => {
    const database = await createTestDatabase();
    try {
      const [tenant] = await database.db.insert(tenants).values({ name: 'Contactos', slug: 'contactos' }).returning();
      const first = await upsertContacts(database.db, tenant!.id, [
        { phone: '5215500000001', isGroup: false },
        { phone: '5215500000002', name: 'Beto', isGroup: false },
        // Same phone again: the first input decides the group flag, the first name given names it.
        { phone: '5215500000001', name: 'Ana', isGroup: true },
      ]);
      expect([...first.values()].map(({ phone, name, isGroup }) => ({ phone, name, isGroup }))).toEqual(
        expect.arrayContaining([
          { phone: '5215500000001', name: 'Ana', isGroup: false },
          { phone: '5215500000002', name: 'Beto', isGroup: false },
        ]),
      );

      const again = await upsertContacts(database.db, tenant!.id, [
        { phone: '5215500000001', name: 'Otra Ana', isGroup: false },
        { phone: '5215500000003', isGroup: false },
      ]);
      expect(again.get('5215500000001')).toMatchObject({ id: first.get('5215500000001')!.id, name: 'Ana' });
      expect(again.get('5215500000003')).toMatchObject({ name: null });
      const named = await upsertContacts(database.db, tenant!.id, [{ phone: '5215500000003', name: 'Carla', isGroup: false }]);
      expect(named.get('5215500000003')).toMatchObject({ id: again.get('5215500000003')!.id, name: 'Carla' });
    } finally {
      await database.close();
    }
  });

  it('only reads contacts it knows whose name it is not learning (one statement), and writes the others (three)', async () => {
    const database = await createTestDatabase();
    try {
      const [tenant] = await database.db.insert(tenants).values({ name: 'Lecturas', slug: 'lecturas' }).returning();
      const known = [
        { phone: '5215500000011', name: 'Dora', isGroup: false },
        { phone: '5215500000012', isGroup: false },
      ];
      const statementsOf = async (inputs: typeof known) =>
        (await database.gate.countStatements(() => upsertContacts(database.db, tenant!.id, inputs))).statements;
      expect(await statementsOf(known)).toBe(3);
      expect(await statementsOf(known)).toBe(1);
      // A name for the nameless one: written.
      expect(await statementsOf([{ phone: '5215500000012', name: 'Eva', isGroup: false }])).toBe(3);
      expect(await statementsOf([{ phone: '5215500000012', name: 'Otra Eva', isGroup: false }])).toBe(1);
    } finally {
      await database.close();
    }
  });
});
