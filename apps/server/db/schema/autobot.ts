import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { boardColumns, tenants } from './tenancy.ts';
import { cards } from './messaging.ts';

/** The menu auto-bot of a tenant (spec 01 §3 Bot settings): one row per tenant. */
export const autobotSettings = pgTable('autobot_settings', {
  tenantId: uuid('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  message: text('message').notNull().default(''),
  /** The waiting room: new chats land here and the bot only ever answers chats in it. */
  triggerColumnId: uuid('trigger_column_id').references(() => boardColumns.id, { onDelete: 'set null' }),
  /** Menu options, in order; ids of deleted columns are dropped when read. */
  menuColumnIds: jsonb('menu_column_ids').$type<string[]>().notNull().default([]),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export interface AutobotMenuOption {
  columnId: string;
  title: string;
}

/** Where the bot stands with one chat: greet on the next message, waiting for a choice, or done. */
export const autobotConversations = pgTable(
  'autobot_conversations',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id, { onDelete: 'cascade' }),
    state: text('state', { enum: ['greet_next', 'awaiting_choice', 'done'] }).notNull(),
    /** Replies that matched no option; the menu is repeated once, then the chat is left to a person. */
    invalidReplies: integer('invalid_replies').notNull().default(0),
    /** The options as the contact saw them, so a later settings change does not reinterpret "2". */
    options: jsonb('options').$type<AutobotMenuOption[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('autobot_conversations_card_key').on(t.tenantId, t.cardId)],
);
