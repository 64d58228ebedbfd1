import { doublePrecision, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy.ts';

const tenantId = () =>
  uuid('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });

/** The platform operator's send rate for a company's WhatsApp number; no row: the provider's documented default. */
export const sendRates = pgTable('send_rates', {
  tenantId: tenantId().primaryKey(),
  messagesPerSecond: doublePrecision('messages_per_second').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The token bucket of one sending number (docs/decisions/0017): every process takes its tokens from this row in
 * one locking statement, so the rate holds however many workers send. `current_rate` is below the configured one
 * while the provider answers "too many requests" and climbs back after quiet periods.
 */
export const sendBuckets = pgTable(
  'send_buckets',
  {
    tenantId: tenantId(),
    /** The provider and its number (`meta:<phone number id>`, `gupshup:<source number>`). */
    sendingNumber: text('sending_number').notNull(),
    currentRate: doublePrecision('current_rate').notNull(),
    tokens: doublePrecision('tokens').notNull(),
    refilledAt: timestamp('refilled_at', { withTimezone: true }).notNull(),
    /** Since when the current rate holds: the quiet period before the next increase counts from here. */
    rateChangedAt: timestamp('rate_changed_at', { withTimezone: true }).notNull(),
    /** The last halving, so the many refusals of one burst halve the rate once. */
    slowedAt: timestamp('slowed_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.sendingNumber] })],
);
