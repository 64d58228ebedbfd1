import { defaultAvailability, SERVICE_NOT_OFFERED, weekdays, withAvailability, type AvailabilityResponse } from '@embudo/contracts/http/agenda';
import { addDays, clockTimeToMinutes, instantAt, minutesToClockTime, startOfDay, wallClockOf, weekdayIndex } from '@embudo/contracts/time/wall-clock';
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

const toInterval = (span: { startTime: string; endTime: string }): Interval => ({ start: Date.parse(span.startTime), end: Date.parse(span.endTime) });

/**
 * The free start times of one day (a date in the tenant's time zone) for a professional and one of
 * their services: the weekday's hours plus time blocks that open time, minus blocked time and
 * existing appointments, each start leaving room for the whole service. For the agenda, bots and
 * the AI tool alike.
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
  const weekly = withAvailability(defaultAvailability(), professional.availability)[weekdays[weekdayIndex(input.date)]!];
  const open: Interval[] = weekly.enabled
    ? [
        {
          start: instantAt(input.date, clockTimeToMinutes(weekly.startTime), timezone).getTime(),
          end: instantAt(input.date, clockTimeToMinutes(weekly.endTime), timezone).getTime(),
        },
      ]
    : [];
  const blocks = await listTimeBlocks(executor, tenantId, day, professional.id);
  for (const block of blocks.filter((entry) => entry.isAvailable)) {
    const span = toInterval(block);
    open.push({ start: Math.max(span.start, day.start.getTime()), end: Math.min(span.end, day.end.getTime()) });
  }
  const busy = [
    ...blocks.filter((entry) => !entry.isAvailable).map(toInterval),
    ...(await listAppointments(executor, tenantId, day, professional.id)).map(toInterval),
  ];

  const durationMs = service.durationMinutes * MINUTE_MS;
  const starts = freeSlotStarts({ open, busy, durationMs, stepMs: Math.min(service.durationMinutes, SLOT_STEP_MINUTES) * MINUTE_MS, notBefore: now.getTime() });
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
