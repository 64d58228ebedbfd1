import { and, eq, gt, inArray, lt } from 'drizzle-orm';
import {
  type Availability,
  defaultAvailability,
  SERVICE_NOT_OFFERED,
  weekdays,
  withAvailability,
  type AvailabilityResponse,
} from '@embudo/contracts/http/agenda';
import { addDays, clockTimeToMinutes, instantAt, minutesToClockTime, startOfDay, wallClockOf, weekdayIndex } from '@embudo/contracts/time/wall-clock';
import { appointments, timeBlocks } from '../../../db/schema/index.ts';
import type { DbExecutor } from '../../platform/db/database.ts';
import { badRequest, notFound } from '../../platform/errors/app-error.ts';
import { findTenantById } from '../tenants/index.ts';
import { findProfessional, findService, offersService } from './agenda-catalog.service.ts';
import { listAppointments, listTimeBlocks } from './bookings.service.ts';

/** Free start times are offered every 30 minutes, or every service length when that is shorter. */
export const SLOT_STEP_MINUTES = 30;
const MINUTE_MS = 60_000;

interface Interval {
  start: number;
  end: number;
}

function mergeIntervals(intervals: Interval[]): Interval[] {
  const merged: Interval[] = [];
  for (const interval of [...intervals].sort((a, b) => a.start - b.start)) {
    const last = merged.at(-1);
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else merged.push({ ...interval });
  }
  return merged;
}

/**
 * Start times on a grid from the start of each open window where the whole service fits inside the
 * window, touches nothing busy and has not already begun.
 */
export function freeSlotStarts(input: { open: Interval[]; busy: Interval[]; durationMs: number; stepMs: number; notBefore: number }): number[] {
  const starts: number[] = [];
  for (const window of mergeIntervals(input.open)) {
    for (let start = window.start; start + input.durationMs <= window.end; start += input.stepMs) {
      const end = start + input.durationMs;
      if (start < input.notBefore) continue;
      if (input.busy.some((busy) => busy.start < end && busy.end > start)) continue;
      starts.push(start);
    }
  }
  return starts;
}

const toInterval = (span: { startTime: string | Date; endTime: string | Date }): Interval => ({
  start: new Date(span.startTime).getTime(),
  end: new Date(span.endTime).getTime(),
});

/** What one professional's day is made of: weekly hours, time blocks that open or close time, appointments. */
interface DayOfWork {
  date: string;
  timezone: string;
  availability: Availability;
  blocks: ReadonlyArray<{ startTime: string | Date; endTime: string | Date; isAvailable: boolean }>;
  appointments: ReadonlyArray<{ startTime: string | Date; endTime: string | Date }>;
  durationMinutes: number;
  now: Date;
}

/**
 * The free start times of one day: the weekday's hours plus time blocks that open time, minus blocked time and
 * existing appointments, each start leaving room for the whole service. Pure: the reads are the caller's.
 */
function freeStartsOfDay(day: DayOfWork): number[] {
  const bounds = { start: startOfDay(day.date, day.timezone).getTime(), end: startOfDay(addDays(day.date, 1), day.timezone).getTime() };
  const weekly = day.availability[weekdays[weekdayIndex(day.date)]!];
  const open: Interval[] = weekly.enabled
    ? [
        {
          start: instantAt(day.date, clockTimeToMinutes(weekly.startTime), day.timezone).getTime(),
          end: instantAt(day.date, clockTimeToMinutes(weekly.endTime), day.timezone).getTime(),
        },
      ]
    : [];
  for (const block of day.blocks.filter((entry) => entry.isAvailable)) {
    const span = toInterval(block);
    if (span.end <= bounds.start || span.start >= bounds.end) continue;
    open.push({ start: Math.max(span.start, bounds.start), end: Math.min(span.end, bounds.end) });
  }
  const busy = [...day.blocks.filter((entry) => !entry.isAvailable).map(toInterval), ...day.appointments.map(toInterval)];
  const durationMs = day.durationMinutes * MINUTE_MS;
  return freeSlotStarts({ open, busy, durationMs, stepMs: Math.min(day.durationMinutes, SLOT_STEP_MINUTES) * MINUTE_MS, notBefore: day.now.getTime() });
}

