import { addDays, isDateKey, startOfDay, wallClockOf, weekdayIndex } from '@embudo/contracts/time/wall-clock';
import type { AgendaData, AgendaSettings, ContactSearchResult } from '@embudo/contracts/http/agenda';
import { badRequest } from '../../platform/errors/app-error.ts';
import { requireOwner } from '../../platform/policy/policy.ts';
import { searchChatContacts } from '../funnels/index.ts';
import { updateTenantTimezone } from '../tenants/index.ts';
import { listProfessionals, listServices } from './agenda-catalog.service.ts';
import { instantFrom, listAppointments, listTimeBlocks, type InstantRange } from './bookings.service.ts';
import type { AgendaScope } from './agenda-scope.ts';

/** A year and a little: a month view spans 42 days, an export at most a year. */
export const MAX_RANGE_DAYS = 400;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A bare date is a whole day of the tenant's calendar: start is its midnight, end the midnight after
 * it, so start=2030-03-04&end=2030-03-10 is that week with both ends included.
 */
export function rangeFrom(query: { start?: string; end?: string }, timezone: string, now = new Date()): InstantRange {
  if (query.start === undefined || query.end === undefined) return currentWeek(timezone, now);
  const start = isDateKey(query.start) ? startOfDay(query.start, timezone) : instantFrom(query.start, timezone);
  const end = isDateKey(query.end) ? startOfDay(addDays(query.end, 1), timezone) : instantFrom(query.end, timezone);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) throw badRequest('Fecha inválida en el rango.');
  if (end.getTime() <= start.getTime()) throw badRequest('El fin del rango debe ser posterior al inicio.');
  if (end.getTime() - start.getTime() > MAX_RANGE_DAYS * DAY_MS) throw badRequest(`El rango no puede superar ${MAX_RANGE_DAYS} días.`);
  return { start, end };
}

/** Monday to Sunday around `now` on the company's calendar. */
function currentWeek(timezone: string, now: Date): InstantRange {
  const today = wallClockOf(now, timezone).date;
  const monday = addDays(today, -weekdayIndex(today));
  return { start: startOfDay(monday, timezone), end: startOfDay(addDays(monday, 7), timezone) };
}

/** Every professional and service, and the appointments and time blocks that overlap the range. */
export async function agendaData(scope: AgendaScope, query: { start?: string; end?: string }): Promise<AgendaData> {
  const range = rangeFrom(query, scope.timezone);
  const [professionals, services, appointments, timeBlocks] = await Promise.all([
    listProfessionals(scope.db, scope.tenantId),
    listServices(scope.db, scope.tenantId),
    listAppointments(scope.db, scope.tenantId, range),
    listTimeBlocks(scope.db, scope.tenantId, range),
  ]);
  return { professionals, services, appointments, timeBlocks };
}

export function agendaSettings(scope: AgendaScope): AgendaSettings {
  return { timezone: scope.timezone };
}

/** Only the owner moves the company's clock: every day boundary and free time follows it. */
export async function updateAgendaSettings(scope: AgendaScope, settings: AgendaSettings): Promise<AgendaSettings> {
  requireOwner(scope.actor);
  return { timezone: await updateTenantTimezone(scope.db, scope.tenantId, settings.timezone) };
}

/** The tenant's chat contacts by name or phone, from the funnels the user may see. */
export async function searchContacts(scope: AgendaScope, query: string): Promise<ContactSearchResult[]> {
  return searchChatContacts(scope.db, scope.tenantId, scope.actor, query);
}
