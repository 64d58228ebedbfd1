import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** The counts of some of a batch's rows, as the dashboard adds them up. */
export interface RowCounts {
  total: number;
  sent: number;
  delivered: number;
  read: number;
  replied: number;
  failed: number;
  unsettled: number;
  accepted: number;
  pending: number;
}

/** A slice's counts, recounted from its rows: with the failed rows' reasons, so the batch's most frequent one is known. */
export interface SliceCounts extends RowCounts {
  /** Failed rows by reason (rows failed without one are not in it). */
  reasons: Record<string, number>;
}

/** Rows of the file per slice of a batch's counts: slice k holds the rows numbered [k·size, (k+1)·size). */
export const ROWS_PER_COUNT_SLICE = 1_000;
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
 * One bulk send of an approved template to the rows of an Excel file (spec 02 §3 Batch). Status and counts are
 * counted from the rows' messages, so they follow what WhatsApp reported; the last counts are kept per slice of rows
 * (`batchCountSlices`) until something moves them.
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
  },
  (t) => [index('batches_tenant_time_idx').on(t.tenantId, t.createdAt)],
);

/**
 * The dashboard's counts of a batch, kept per slice of its rows (ROWS_PER_COUNT_SLICE) and recounted from the rows
 * only when they may have moved (issue 16, decisions 0021 and 0022): `changes` grows in every transaction that moves
 * a row of the slice, and `counts` keeps the last recount with the `changes` it was made at and when. A batch has a
 * slice for every thousand of its file's rows from its upload on.
 */
export const batchCountSlices = pgTable(
  'batch_count_slices',
  {
    batchId: uuid('batch_id')
      .notNull()
      .references(() => batches.id, { onDelete: 'cascade' }),
    slice: integer('slice').notNull(),
    changes: bigint('changes', { mode: 'number' }).notNull().default(0),
    counts: jsonb('counts').$type<SliceCounts>(),
    countedChanges: bigint('counted_changes', { mode: 'number' }),
    countedAt: timestamp('counted_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.slice] })],
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
