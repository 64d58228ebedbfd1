import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { BotConfig } from '@embudo/contracts/flows/flow';
import { tenants } from './tenancy.ts';
import { cards } from './messaging.ts';

/** A Bots Studio bot (spec 02 §3 Bot): its flow is the config the editor saves. */
export const bots = pgTable(
  'bots',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type', { enum: ['scheduling', 'billing'] }).notNull(),
    config: jsonb('config').$type<BotConfig>().notNull().default({ nodes: [], edges: [] }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('bots_tenant_idx').on(t.tenantId, t.createdAt)],
);

/** Where a run of a flow stands, between two customer messages or until a timer fires. */
export interface FlowRunState {
  status: 'idle' | 'waiting_input' | 'waiting_timer' | 'ended' | 'human';
  /** The node waiting for the answer (options) or for its timer. */
  nodeId: string | null;
  variables: Record<string, string>;
}

/**
 * One conversation with a bot: a playground test (kind simulation, the editor's unsaved flow is sent
 * with every message) or a live chat (kind live, one per card, running the bot of the card's column).
 */
export const botSessions = pgTable(
  'bot_sessions',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['simulation', 'live'] }).notNull(),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    cardId: uuid('card_id').references(() => cards.id, { onDelete: 'cascade' }),
    state: jsonb('state').$type<FlowRunState>().notNull(),
    /** Grows with every saved step, so two runs that started from the same state cannot both save. */
    revision: integer('revision').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bot_sessions_card_key')
      .on(t.tenantId, t.cardId)
      .where(sql`card_id is not null`),
    index('bot_sessions_updated_idx').on(t.kind, t.updatedAt),
  ],
);
