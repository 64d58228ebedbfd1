import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, real, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { cards } from './messaging.ts';
import { tenants } from './tenancy.ts';

/**
 * Every use of the AI model (issue 15): what answered, how many tokens, how long, which tools it called. The month's
 * AI answers and tokens on Mi Consumo come from here; the cost is billed as a usage event of kind `ai`.
 */
export const aiUsage = pgTable(
  'ai_usage',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    cardId: uuid('card_id'),
    /** answer: the column assistant; copilot: a suggested reply or summary; transcript: a voice note; flow: a bot's aiPrompt node. */
    kind: text('kind', { enum: ['answer', 'copilot', 'transcript', 'flow'] }).notNull(),
    model: text('model').notNull(),
    inputTokens: integer('input_tokens').notNull(),
    outputTokens: integer('output_tokens').notNull(),
    latencyMs: integer('latency_ms').notNull(),
    toolCalls: jsonb('tool_calls').notNull().default([]),
    /** The customer message an assistant answer answered: one answer per message, however often the job ran. */
    answeredMessageId: uuid('answered_message_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ai_usage_month_idx').on(t.tenantId, t.createdAt), uniqueIndex('ai_usage_answered_message_key').on(t.answeredMessageId)],
);

/**
 * A column assistant's knowledge file as it was read (issue 44): its whole text, which goes into the assistant's
 * context as it is when the column's files fit the knowledge budget, and where its indexing stands for the dialog
 * (indexing while its passages get their vectors, indexed, or error with the reason). One per company and path.
 */
export const knowledgeFiles = pgTable(
  'knowledge_files',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    filePath: text('file_path').notNull(),
    fileName: text('file_name').notNull(),
    text: text('text').notNull(),
    passages: integer('passages').notNull(),
    state: text('state', { enum: ['indexing', 'indexed', 'error'] }).notNull(),
    error: text('error'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.filePath] })],
);

/**
 * A knowledge file's passages (overlapping), found by the customer's words (docs/decisions/0030): `terms` are the
 * passage's word features (folded stems and word starts) for the lexical half, `embedding` its vector from the
 * embedding model named in `embedding_model` for the vector half (null until the indexing job made it). Looked up by
 * the file paths the column's config names, always within one company.
 */
export const knowledgeChunks = pgTable(
  'knowledge_chunks',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    filePath: text('file_path').notNull(),
    fileName: text('file_name').notNull(),
    position: integer('position').notNull(),
    text: text('text').notNull(),
    terms: text('terms')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    embedding: real('embedding').array(),
    embeddingModel: text('embedding_model'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('knowledge_chunks_file_idx').on(t.tenantId, t.filePath), index('knowledge_chunks_terms_idx').using('gin', t.terms)],
);

/**
 * The tool calls of a column-assistant answer, by (answered message, call index): a retried or re-run answer gets a
 * call it already made back with its recorded outcome instead of acting twice, and an answer that is dropped takes
 * what it did with it (docs/decisions/0028). `effect` says how to undo the call (a booking, a scheduled message, a
 * move) and is written in the transaction that made it.
 */
export const aiToolCalls = pgTable(
  'ai_tool_calls',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id, { onDelete: 'cascade' }),
    /** The customer message the answer answers: one answer job per message, however often it runs. */
    answerMessageId: uuid('answer_message_id').notNull(),
    callIndex: integer('call_index').notNull(),
    toolName: text('tool_name').notNull(),
    argsHash: text('args_hash').notNull(),
    /** running: under way (or its process died); done: its outcome is recorded; dropped: no longer part of the answer, its effect undone. */
    state: text('state', { enum: ['running', 'done', 'dropped'] }).notNull(),
    outcome: jsonb('outcome'),
    effect: jsonb('effect'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.answerMessageId, t.callIndex] }), index('ai_tool_calls_card_idx').on(t.cardId)],
);
