import { addDays, instantAt, isDateKey, isValidTimeZone, minutesToClockTime, wallClockOf, weekdayIndex } from '@embudo/contracts/time/wall-clock';
import { fold } from '../../knowledge/spanish-words.ts';

/**
 * Days and times as the sandbox model reads and writes them in Spanish: "mañana a las 10", "el lunes por la tarde",
 * "miércoles 25 de noviembre a las 10:30". Dates are the company's calendar dates ('YYYY-MM-DD'), times are minutes
 * after its midnight, so what the customer says compares with the agenda's wall-clock slots directly.
 */

/** Sunday first, as Date#getUTCDay counts. */
const WEEKDAYS = ['domingo', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado'];
const MONTHS = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];
const FOLDED_WEEKDAYS = ['domingo', 'lunes', 'martes', 'miercoles', 'jueves', 'viernes', 'sabado'];
const MONTH_PATTERN = MONTHS.join('|');

export interface CompanyClock {
  today: string;
  timeZone: string;
  now: Date;
}

/**
 * The company's date, zone and time as the instructions state them ("Zona horaria: America/Bogota. Fecha y hora
 * actual: 2026-11-24T10:00:00"): the server wrote them from its clock, which is the one its tools check against.
 * Without them (a bot's own prompt), the process clock in UTC.
 */
