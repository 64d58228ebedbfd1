import { and, asc, eq, gt, lt, ne } from 'drizzle-orm';
import type { z } from 'zod';
import {
  APPOINTMENT_NOT_FOUND,
  END_AFTER_START,
  SERVICE_NOT_OFFERED,
  TIME_BLOCK_NOT_FOUND,
  type AppointmentDto,
  type appointmentRequest,
  type AppointmentUpdateRequest,
  type TimeBlockDto,
  type timeBlockRequest,
  type TimeBlockUpdateRequest,
} from '@embudo/contracts/http/agenda';
import { instantAt, isDateKey, minutesToClockTime, wallClockOf } from '@embudo/contracts/time/wall-clock';
import { agendaServices, appointments, professionals, timeBlocks } from '../../../db/schema/index.ts';
import type { DbExecutor, Tx } from '../../platform/db/database.ts';
import { badRequest, conflict, notFound } from '../../platform/errors/app-error.ts';
import { requireWriter } from '../../platform/policy/policy.ts';
import { findProfessional, findService, offersService, roundCents, type ProfessionalRow, type ServiceRow } from './agenda-catalog.service.ts';
import type { AgendaScope } from './agenda-scope.ts';

type AppointmentRow = typeof appointments.$inferSelect;
/** What the booking checks need: the tenant and its time zone, whoever books. */
type BookingScope = Pick<AgendaScope, 'db' | 'tenantId' | 'timezone'>;
type TimeBlockRow = typeof timeBlocks.$inferSelect;
type AppointmentInput = z.output<typeof appointmentRequest>;
type TimeBlockInput = z.output<typeof timeBlockRequest>;

/** Half-open: what starts before `end` and ends after `start` falls in it. */
export interface InstantRange {
  start: Date;
  end: Date;
}

const HAS_OFFSET = /(z|[+-]\d{2}(:?\d{2})?)$/i;
const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?$/;

/** An ISO date-time with an offset is that instant; without one it is a wall-clock time in the tenant's zone. */
export function instantFrom(value: string, timezone: string): Date {
  if (HAS_OFFSET.test(value)) return new Date(value);
  const match = LOCAL_DATE_TIME.exec(value);
  if (!match || !isDateKey(match[1]!)) throw badRequest(`Fecha y hora inválidas: ${value}.`);
  const [, date, hours, minutes, seconds = '0', fraction = '0'] = match;
  const milliseconds = Number(seconds) * 1000 + Math.round(Number(`0.${fraction}`) * 1000);
  return new Date(instantAt(date!, Number(hours) * 60 + Number(minutes), timezone).getTime() + milliseconds);
}

function assertEndAfterStart(start: Date, end: Date) {
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) throw badRequest('Fecha y hora inválidas.');
  if (end.getTime() <= start.getTime()) throw badRequest(END_AFTER_START);
}

/** "10:00 a 11:00", with the date when the span is on another day than the one being booked. */
function describeSpan(start: Date, end: Date, timezone: string, bookedDate: string) {
  const at = (instant: Date) => {
    const clock = wallClockOf(instant, timezone);
    const time = minutesToClockTime(clock.minutes);
    return clock.date === bookedDate ? time : `${clock.date.split('-').reverse().join('/')} ${time}`;
  };
  return `${at(start)} a ${at(end)}`;
}

const overlapping = <T extends typeof appointments | typeof timeBlocks>(table: T, range: InstantRange) =>
  and(lt(table.startTime, range.end), gt(table.endTime, range.start));

function toAppointmentDto(row: AppointmentRow, professional: Pick<ProfessionalRow, 'color' | 'name'>, service: Pick<ServiceRow, 'name'>): AppointmentDto {
  return {
    id: row.id,
    clientName: row.clientName,
    clientWhatsapp: row.clientWhatsapp,
    professionalId: row.professionalId,
    serviceId: row.serviceId,
    startTime: row.startTime.toISOString(),
    endTime: row.endTime.toISOString(),
    cost: Number(row.cost),
    professionalColor: professional.color,
    professionalName: professional.name,
    serviceName: service.name,
  };
}

function toTimeBlockDto(row: TimeBlockRow): TimeBlockDto {
  return {
    id: row.id,
    professionalId: row.professionalId,
    startTime: row.startTime.toISOString(),
    endTime: row.endTime.toISOString(),
    isAvailable: row.isAvailable,
    reason: row.reason,
  };
}

