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
