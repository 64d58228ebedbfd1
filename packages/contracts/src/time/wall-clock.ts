/**
 * Wall-clock arithmetic in an IANA time zone with Intl only, so the server (availability, day
 * boundaries of a range) and the browser (where an appointment sits in the agenda) agree.
 * A calendar date is a 'YYYY-MM-DD' string; a time of day is minutes since midnight.
 */

const MINUTE_MS = 60_000;
const DATE_KEY = /^(\d{4})-(\d{2})-(\d{2})$/;
const CLOCK_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's canonical spelling ('america/bogota' → 'America/Bogota'); throws for an unknown zone. */
export function canonicalTimeZone(timeZone: string): string {
  return formatterFor(timeZone).resolvedOptions().timeZone;
}

export interface WallClock {
  /** 'YYYY-MM-DD' */
  date: string;
  /** Minutes since midnight, 0–1439. */
  minutes: number;
}

function partsOf(instant: Date, timeZone: string) {
  const values: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') values[part.type] = Number(part.value);
  }
  return { year: values.year!, month: values.month!, day: values.day!, hour: values.hour!, minute: values.minute!, second: values.second! };
}

/** The date and time of day an instant shows on a clock in the zone. */
export function wallClockOf(instant: Date, timeZone: string): WallClock {
  const parts = partsOf(instant, timeZone);
  return { date: dateKey(parts.year, parts.month, parts.day), minutes: parts.hour * 60 + parts.minute };
}

/** Minutes the zone is ahead of UTC at that instant. */
function offsetMinutes(instant: Date, timeZone: string): number {
  const parts = partsOf(instant, timeZone);
  const asUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / MINUTE_MS);
}

/** The instant as ISO-8601 with the zone's offset ("2030-03-04T09:00:00-06:00"): what a clock there shows, unambiguous. */
export function localIsoString(instant: Date, timeZone: string): string {
  const { date, minutes } = wallClockOf(instant, timeZone);
  const offset = offsetMinutes(instant, timeZone);
  const pad = (value: number) => String(Math.floor(Math.abs(value))).padStart(2, '0');
  const sign = offset < 0 ? '-' : '+';
  return `${date}T${pad(minutes / 60)}:${pad(minutes % 60)}:00${sign}${pad(offset / 60)}:${pad(offset % 60)}`;
}

/**
 * The instant a clock in the zone shows `minutes` after midnight of `date` (minutes may run past
 * one day). In a spring-forward gap the clock time does not exist; the instant found is the one
 * just after the gap, as booking tools do.
 */
export function instantAt(date: string, minutes: number, timeZone: string): Date {
  const { year, month, day } = parseDateKey(date);
  const wall = Date.UTC(year, month - 1, day, 0, minutes);
  const firstGuess = wall - offsetMinutes(new Date(wall), timeZone) * MINUTE_MS;
  const offsetThere = offsetMinutes(new Date(firstGuess), timeZone);
  return new Date(wall - offsetThere * MINUTE_MS);
}

/** Midnight that starts `date` in the zone. */
export function startOfDay(date: string, timeZone: string): Date {
  return instantAt(date, 0, timeZone);
}

function dateKey(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function parseDateKey(date: string) {
  const match = DATE_KEY.exec(date);
  if (!match) throw new RangeError(`Not a calendar date: ${date}`);
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}

/** A real calendar date written 'YYYY-MM-DD' (2025-02-30 is not). */
export function isDateKey(value: string): boolean {
  const match = DATE_KEY.exec(value);
  if (!match) return false;
  const probe = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return probe.toISOString().slice(0, 10) === value;
}

export function addDays(date: string, days: number): string {
  const { year, month, day } = parseDateKey(date);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** 0 = Monday … 6 = Sunday: the agenda's weeks start on Monday. */
export function weekdayIndex(date: string): number {
  const { year, month, day } = parseDateKey(date);
  return (new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7;
}

export function isClockTime(value: string): boolean {
  return CLOCK_TIME.test(value);
}

/** '09:30' → 570 */
export function clockTimeToMinutes(value: string): number {
  const match = CLOCK_TIME.exec(value);
  if (!match) throw new RangeError(`Not a time of day: ${value}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/** 570 → '09:30'; 1440 (the end of a day) → '24:00'. */
export function minutesToClockTime(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