export function companyClock(instructions: string, processNow = new Date()): CompanyClock {
  const zone = /Zona horaria: ([\w+-]+(?:\/[\w+-]+)*)/.exec(instructions)?.[1];
  const timeZone = zone && isValidTimeZone(zone) ? zone : 'UTC';
  const stated = /Fecha y hora actual: (\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(instructions);
  if (!stated || !isDateKey(stated[1]!)) return { timeZone, today: wallClockOf(processNow, timeZone).date, now: processNow };
  const minutes = Number(stated[2]) * 60 + Number(stated[3]);
  const now = new Date(instantAt(stated[1]!, minutes, timeZone).getTime() + Number(stated[4] ?? 0) * 1000);
  return { timeZone, today: stated[1]!, now };
}

export type DayPeriod = 'manana' | 'tarde' | 'noche';
const PERIOD_MINUTES: Record<DayPeriod, [number, number]> = { manana: [0, 12 * 60], tarde: [12 * 60, 19 * 60], noche: [19 * 60, 24 * 60] };

export function inPeriod(minutes: number, period: DayPeriod): boolean {
  const [from, to] = PERIOD_MINUTES[period];
  return minutes >= from && minutes < to;
}

/** What the customer's words say about when: a date, a time of day (and the hour as said, before reading it as p.m.), a part of the day. */
export interface Wanted {
  date?: string;
  minutes?: number;
  /** "a las 5" is read as 17:00; 05:00 is kept to match a slot that really starts then. */
  saidMinutes?: number;
  period?: DayPeriod;
}

export const saysWhen = (wanted: Wanted) => wanted.date !== undefined || wanted.minutes !== undefined || wanted.period !== undefined;

export function timeMatches(wanted: Wanted, minutes: number): boolean {
  return wanted.minutes === minutes || wanted.saidMinutes === minutes;
}

const PERIOD_PHRASE = /\b(?:por|en|de|a) la (manana|tarde|noche)\b|\besta (manana|tarde|noche)\b/g;

/** Reads folded words ("quiero una cita manana a las 10") against the company's today. */
export function readWhen(folded: string, today: string): Wanted {
  const wanted: Wanted = {};
  const phrases = [...folded.matchAll(PERIOD_PHRASE)];
  const period = phrases.map((match) => match[1] ?? match[2]).at(-1) as DayPeriod | undefined;
  if (period) wanted.period = period;
  // "por la mañana" is a part of the day; only the "mañana" left once those are out means tomorrow.
  const rest = folded.replace(PERIOD_PHRASE, ' ');
  const date = dateIn(rest, today) ?? (phrases.some((match) => match[2]) ? today : undefined);
  if (date) wanted.date = date;
  const time = timeIn(folded);
  if (time) Object.assign(wanted, time);
  return wanted;
}

function dateIn(text: string, today: string): string | undefined {
  const [year, month, day] = today.split('-').map(Number) as [number, number, number];
  const named = new RegExp(`\\b(\\d{1,2}) de (${MONTH_PATTERN})\\b`).exec(text);
  if (named) return upcoming(year, MONTHS.indexOf(named[2]!) + 1, Number(named[1]), today);
  const numeric = /\b(\d{1,2})\/(\d{1,2})\b/.exec(text);
  if (numeric) return upcoming(year, Number(numeric[2]), Number(numeric[1]), today);
  const dayOfMonth = /\b(?:el|dia) (?:(?:lunes|martes|miercoles|jueves|viernes|sabado|domingo) )?(\d{1,2})\b(?!\s*(?::|hs?\b|am\b|pm\b|horas\b))/.exec(text);
  if (dayOfMonth) {
    const wantedDay = Number(dayOfMonth[1]);
    return wantedDay >= day ? validDate(year, month, wantedDay) : validDate(month === 12 ? year + 1 : year, (month % 12) + 1, wantedDay);
  }
  const weekday = /\b(lunes|martes|miercoles|jueves|viernes|sabado|domingo)\b/.exec(text);
  if (weekday) {
    const sundayBased = (weekdayIndex(today) + 1) % 7;
    // "el lunes" said on a Monday is next week's.
    const ahead = (FOLDED_WEEKDAYS.indexOf(weekday[1]!) - sundayBased + 7) % 7 || 7;
    return addDays(today, ahead);
  }
  if (/\bpasado manana\b/.test(text)) return addDays(today, 2);
  if (/\bmanana\b/.test(text)) return addDays(today, 1);
  if (/\bhoy\b/.test(text)) return today;
  return undefined;
}

function validDate(year: number, month: number, day: number): string | undefined {
  const date = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return isDateKey(date) ? date : undefined;
}

/** A day and month without a year: this year's, or next year's once this year's has passed. */
function upcoming(year: number, month: number, day: number, today: string): string | undefined {
  const date = validDate(year, month, day);
  return date && date < today ? validDate(year + 1, month, day) : date;
}

const TIME_PATTERNS = [
  /\blas? (\d{1,2})(?:[:.](\d{2}))?(?!\d)(?:\s*(am|pm|a\.m\.|p\.m\.|hs|horas|h)\b)?(?: de la (manana|tarde|noche))?/,
  /\b(\d{1,2}):(\d{2})(?!\d)(?:\s*(am|pm)\b)?()/,
  /\b(\d{1,2})()\s*(am|pm|hs)\b()/,
];

function timeIn(text: string): Pick<Wanted, 'minutes' | 'saidMinutes'> | undefined {
  for (const pattern of TIME_PATTERNS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const hour = Number(match[1]);
    const minute = match[2] ? Number(match[2]) : 0;
    if (hour > 23 || minute > 59) continue;
    const marker = `${match[3] ?? ''} ${match[4] ?? ''}`;
    const afternoon = /p\.?m|tarde|noche/.test(marker);
    const morning = /a\.?m|manana/.test(marker);
    // Without a.m. or p.m., 1 to 7 is the afternoon: few businesses open at five in the morning.
    const hour24 = hour < 12 && (afternoon || (!morning && hour >= 1 && hour <= 7)) ? hour + 12 : hour;
    return { minutes: hour24 * 60 + minute, saidMinutes: hour * 60 + minute };
  }
  return undefined;
}

/** "martes 25 de noviembre" */
export function readableDay(date: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return `${WEEKDAYS[new Date(Date.UTC(year, month - 1, day)).getUTCDay()]} ${day} de ${MONTHS[month - 1]}`;
}

/** "martes 25 de noviembre a las 10:30" */
export function readableDayAndTime(date: string, minutes: number): string {
  return `${readableDay(date)} a las ${minutesToClockTime(minutes)}`;
}

/** "martes 25 de noviembre a las 10:30": an ISO time with offset is already the company's wall-clock time. */
export function readableLocalTime(iso: string): string {
  const clock = wallClockIn(iso);
  return clock ? readableDayAndTime(clock.date, clock.minutes) : iso;
}

/** The company's date and time an agenda slot's ISO start shows ("2026-11-25T10:30:00-03:00" → 2026-11-25, 630). */
export function wallClockIn(iso: string): { date: string; minutes: number } | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})/.exec(iso);
  return match ? { date: match[1]!, minutes: Number(match[2]) * 60 + Number(match[3]) } : undefined;
}

const READABLE = new RegExp(`\\b(?:${FOLDED_WEEKDAYS.join('|')}) (\\d{1,2}) de (${MONTH_PATTERN}) a las (\\d{1,2}):(\\d{2})`, 'g');

/** Every "miércoles 25 de noviembre a las 10:30" in a text (the sandbox's own wording of a slot), in order. */
export function readableTimesIn(text: string, today: string): Array<{ date: string; minutes: number }> {
  const year = Number(today.slice(0, 4));
  return [...fold(text).matchAll(READABLE)].flatMap((match) => {
    const date = upcoming(year, MONTHS.indexOf(match[2]!) + 1, Number(match[1]), today);
    return date ? [{ date, minutes: Number(match[3]) * 60 + Number(match[4]) }] : [];
  });
}