/**
 * The free start times of one day (a date in the tenant's time zone) for a professional and one of
 * their services: the weekday's hours plus time blocks that open time, minus blocked time and
 * existing appointments, each start leaving room for the whole service. For the agenda and bots.
 */
export async function freeStartTimes(
  executor: DbExecutor,
  tenantId: string,
  input: { professionalId: string; serviceId: string; date: string },
  now = new Date(),
): Promise<AvailabilityResponse> {
  const tenant = await findTenantById(executor, tenantId);
  if (!tenant) throw notFound();
  const timezone = tenant.timezone;
  const professional = await findProfessional(executor, tenantId, input.professionalId);
  const service = await findService(executor, tenantId, input.serviceId);
  if (!(await offersService(executor, tenantId, professional.id, service.id))) throw badRequest(SERVICE_NOT_OFFERED);

  const day = { start: startOfDay(input.date, timezone), end: startOfDay(addDays(input.date, 1), timezone) };
  const starts = freeStartsOfDay({
    date: input.date,
    timezone,
    availability: withAvailability(defaultAvailability(), professional.availability),
    blocks: await listTimeBlocks(executor, tenantId, day, professional.id),
    appointments: await listAppointments(executor, tenantId, day, professional.id),
    durationMinutes: service.durationMinutes,
    now,
  });
  const durationMs = service.durationMinutes * MINUTE_MS;
  return {
    date: input.date,
    timezone,
    professionalId: professional.id,
    serviceId: service.id,
    duration: service.durationMinutes,
    slots: starts.map((start) => ({
      startTime: new Date(start).toISOString(),
      endTime: new Date(start + durationMs).toISOString(),
      time: minutesToClockTime(wallClockOf(new Date(start), timezone).minutes),
    })),
  };
}

/** One professional's free start time on one day, as an instant. */
export interface FreeStart {
  professionalId: string;
  date: string;
  start: Date;
  end: Date;
}

/**
 * Free start times of one service over several days and professionals (the AI's find_free_slots looks a week ahead):
 * their blocks and appointments over the whole range are read in two statements, whatever the number of days and
 * professionals, and each day is computed in memory as `freeStartTimes` computes it. Earliest first.
 */
export async function freeStartsOver(
  executor: DbExecutor,
  tenantId: string,
  input: {
    professionals: ReadonlyArray<{ id: string; availability: Availability }>;
    durationMinutes: number;
    dates: readonly string[];
    timezone: string;
  },
  now = new Date(),
): Promise<FreeStart[]> {
  const ids = input.professionals.map((professional) => professional.id);
  const dates = [...input.dates].sort();
  if (ids.length === 0 || dates.length === 0) return [];
  const range = { start: startOfDay(dates[0]!, input.timezone), end: startOfDay(addDays(dates.at(-1)!, 1), input.timezone) };
  const ofTheseProfessionals = (table: typeof appointments | typeof timeBlocks) =>
    and(eq(table.tenantId, tenantId), inArray(table.professionalId, ids), lt(table.startTime, range.end), gt(table.endTime, range.start));
  const blocks = await executor
    .select({ professionalId: timeBlocks.professionalId, startTime: timeBlocks.startTime, endTime: timeBlocks.endTime, isAvailable: timeBlocks.isAvailable })
    .from(timeBlocks)
    .where(ofTheseProfessionals(timeBlocks));
  const booked = await executor
    .select({ professionalId: appointments.professionalId, startTime: appointments.startTime, endTime: appointments.endTime })
    .from(appointments)
    .where(ofTheseProfessionals(appointments));
  const durationMs = input.durationMinutes * MINUTE_MS;
  const free: FreeStart[] = [];
  for (const professional of input.professionals) {
    const ownBlocks = blocks.filter((block) => block.professionalId === professional.id);
    const ownAppointments = booked.filter((appointment) => appointment.professionalId === professional.id);
    for (const date of dates) {
      const starts = freeStartsOfDay({
        date,
        timezone: input.timezone,
        availability: withAvailability(defaultAvailability(), professional.availability),
        blocks: ownBlocks,
        appointments: ownAppointments,
        durationMinutes: input.durationMinutes,
        now,
      });
      for (const start of starts) free.push({ professionalId: professional.id, date, start: new Date(start), end: new Date(start + durationMs) });
    }
  }
  return free.sort((a, b) => a.start.getTime() - b.start.getTime());
}
