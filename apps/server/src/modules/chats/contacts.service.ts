import { and, eq } from 'drizzle-orm';
import { contacts } from '../../../db/schema/index.ts';
import type { DbExecutor } from '../../platform/db/database.ts';

export type ContactRow = typeof contacts.$inferSelect;

/** Finds the contact by phone (or group id), creating it; a newly learnt name fills an empty one. */
export async function upsertContact(executor: DbExecutor, tenantId: string, input: { phone: string; name?: string; isGroup: boolean }): Promise<ContactRow> {
  await executor
    .insert(contacts)
    .values({ tenantId, phone: input.phone, name: input.name ?? null, isGroup: input.isGroup })
    .onConflictDoNothing();
  const [row] = await executor
    .select()
    .from(contacts)
    .where(and(eq(contacts.tenantId, tenantId), eq(contacts.phone, input.phone)))
    .limit(1);
  if (row && !row.name && input.name) {
    const [named] = await executor.update(contacts).set({ name: input.name }).where(eq(contacts.id, row.id)).returning();
    return named!;
  }
  return row!;
}