/** Appointments that overlap the range, earliest first, optionally of one professional. */
export async function listAppointments(executor: DbExecutor, tenantId: string, range: InstantRange, professionalId?: string): Promise<AppointmentDto[]> {
  const rows = await executor
    .select({ appointment: appointments, professional: { color: professionals.color, name: professionals.name }, service: { name: agendaServices.name } })
    .from(appointments)
    .innerJoin(professionals, eq(professionals.id, appointments.professionalId))
    .innerJoin(agendaServices, eq(agendaServices.id, appointments.serviceId))
    .where(
      and(eq(appointments.tenantId, tenantId), overlapping(appointments, range), professionalId ? eq(appointments.professionalId, professionalId) : undefined),
    )
    .orderBy(asc(appointments.startTime), asc(appointments.id));
  return rows.map((row) => toAppointmentDto(row.appointment, row.professional, row.service));
}

export async function listTimeBlocks(executor: DbExecutor, tenantId: string, range: InstantRange, professionalId?: string): Promise<TimeBlockDto[]> {
  const rows = await executor
    .select()
    .from(timeBlocks)
    .where(and(eq(timeBlocks.tenantId, tenantId), overlapping(timeBlocks, range), professionalId ? eq(timeBlocks.professionalId, professionalId) : undefined))
    .orderBy(asc(timeBlocks.startTime), asc(timeBlocks.id));
  return rows.map(toTimeBlockDto);
}

/** Runs with the professional's row locked, so two bookings of one professional cannot both pass the checks. */
async function refuseAppointmentClash(tx: Tx, scope: BookingScope, professional: ProfessionalRow, range: InstantRange, exceptAppointmentId?: string) {
  const bookedDate = wallClockOf(range.start, scope.timezone).date;
  const [clash] = await tx
    .select()
    .from(appointments)
    .where(
      and(
        eq(appointments.tenantId, scope.tenantId),
        eq(appointments.professionalId, professional.id),
        overlapping(appointments, range),
        exceptAppointmentId ? ne(appointments.id, exceptAppointmentId) : undefined,
      ),
    )
    .orderBy(asc(appointments.startTime))
    .limit(1);
  if (clash) {
    throw conflict(
      `${professional.name} ya tiene una cita de ${describeSpan(clash.startTime, clash.endTime, scope.timezone, bookedDate)} (${clash.clientName}). Elige otro horario.`,
    );
  }
}

async function refuseBlockedTime(tx: Tx, scope: BookingScope, professional: ProfessionalRow, range: InstantRange) {
  const bookedDate = wallClockOf(range.start, scope.timezone).date;
  const [block] = await tx
    .select()
    .from(timeBlocks)
    .where(
      and(
        eq(timeBlocks.tenantId, scope.tenantId),
        eq(timeBlocks.professionalId, professional.id),
        eq(timeBlocks.isAvailable, false),
        overlapping(timeBlocks, range),
      ),
    )
    .orderBy(asc(timeBlocks.startTime))
    .limit(1);
  if (block) {
    const reason = block.reason ? ` (${block.reason})` : '';
    throw conflict(
      `El horario de ${professional.name} está bloqueado de ${describeSpan(block.startTime, block.endTime, scope.timezone, bookedDate)}${reason}. Elige otro horario.`,
    );
  }
}

interface AppointmentDraft {
  clientName: string;
  clientWhatsapp: string;
  professionalId: string;
  serviceId: string;
  start: Date;
  end: Date;
  /** undefined: the service's cost. */
  cost: number | undefined;
}

/** The checks every new or changed appointment passes, inside one transaction with the professional locked. */
async function checkedAppointment(tx: Tx, scope: BookingScope, draft: AppointmentDraft, exceptAppointmentId?: string) {
  assertEndAfterStart(draft.start, draft.end);
  const professional = await findProfessional(tx, scope.tenantId, draft.professionalId, { lock: true });
  const service = await findService(tx, scope.tenantId, draft.serviceId, { lock: true });
  if (!(await offersService(tx, scope.tenantId, professional.id, service.id))) throw badRequest(SERVICE_NOT_OFFERED);
  const range = { start: draft.start, end: draft.end };
  await refuseAppointmentClash(tx, scope, professional, range, exceptAppointmentId);
  await refuseBlockedTime(tx, scope, professional, range);
  const values = {
    clientName: draft.clientName,
    clientWhatsapp: draft.clientWhatsapp,
    professionalId: professional.id,
    serviceId: service.id,
    startTime: draft.start,
    endTime: draft.end,
    cost: roundCents(draft.cost ?? Number(service.cost)),
  };
  return { professional, service, values };
}

