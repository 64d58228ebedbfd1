import { bigserial, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * The sandbox phone's side of each conversation (what the customer's WhatsApp shows), kept by the
 * in-process fake Gupshup so the phone shows the same history as the CRM after a restart. Keyed by
 * the Gupshup app, as the fake knows no companies; each conversation keeps only its newest messages.
 */
export const sandboxPhoneMessages = pgTable('sandbox_phone_messages', {
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
}, (table) => [
  uniqueIndex('sandbox_phone_messages_message_id_key').on(table.messageId),
  index('sandbox_phone_messages_conversation_idx').on(table.appName, table.conversation, table.seq),
]);
