import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** A batch's counts as the dashboard shows them, recounted from its rows. */
export interface BatchCounts {
  total: number;
  sent: number;
  delivered: number;
  read: number;
  replied: number;
  failed: number;
  unsettled: number;
  accepted: number;
  pending: number;
  failureReason: string | null;
}
import { boardColumns, funnels, tenants, users } from './tenancy.ts';
import { messageTemplates } from './templates.ts';
import { cards, messages } from './messaging.ts';

const id = () =>
  uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`);
const tenantId = () =>
  uuid('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });

/**
 * One bulk send of an approved template to the rows of an Excel file (spec 02 §3 Batch). Status and counts
 * are not stored: they are read from the rows' messages, so they can never drift from what WhatsApp reported.
 */
export const batches = pgTable(
  'batches',
  {
    id: id(),
    tenantId: tenantId(),
    funnelId: uuid('funnel_id')
      .notNull()
      .references(() => funnels.id, { onDelete: 'cascade' }),
    targetColumnId: uuid('target_column_id').references(() => boardColumns.id, { onDelete: 'set null' }),
    templateId: uuid('template_id').references(() => messageTemplates.id, { onDelete: 'set null' }),
    /** Kept as sent, so the dashboard still names a template deleted later. */
    templateName: text('template_name').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: text('user_name').notNull(),
    fileName: text('file_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The dashboard's counts are recounted from the rows only when they may have moved (issue 16): `changes` grows
     * after every change that moves them (the process that made it, once committed), and `counts` keeps the last
     * recount with the `changes` it was made at and when.
     */
    changes: bigint('changes', { mode: 'number' }).notNull().default(0),
    counts: jsonb('counts').$type<BatchCounts>(),
    countedChanges: bigint('counted_changes', { mode: 'number' }),
    countedAt: timestamp('counted_at', { withTimezone: true }),
  },
  (t) => [index('batches_tenant_time_idx').on(t.tenantId, t.createdAt)],
);

/**
 * One row of the file. A valid row is `pending` until its chunk job stores its message (then `queued`, in the
 * same transaction), which is what keeps a row from being sent twice. Refused rows are `failed` with a reason.
 */
export const batchRecipients = pgTable(
  'batch_recipients',
  {
    id: id(),
    tenantId: tenantId(),
    batchId: uuid('batch_id')
      .notNull()
      .references(() => batches.id, { onDelete: 'cascade' }),
    /** The row's number in the sheet, for reasons people can find in their file. */
    rowNumber: integer('row_number').notNull(),
    /** Order among the rows to send (0, 1, 2…): chunk k of the batch sends positions [k·size, (k+1)·size). Null for refused rows. */
    position: integer('position'),
    phone: text('phone'),
    /** The contact's name from the file's name column, when the wizard named one: it titles the contact's new chat. */
    contactName: text('contact_name'),
    /** The template's variables for this row, by number. */
    variables: jsonb('variables').$type<Record<string, string>>().notNull().default({}),
    status: text('status', { enum: ['pending', 'queued', 'failed'] }).notNull(),
    errorReason: text('error_reason'),
    cardId: uuid('card_id').references(() => cards.id, { onDelete: 'set null' }),
    messageId: uuid('message_id').references(() => messages.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('batch_recipients_batch_row_key').on(t.batchId, t.rowNumber),
    // A phone repeated in the file is sent once.
    uniqueIndex('batch_recipients_batch_phone_key').on(t.batchId, t.phone),
    index('batch_recipients_batch_position_idx').on(t.batchId, t.position),
    uniqueIndex('batch_recipients_message_key').on(t.messageId),
    index('batch_recipients_card_idx').on(t.tenantId, t.cardId),
  ],
);