export async function createAppointment(scope: AgendaScope, input: AppointmentInput): Promise<AppointmentDto> {
  requireWriter(scope.actor);
  return insertAppointment(scope, {
    clientName: input.clientName,
    clientWhatsapp: input.clientWhatsapp ?? '',
    professionalId: input.professionalId,
    serviceId: input.serviceId,
    start: instantFrom(input.startTime, scope.timezone),
    end: instantFrom(input.endTime, scope.timezone),
    cost: input.cost ?? undefined,
  });
}

function insertAppointment(
  scope: BookingScope,
  draft: AppointmentDraft,
  alsoInTransaction?: (tx: Tx, appointment: AppointmentDto) => Promise<void>,
): Promise<AppointmentDto> {
  return scope.db.transaction(async (tx) => {
    const { professional, service, values } = await checkedAppointment(tx, scope, draft);
    const [row] = await tx
      .insert(appointments)
      .values({ tenantId: scope.tenantId, ...values })
      .returning();
    const appointment = toAppointmentDto(row!, professional, service);
    await alsoInTransaction?.(tx, appointment);
    return appointment;
  });
}

/**
 * A booking the customer made themselves (a bot's schedule node, the AI's book_appointment): the same checks as the
 * Agenda's — the professional offers the service, no overlap with their appointments or blocked time — with the
 * customer as client. Refusals are the Agenda's AppErrors (409 clash, 400 service not offered). `alsoInTransaction`
 * commits with the booking (the AI's ledger records what to undo).
 */
export function bookForCustomer(
  scope: BookingScope,
  input: Omit<AppointmentDraft, 'cost'>,
  alsoInTransaction?: (tx: Tx, appointment: AppointmentDto) => Promise<void>,
): Promise<AppointmentDto> {
  return insertAppointment(scope, { ...input, cost: undefined }, alsoInTransaction);
}

/**
 * Takes back a booking the customer's side made (the AI's answer that booked it was dropped), unless a person changed
 * it since: then it is theirs. Answers whether it was removed.
 */
export async function withdrawCustomerBooking(executor: DbExecutor, tenantId: string, appointmentId: string): Promise<boolean> {
  const removed = await executor
    .delete(appointments)
    .where(and(eq(appointments.tenantId, tenantId), eq(appointments.id, appointmentId), eq(appointments.updatedAt, appointments.createdAt)))
    .returning({ id: appointments.id });
  return removed.length > 0;
}

async function findAppointment(executor: DbExecutor, tenantId: string, appointmentId: string) {
  const [row] = await executor
    .select()
    .from(appointments)
    .where(and(eq(appointments.tenantId, tenantId), eq(appointments.id, appointmentId)))
    .limit(1);
  if (!row) throw notFound(APPOINTMENT_NOT_FOUND);
  return row;
}

export async function updateAppointment(scope: AgendaScope, appointmentId: string, changes: AppointmentUpdateRequest): Promise<AppointmentDto> {
  requireWriter(scope.actor);
  return scope.db.transaction(async (tx) => {
    const current = await findAppointment(tx, scope.tenantId, appointmentId);
    const serviceChanged = changes.serviceId !== undefined && changes.serviceId !== current.serviceId;
    const draft: AppointmentDraft = {
      clientName: changes.clientName ?? current.clientName,
      clientWhatsapp: changes.clientWhatsapp === undefined ? current.clientWhatsapp : (changes.clientWhatsapp ?? ''),
      professionalId: changes.professionalId ?? current.professionalId,
      serviceId: changes.serviceId ?? current.serviceId,
      start: changes.startTime ? instantFrom(changes.startTime, scope.timezone) : current.startTime,
      end: changes.endTime ? instantFrom(changes.endTime, scope.timezone) : current.endTime,
      // A new service without a cost of its own takes the service's; otherwise the cost stays.
      cost: changes.cost ?? (serviceChanged ? undefined : Number(current.cost)),
    };
    const { professional, service, values } = await checkedAppointment(tx, scope, draft, current.id);
    const [row] = await tx
      .update(appointments)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(appointments.tenantId, scope.tenantId), eq(appointments.id, current.id)))
      .returning();
    return toAppointmentDto(row!, professional, service);
  });
}

