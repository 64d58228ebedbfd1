import { addDays, startOfDay, wallClockOf, weekdayIndex } from '@embudo/contracts/time/wall-clock';

/**
 * The agenda's calendar arithmetic, all in the tenant's time zone: which days a view shows, its
 * title, where an appointment sits in a day lane and which time a click means (spec 02 §2, §9).
 */
export type AgendaView = 'day' | 'week' | 'month';

export const MINUTES_PER_DAY = 24 * 60;
/** 1 px per minute: 60 px per hour, 1440 px per day. */
export const PIXELS_PER_MINUTE = 1;
export const DAY_HEIGHT_PX = MINUTES_PER_DAY * PIXELS_PER_MINUTE;
export const SCROLL_TO_HOUR = 8;
export const MONTH_CELLS = 42;
/** A click picks the quarter hour it falls in. */
export const CLICK_STEP_MINUTES = 15;
export const WEEKDAY_HEADERS = ['Lun', 'Mar', 'Mié', 'Jue', 'Vie', 'Sáb', 'Dom'] as const;
export const CLOCK_REFRESH_MS = 60_000;

export const todayIn = (timezone: string, now = new Date()) => wallClockOf(now, timezone).date;

export const startOfWeek = (date: string) => addDays(date, -weekdayIndex(date));
const firstOfMonth = (date: string) => `${date.slice(0, 8)}01`;

function lastOfMonth(date: string) {
  const [year, month] = date.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
}

/** Six weeks from the Monday on or before the 1st: every month fits, always 42 cells. */
export function monthGrid(date: string): string[] {
  const first = startOfWeek(firstOfMonth(date));
  return Array.from({ length: MONTH_CELLS }, (_, index) => addDays(first, index));
}

/** The days the view lays out: one, Monday to Sunday, or the 42 cells of the month grid. */
export function visibleDays(view: AgendaView, anchor: string): string[] {
  if (view === 'day') return [anchor];
  if (view === 'week') return Array.from({ length: 7 }, (_, index) => addDays(startOfWeek(anchor), index));
  return monthGrid(anchor);
}

/** The days the title names and an export covers: for a month, the 1st to its last day. */
export function titleDays(view: AgendaView, anchor: string): { first: string; last: string } {
  if (view === 'month') return { first: firstOfMonth(anchor), last: lastOfMonth(anchor) };
  const days = visibleDays(view, anchor);
  return { first: days[0]!, last: days.at(-1)! };
}

/** The instants to ask the server for: from the first day's midnight to the midnight after the last day. */
export function instantRange(days: { first: string; last: string }, timezone: string) {
  return { start: startOfDay(days.first, timezone).toISOString(), end: startOfDay(addDays(days.last, 1), timezone).toISOString() };
}

/** Previous / next: a day, a week or a month (to its 1st, so 31 January never skips February). */
export function stepAnchor(view: AgendaView, anchor: string, direction: -1 | 1): string {
  if (view === 'day') return addDays(anchor, direction);
  if (view === 'week') return addDays(anchor, 7 * direction);
  const [year, month] = anchor.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month - 1 + direction, 1)).toISOString().slice(0, 10);
}

const asUtcDate = (date: string) => new Date(`${date}T00:00:00Z`);
const format = (date: string, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('es', { timeZone: 'UTC', ...options }).format(asUtcDate(date));
const capitalised = (text: string) => text.charAt(0).toLocaleUpperCase('es') + text.slice(1);

/** "Lunes, 4 de marzo de 2030", "4 – 10 de marzo de 2030", "25 de febrero – 3 de marzo de 2030", "Marzo de 2030". */
export function rangeTitle(view: AgendaView, anchor: string): string {
  if (view === 'day') return capitalised(format(anchor, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }));
  if (view === 'month') return capitalised(format(anchor, { month: 'long', year: 'numeric' }));
  const { first, last } = titleDays(view, anchor);
  const end = format(last, { day: 'numeric', month: 'long', year: 'numeric' });
  if (first.slice(0, 4) !== last.slice(0, 4)) return `${format(first, { day: 'numeric', month: 'long', year: 'numeric' })} – ${end}`;
  if (first.slice(0, 7) !== last.slice(0, 7)) return `${format(first, { day: 'numeric', month: 'long' })} – ${end}`;
  return `${format(first, { day: 'numeric' })} – ${end}`;
}

/** "Lun 4" above a day column. */
export const dayHeader = (date: string) => `${WEEKDAY_HEADERS[weekdayIndex(date)]} ${Number(date.slice(8))}`;

/** "4 de marzo" for labels that name a date. */
export const longDate = (date: string) => format(date, { day: 'numeric', month: 'long' });

/**
 * The time a click in a day lane means: its share of the lane's height over 24 hours, down to the
 * quarter hour, never past the last quarter of the day.
 */
export function minutesAtOffset(offsetY: number, laneHeight: number): number {
  if (laneHeight <= 0) return 0;
  const raw = Math.floor((offsetY / laneHeight) * MINUTES_PER_DAY);
  const snapped = Math.floor(raw / CLICK_STEP_MINUTES) * CLICK_STEP_MINUTES;
  return Math.min(Math.max(snapped, 0), MINUTES_PER_DAY - CLICK_STEP_MINUTES);
}

/** Default length of a new appointment or block, kept inside its day (the dialogs book one date). */
export function defaultEndMinutes(startMinutes: number, lengthMinutes: number): number {
  return Math.min(startMinutes + lengthMinutes, MINUTES_PER_DAY - 1);
}

/** Where a span sits in a day lane, in minutes from the top; null when it does not touch the day. */
export function spanInDay(span: { startTime: string; endTime: string }, date: string, timezone: string): { top: number; height: number } | null {
  const dayStart = startOfDay(date, timezone).getTime();
  const dayEnd = startOfDay(addDays(date, 1), timezone).getTime();
  const start = Date.parse(span.startTime);
  const end = Date.parse(span.endTime);
  if (end <= dayStart || start >= dayEnd) return null;
  const top = start <= dayStart ? 0 : wallClockOf(new Date(start), timezone).minutes;
  const bottom = end >= dayEnd ? MINUTES_PER_DAY : wallClockOf(new Date(end), timezone).minutes;
  return { top, height: Math.max(bottom - top, 0) };
}

/** The minute of the day the red current-time line marks, when today is one of the shown days. */
export function nowLine(days: string[], timezone: string, now: Date): { date: string; minutes: number } | null {
  const clock = wallClockOf(now, timezone);
  return days.includes(clock.date) ? clock : null;
}

export const isSameMonth = (date: string, anchor: string) => date.slice(0, 7) === anchor.slice(0, 7);

/** 'YYYY-MM-DD' strings order like the dates they name. */
export const isWithin = (date: string, days: { first: string; last: string }) => days.first <= date && date <= days.last;
