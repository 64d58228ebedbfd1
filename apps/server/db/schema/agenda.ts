import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { professionalColors, type Availability } from '@embudo/contracts/http/agenda';
import { tenants } from './tenancy.ts';

const id = () =>
  uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`);
const tenantId = () =>
  uuid('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const money = (name: string) => numeric(name, { precision: 12, scale: 2, mode: 'number' }).notNull().default(0);

/** Spec 02 §3: who gives appointments, with a colour and a weekly availability in the tenant's time zone. */
export const professionals = pgTable(
  'professionals',
  {
    id: id(),
    tenantId: tenantId(),
    name: text('name').notNull(),
    color: text('color', { enum: professionalColors }).notNull(),
    availability: jsonb('availability').$type<Availability>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('professionals_tenant_idx').on(t.tenantId, t.createdAt)],
);

export const agendaServices = pgTable(
  'agenda_services',
  {
    id: id(),
    tenantId: tenantId(),
    name: text('name').notNull(),
    durationMinutes: integer('duration_minutes').notNull().default(30),
    cost: money('cost'),
    createdAt: createdAt(),
  },
  (t) => [index('agenda_services_tenant_idx').on(t.tenantId, t.createdAt)],
);

/** A professional's serviceIds; the foreign keys drop a link when either side is deleted. */
export const professionalServices = pgTable(
  'professional_services',
  {
    tenantId: tenantId(),
    professionalId: uuid('professional_id')
      .notNull()
      .references(() => professionals.id, { onDelete: 'cascade' }),
    serviceId: uuid('service_id')
      .notNull()
      .references(() => agendaServices.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.professionalId, t.serviceId] }), index('professional_services_service_idx').on(t.serviceId)],
);

/**
 * Deleting a professional or service with future appointments is refused until the caller says to
 * delete them (agenda service); the cascade only runs after that decision.
 */
export const appointments = pgTable(
  'appointments',
  {
    id: id(),
    tenantId: tenantId(),
    professionalId: uuid('professional_id')
      .notNull()
      .references(() => professionals.id, { onDelete: 'cascade' }),
    serviceId: uuid('service_id')
      .notNull()
      .references(() => agendaServices.id, { onDelete: 'cascade' }),
    clientName: text('client_name').notNull(),
    /** Digits with country code, or empty. */
    clientWhatsapp: text('client_whatsapp').notNull().default(''),
    startTime: timestamp('start_time', { withTimezone: true }).notNull(),
    endTime: timestamp('end_time', { withTimezone: true }).notNull(),
    cost: money('cost'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('appointments_range_idx').on(t.tenantId, t.startTime),
    index('appointments_professional_idx').on(t.professionalId, t.startTime),
    index('appointments_service_idx').on(t.serviceId, t.startTime),
    check('appointments_end_after_start', sql`${t.endTime} > ${t.startTime}`),
  ],
);

export const timeBlocks = pgTable(
  'time_blocks',
  {
    id: id(),
    tenantId: tenantId(),
    professionalId: uuid('professional_id')
      .notNull()
      .references(() => professionals.id, { onDelete: 'cascade' }),
    startTime: timestamp('start_time', { withTimezone: true }).notNull(),
    endTime: timestamp('end_time', { withTimezone: true }).notNull(),
    /** false blocks the time; true adds availability outside the weekly hours. */
    isAvailable: boolean('is_available').notNull().default(false),
    reason: text('reason').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('time_blocks_range_idx').on(t.tenantId, t.startTime),
    index('time_blocks_professional_idx').on(t.professionalId, t.startTime),
    check('time_blocks_end_after_start', sql`${t.endTime} > ${t.startTime}`),
  ],
);
