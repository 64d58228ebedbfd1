import { and, eq, sql } from 'drizzle-orm';
import { MARKETING_OPTED_OUT } from '@embudo/contracts/http/chats';
import { contacts } from '../../../db/schema/index.ts';
import type { DbExecutor } from '../../platform/db/database.ts';
import { badRequest } from '../../platform/errors/app-error.ts';
import { isAnyOf, unnestRows } from '../../platform/db/array-params.ts';

export type ContactRow = typeof contacts.$inferSelect;

export interface ContactInput {
  phone: string;
  name?: string;
  isGroup: boolean;
}

/** Finds the contact by phone (or group id), creating it; a newly learnt name fills an empty one. */
export async function upsertContact(executor: DbExecutor, tenantId: string, input: ContactInput): Promise<ContactRow> {
  return (await upsertContacts(executor, tenantId, [input])).get(input.phone)!;
}

/**
 * `upsertContact` for several contacts, by phone. Of several inputs for one phone the first decides whether it is a
 * group, and the first name given names it, as one `upsertContact` after another would. Most contacts are known
 * already (every message of a chat names its contact again), so they are read first, in one statement: only new ones,
 * and known ones learning their first name, are written (two statements more). Writing them all on every batch, as
 * an upsert, cost the embedded database 11 µs a message.
 */
export async function upsertContacts(executor: DbExecutor, tenantId: string, inputs: readonly ContactInput[]): Promise<Map<string, ContactRow>> {
  const byPhone = new Map<string, ContactInput>();
  for (const input of inputs) {
    const seen = byPhone.get(input.phone);
    if (!seen) byPhone.set(input.phone, { ...input });
    else if (!seen.name && input.name) seen.name = input.name;
  }
  if (byPhone.size === 0) return new Map();
  const contactsOf = async (phones: string[]) =>
    executor
      .select()
      .from(contacts)
      .where(and(eq(contacts.tenantId, tenantId), isAnyOf(contacts.phone, phones)));
  const known = new Map((await contactsOf([...byPhone.keys()])).map((row) => [row.phone, row]));
  const toWrite = [...byPhone.values()].filter((input) => {
    const row = known.get(input.phone);
    return !row || (row.name === null && Boolean(input.name));
  });
  if (toWrite.length === 0) return known;
  const arriving = unnestRows(
    'v',
    { phone: 'text', name: 'text', is_group: 'boolean' },
    toWrite.map((input) => ({ phone: input.phone, name: input.name ?? null, is_group: String(input.isGroup) })),
  );
  // On conflict too: another transaction may have created the contact since it was read.
  await executor.execute(sql`
    insert into ${contacts} (tenant_id, phone, name, is_group)
    select ${tenantId}::uuid, v.phone, v.name, v.is_group from ${arriving}
    on conflict (tenant_id, phone) do update set name = excluded.name
    where ${contacts.name} is null and excluded.name is not null`);
  for (const row of await contactsOf(toWrite.map((input) => input.phone))) known.set(row.phone, row);
  return known;
}

/** The words that stop marketing messages when a customer writes one of them alone, unless the company chose its own. */
export const DEFAULT_OPT_OUT_KEYWORDS = ['STOP', 'BAJA'];

/** A keyword compared as people write it: case, accents and surrounding punctuation aside. */
export const keywordForm = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/^[\p{P}\s]+|[\p{P}\s]+$/gu, '')
    .toUpperCase();

/**
 * Records a customer's marketing choice: stopped (from `at`) or resumed. A customer we never spoke with becomes a
 * contact (no chat), so a bulk send reaching them later knows. An older choice never overrides a newer one.
 */
export async function setMarketingChoice(executor: DbExecutor, tenantId: string, phone: string, optedOut: boolean, at: Date) {
  await upsertContacts(executor, tenantId, [{ phone, isGroup: false }]);
  await executor.execute(sql`
    update ${contacts} set marketing_opted_out_at = ${optedOut ? at.toISOString() : null}::timestamptz
    where tenant_id = ${tenantId}::uuid and phone = ${phone}
      and ${optedOut ? sql`marketing_opted_out_at is null` : sql`marketing_opted_out_at is not null and marketing_opted_out_at <= ${at.toISOString()}::timestamptz`}`);
}

/** Whether a template of this category may not go to this contact: marketing, to a customer who opted out. */
export const refusesMarketing = (category: string | null | undefined, contact: Pick<ContactRow, 'marketingOptedOutAt'> | undefined) =>
  category === 'MARKETING' && Boolean(contact?.marketingOptedOutAt);

/**
 * A marketing template to a customer who asked for no marketing is refused (400) before anything is stored or billed;
 * utility and authentication templates still go, as WhatsApp allows.
 */
export async function assertMarketingAllowed(executor: DbExecutor, tenantId: string, contactId: string, category: string | null | undefined) {
  if (category !== 'MARKETING') return;
  const [contact] = await executor
    .select({ marketingOptedOutAt: contacts.marketingOptedOutAt })
    .from(contacts)
    .where(and(eq(contacts.tenantId, tenantId), eq(contacts.id, contactId)));
  if (refusesMarketing(category, contact)) throw badRequest(MARKETING_OPTED_OUT);
}
