import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea } from './columns.ts';

/**
 * The sandbox phone's side of each conversation (what the customer's WhatsApp shows), kept by the
 * in-process fake Gupshup so the phone shows the same history as the CRM after a restart. Keyed by
 * the Gupshup app, as the fake knows no companies; each conversation keeps only its newest messages.
 */
export const sandboxPhoneMessages = pgTable(
  'sandbox_phone_messages',
  {
    /** Arrival order inside a conversation. */
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    /** Gupshup's message id (to the customer) or the WhatsApp id (from the customer). */
    messageId: text('message_id').notNull(),
    /** The WhatsApp id a business message gets (what a quote of it names). */
    whatsappId: text('whatsapp_id'),
    appName: text('app_name').notNull(),
    /** The customer's phone, or the group's id. */
    conversation: text('conversation').notNull(),
    direction: text('direction').notNull(),
    type: text('type').notNull(),
    body: jsonb('body').notNull(),
    status: text('status').notNull(),
    participant: jsonb('participant'),
    template: jsonb('template'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('sandbox_phone_messages_message_id_key').on(table.messageId),
    index('sandbox_phone_messages_conversation_idx').on(table.appName, table.conversation, table.seq),
  ],
);

/**
 * The files a customer sent from the sandbox phone, served by the in-process fake Gupshup under its
 * `/files/{id}` URLs, so older media still opens after a restart. The total size is capped: the
 * oldest uploads are dropped first.
 */
export const sandboxPhoneUploads = pgTable(
  'sandbox_phone_uploads',
  {
    /** Upload order, for dropping the oldest first. */
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    /** The id in the file's URL. */
    uploadId: text('upload_id').notNull(),
    contentType: text('content_type').notNull(),
    fileName: text('file_name'),
    data: bytea('data').notNull(),
    /** Bytes of `data`, so the cap is summed without reading the files. */
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('sandbox_phone_uploads_upload_id_key').on(table.uploadId)],
);

/**
 * The templates the sandbox's fakes hold (Gupshup's per app, Meta's per WABA) with their review state, so an
 * approved template still sends after a restart and a review under way still finishes. The fake keeps a copy in
 * memory for its sends; every change is written here first.
 */
export const sandboxFakeTemplates = pgTable(
  'sandbox_fake_templates',
  {
    /** Creation order, the order the fake lists them in. */
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    /** `gupshup` or `meta`. */
    fake: text('fake').notNull(),
    /** The Gupshup app or the Meta WABA that holds the template. */
    owner: text('owner').notNull(),
    templateId: text('template_id').notNull(),
    /** The template as the fake lists it, status and reason included. */
    template: jsonb('template').notNull(),
    /** When the fake's review decides it; null once decided. */
    reviewDueAt: timestamp('review_due_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('sandbox_fake_templates_template_key').on(table.fake, table.templateId)],
);

/**
 * The statuses the fakes still owe for the messages they took (Gupshup's enqueued → sent → delivered → read, Meta's
 * sent → delivered → read or failed), each with when it is due. A row is deleted as its status is sent, so a status
 * is never sent twice, and what remains is sent after a restart, late ones at once, in order per message.
 */
export const sandboxFakeStatuses = pgTable(
  'sandbox_fake_statuses',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    fake: text('fake').notNull(),
    /** The fake's id of the message (the sandbox phone's). */
    messageId: text('message_id').notNull(),
    /** Order inside the message's chain. */
    step: integer('step').notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    /** What the fake needs to send it (whose callback, which status, its payload). */
    status: jsonb('status').notNull(),
  },
  (table) => [uniqueIndex('sandbox_fake_statuses_step_key').on(table.fake, table.messageId, table.step)],
);
