import { sql } from 'drizzle-orm';
import { jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { TemplateButton, TemplateHeader, VariablesSchema } from '@embudo/contracts/http/templates';
import { tenants } from './tenancy.ts';

/** A WhatsApp message template and its review state at the provider (spec 02 §3). */
export const messageTemplates = pgTable(
  'message_templates',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    category: text('category', { enum: ['UTILITY', 'MARKETING', 'AUTHENTICATION'] }).notNull(),
    languageCode: text('language_code', { enum: ['es', 'en_US', 'pt_BR'] }).notNull(),
    header: jsonb('header').$type<TemplateHeader | null>(),
    bodyText: text('body_text').notNull(),
    footer: text('footer'),
    buttons: jsonb('buttons').$type<TemplateButton[]>().notNull().default([]),
    status: text('status', { enum: ['PENDING', 'APPROVED', 'REJECTED', 'PAUSED', 'FAILED'] })
      .notNull()
      .default('PENDING'),
    rejectionReason: text('rejection_reason'),
    /**
     * Set when the platform operator rejected the template: a platform block, with the reason the company sees,
     * that no sync with the provider lifts; only the operator's approval clears it.
     */
    operatorRejectionReason: text('operator_rejection_reason'),
    /** Gupshup's template id (the one a template send names), not Meta's. */
    providerTemplateId: text('provider_template_id'),
    variablesSchema: jsonb('variables_schema').$type<VariablesSchema>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('message_templates_tenant_name_language_key').on(t.tenantId, t.name, t.languageCode)],
);
