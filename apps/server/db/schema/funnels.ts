import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { boardColumns, tenants } from './tenancy.ts';
import { messageTemplates } from './templates.ts';

const id = () =>
  uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`);
const tenantId = () =>
  uuid('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Canned answers an agent picks from the chat footer; they belong to a column (spec 01 §3 Quick reply). */
export const quickReplies = pgTable(
  'quick_replies',
  {
    id: id(),
    tenantId: tenantId(),
    columnId: uuid('column_id')
      .notNull()
      .references(() => boardColumns.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('quick_replies_column_idx').on(t.tenantId, t.columnId, t.createdAt)],
);

/** Templates assigned to a column (column settings, tab Plantillas). */
export const columnTemplates = pgTable(
  'column_templates',
  {
    id: id(),
    tenantId: tenantId(),
    columnId: uuid('column_id')
      .notNull()
      .references(() => boardColumns.id, { onDelete: 'cascade' }),
    templateId: uuid('template_id')
      .notNull()
      .references(() => messageTemplates.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('column_templates_column_template_key').on(t.columnId, t.templateId)],
);
