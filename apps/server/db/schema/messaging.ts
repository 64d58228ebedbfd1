import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { boardColumns, funnels, tenants, users } from './tenancy.ts';

const id = () =>
  uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`);
const tenantId = () =>
  uuid('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** The tenant's WhatsApp connection: Gupshup app name and sender number, and the inbound webhook secret. */
export const providerSettings = pgTable(
  'provider_settings',
  {
    tenantId: uuid('tenant_id')
      .primaryKey()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    appName: text('app_name'),
    sourceNumber: text('source_number'),
    webhookSecret: text('webhook_secret').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // One Gupshup app belongs to one company: the app name picks the app for sends, templates and receipts.
    uniqueIndex('provider_settings_app_name_key').on(sql`lower(${table.appName})`),
  ],
);

export const contacts = pgTable(
  'contacts',
  {
    id: id(),
    tenantId: tenantId(),
    /** Digits with country code, no plus; for a group, the provider's group id. */
    phone: text('phone').notNull(),
    name: text('name'),
    isGroup: boolean('is_group').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('contacts_tenant_phone_key').on(t.tenantId, t.phone)],
);

export const cards = pgTable(
  'cards',
  {
    id: id(),
    tenantId: tenantId(),
    funnelId: uuid('funnel_id')
      .notNull()
      .references(() => funnels.id, { onDelete: 'cascade' }),
    columnId: uuid('column_id')
      .notNull()
      .references(() => boardColumns.id),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** Where the title came from, so a name learnt later replaces only a weaker one and never a rename by hand. */
    titleSource: text('title_source', { enum: ['phone', 'profile', 'file', 'hand'] })
      .notNull()
      .default('phone'),
    description: text('description'),
    phone: text('phone').notNull(),
    isGroup: boolean('is_group').notNull().default(false),
    unreadCount: integer('unread_count').notNull().default(0),
    lastMessageType: text('last_message_type'),
    lastMessageText: text('last_message_text'),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
    contactLastMessageAt: timestamp('contact_last_message_at', { withTimezone: true }),
    aiEnabled: boolean('ai_enabled').notNull().default(false),
    archived: boolean('archived').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('cards_tenant_contact_key').on(t.tenantId, t.contactId), index('cards_column_idx').on(t.tenantId, t.columnId, t.lastActivityAt)],
);

export const messages = pgTable(
  'messages',
  {
    id: id(),
    tenantId: tenantId(),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id, { onDelete: 'cascade' }),
    sender: text('sender', { enum: ['user', 'ai', 'contact'] }).notNull(),
    authorUserId: uuid('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    participantName: text('participant_name'),
    text: text('text'),
    /** text, image, video, audio, sticker, location, document, template, interactive, unsupported */
    type: text('type').notNull(),
    mediaUrl: text('media_url'),
    mediaMime: text('media_mime'),
    mediaFileName: text('media_file_name'),
    /** Gupshup's message id for what we send; the WhatsApp id for what customers send. */
    providerMessageId: text('provider_message_id'),
    whatsappMessageId: text('whatsapp_message_id'),
    tempId: text('temp_id'),
    /** Set when a send attempt starts; an attempt that never recorded an answer must not be resent. */
    dispatchStartedAt: timestamp('dispatch_started_at', { withTimezone: true }),
    ack: integer('ack').notNull().default(0),
    errorReason: text('error_reason'),
    quotedMessageId: uuid('quoted_message_id'),
    quotedMessageText: text('quoted_message_text'),
    quotedMessageSender: text('quoted_message_sender'),
    templateId: uuid('template_id'),
    templateCategory: text('template_category'),
    /** Extra structured content: template buttons, quick-reply options, location, raw unknown payloads. */
    payload: jsonb('payload'),
    /** What a voice note says, once transcribed (issue 15). */
    transcript: text('transcript'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('messages_tenant_provider_id_key').on(t.tenantId, t.providerMessageId),
    index('messages_card_time_idx').on(t.cardId, t.createdAt, t.id),
    index('messages_whatsapp_id_idx').on(t.tenantId, t.whatsappMessageId),
    // The sends that failed, for the WhatsApp activity panel.
    index('messages_failed_idx')
      .on(t.tenantId, t.createdAt)
      .where(sql`ack = -1`),
  ],
);

export const notes = pgTable(
  'notes',
  {
    id: id(),
    tenantId: tenantId(),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id, { onDelete: 'cascade' }),
    authorUserId: uuid('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('notes_card_time_idx').on(t.cardId, t.createdAt)],
);

export const scheduledMessages = pgTable(
  'scheduled_messages',
  {
    id: id(),
    tenantId: tenantId(),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id, { onDelete: 'cascade' }),
    authorUserId: uuid('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }).notNull(),
    text: text('text'),
    templateId: uuid('template_id'),
    variables: jsonb('variables'),
    status: text('status', { enum: ['scheduled', 'sent', 'failed'] })
      .notNull()
      .default('scheduled'),
    sentMessageId: uuid('sent_message_id'),
    errorReason: text('error_reason'),
    createdAt: createdAt(),
  },
  (t) => [index('scheduled_card_idx').on(t.cardId, t.scheduledFor)],
);

/** One row per billable event, priced with the prices in force when it was counted. */
export const usageEvents = pgTable(
  'usage_events',
  {
    id: id(),
    tenantId: tenantId(),
    kind: text('kind', { enum: ['sent', 'received', 'template_marketing', 'template_utility', 'ai'] }).notNull(),
    unitPrice: doublePrecision('unit_price').notNull().default(0),
    messageId: uuid('message_id'),
    createdAt: createdAt(),
    /** Set when the provider reported the accepted send as failed: kept for the record, no longer billed. */
    unbilledAt: timestamp('unbilled_at', { withTimezone: true }),
  },
  (t) => [index('usage_events_month_idx').on(t.tenantId, t.createdAt), uniqueIndex('usage_events_message_kind_key').on(t.messageId, t.kind)],
);

/** Platform-wide settings (pricing, partner credentials), one JSON value per key. */
export const platformSettings = pgTable('platform_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Provider deliveries the webhook refused, kept 7 days so the company and the operator can see what arrived: ones it
 * could not use (malformed JSON, too deep, ids too long…) and ones for an existing company with a wrong secret (a
 * webhook URL copied wrong). A delivery for no company is answered 401 and not recorded.
 */
export const webhookRejections = pgTable(
  'webhook_rejections',
  {
    id: id(),
    tenantId: tenantId(),
    kind: text('kind', { enum: ['malformed', 'wrong_secret'] })
      .notNull()
      .default('malformed'),
    reason: text('reason').notNull(),
    /** The raw body, cut to a few KB and without the NUL bytes and lone surrogates PostgreSQL refuses. */
    rawBody: text('raw_body').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_rejections_tenant_received_idx').on(t.tenantId, t.receivedAt)],
);

/**
 * Webhook deliveries per company and hour, by kind (a customer message, new or repeated; a status; refused for a wrong
 * secret; malformed), with the time of the last one: the WhatsApp activity panel's chart and "last message" times.
 */
export const webhookDeliveryHours = pgTable(
  'webhook_delivery_hours',
  {
    tenantId: tenantId(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    kind: text('kind', { enum: ['message', 'status', 'refused', 'malformed'] }).notNull(),
    deliveries: integer('deliveries').notNull().default(0),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.hour, t.kind] })],
);