export async function deleteAppointment(scope: AgendaScope, appointmentId: string) {
  requireWriter(scope.actor);
  const deleted = await scope.db
    .delete(appointments)
    .where(and(eq(appointments.tenantId, scope.tenantId), eq(appointments.id, appointmentId)))
    .returning({ id: appointments.id });
  if (deleted.length === 0) throw notFound(APPOINTMENT_NOT_FOUND);
}

interface TimeBlockDraft {
  professionalId: string;
  start: Date;
  end: Date;
  isAvailable: boolean;
  reason: string;
}

/** Blocking time that already holds an appointment is refused: the appointment would silently stand in a block. */
async function checkedTimeBlock(tx: Tx, scope: AgendaScope, draft: TimeBlockDraft) {
  assertEndAfterStart(draft.start, draft.end);
  const professional = await findProfessional(tx, scope.tenantId, draft.professionalId, { lock: true });
  if (!draft.isAvailable) {
    const bookedDate = wallClockOf(draft.start, scope.timezone).date;
    const [clash] = await tx
      .select()
      .from(appointments)
      .where(and(eq(appointments.tenantId, scope.tenantId), eq(appointments.professionalId, professional.id), overlapping(appointments, draft)))
      .orderBy(asc(appointments.startTime))
      .limit(1);
    if (clash) {
      throw conflict(
        `${professional.name} tiene una cita de ${describeSpan(clash.startTime, clash.endTime, scope.timezone, bookedDate)} (${clash.clientName}) en ese horario. Muévela o elimínala antes de bloquearlo.`,
      );
    }
  }
  return { professionalId: professional.id, startTime: draft.start, endTime: draft.end, isAvailable: draft.isAvailable, reason: draft.reason };
}

export async function createTimeBlock(scope: AgendaScope, input: TimeBlockInput): Promise<TimeBlockDto> {
  requireWriter(scope.actor);
  const draft: TimeBlockDraft = {
    professionalId: input.professionalId,
    start: instantFrom(input.startTime, scope.timezone),
    end: instantFrom(input.endTime, scope.timezone),
    isAvailable: input.isAvailable,
    reason: input.reason ?? '',
  };
  return scope.db.transaction(async (tx) => {
    const values = await checkedTimeBlock(tx, scope, draft);
    const [row] = await tx
      .insert(timeBlocks)
      .values({ tenantId: scope.tenantId, ...values })
      .returning();
    return toTimeBlockDto(row!);
  });
}

export async function updateTimeBlock(scope: AgendaScope, timeBlockId: string, changes: TimeBlockUpdateRequest): Promise<TimeBlockDto> {
  requireWriter(scope.actor);
  return scope.db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(timeBlocks)
      .where(and(eq(timeBlocks.tenantId, scope.tenantId), eq(timeBlocks.id, timeBlockId)))
      .limit(1);
    if (!current) throw notFound(TIME_BLOCK_NOT_FOUND);
    const values = await checkedTimeBlock(tx, scope, {
      professionalId: changes.professionalId ?? current.professionalId,
      start: changes.startTime ? instantFrom(changes.startTime, scope.timezone) : current.startTime,
      end: changes.endTime ? instantFrom(changes.endTime, scope.timezone) : current.endTime,
      isAvailable: changes.isAvailable ?? current.isAvailable,
      reason: changes.reason === undefined ? current.reason : (changes.reason ?? ''),
    });
    const [row] = await tx
      .update(timeBlocks)
      .set(values)
      .where(and(eq(timeBlocks.tenantId, scope.tenantId), eq(timeBlocks.id, current.id)))
      .returning();
    return toTimeBlockDto(row!);
  });
}

export async function deleteTimeBlock(scope: AgendaScope, timeBlockId: string) {
  requireWriter(scope.actor);
  const deleted = await scope.db
    .delete(timeBlocks)
    .where(and(eq(timeBlocks.tenantId, scope.tenantId), eq(timeBlocks.id, timeBlockId)))
    .returning({ id: timeBlocks.id });
  if (deleted.length === 0) throw notFound(TIME_BLOCK_NOT_FOUND);
}
