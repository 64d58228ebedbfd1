import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * One row per domain event a listener has handled (docs/decisions/0011-domain-events.md). The event bus
 * skips an event that already has its receipt, so a listener runs once per event id even if the event
 * reaches it twice; a listener that changes the database records the receipt in its own transaction.
 */
export const eventDeliveries = pgTable(
  'event_deliveries',
  {
    listener: text('listener').notNull(),
    eventId: uuid('event_id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.listener, t.eventId] })],
);
