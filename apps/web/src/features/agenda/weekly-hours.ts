import { weekdays, type Availability, type AppointmentDto, type DayAvailability } from '@embudo/contracts/http/agenda';
import { clockTimeToMinutes, isClockTime, minutesToClockTime, wallClockOf, weekdayIndex } from '@embudo/contracts/time/wall-clock';

const DAY_NAMES = ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'] as const;

type Staff = { name: string; availability: Availability };

const hoursOf = (day: DayAvailability) => `${day.startTime}–${day.endTime}`;

/** "lunes, miércoles y viernes"; three or more days in a row read "lunes a viernes". */
function dayList(indexes: number[]): string {
  const runs: string[] = [];
  for (let at = 0; at < indexes.length;) {
    let end = at;
    while (end + 1 < indexes.length && indexes[end + 1] === indexes[end]! + 1) end += 1;
    if (end - at >= 2) runs.push(`${DAY_NAMES[indexes[at]!]} a ${DAY_NAMES[indexes[end]!]}`);
    else for (let index = at; index <= end; index++) runs.push(DAY_NAMES[indexes[index]!]!);
    at = end + 1;
  }
  return runs.length > 1 ? `${runs.slice(0, -1).join(', ')} y ${runs.at(-1)}` : (runs[0] ?? '');
}

/** A professional's week as people say it: "lunes a viernes 09:00–17:00, sábado 10:00–14:00". */
export function weeklyHoursLabel(availability: Availability): string {
  const groups = new Map<string, number[]>();
  weekdays.forEach((weekday, index) => {
    const day = availability[weekday];
    if (day.enabled) groups.set(hoursOf(day), [...(groups.get(hoursOf(day)) ?? []), index]);
  });
  if (groups.size === 0) return 'sin horario semanal';
  return [...groups].map(([hours, indexes]) => `${dayList(indexes)} ${hours}`).join(', ');
}

/** Whether a booking on this date, between these clock times of the company's calendar, fits the professional's weekly hours. */
export function fitsWeeklyHours(availability: Availability, booking: { date: string; startTime: string; endTime: string }): boolean {
  if (!isClockTime(booking.startTime) || !isClockTime(booking.endTime) || !/^\d{4}-\d{2}-\d{2}$/.test(booking.date)) return true;
  const day = availability[weekdays[weekdayIndex(booking.date)]!];
  return (
    day.enabled &&
    clockTimeToMinutes(booking.startTime) >= clockTimeToMinutes(day.startTime) &&
    clockTimeToMinutes(booking.endTime) <= clockTimeToMinutes(day.endTime)
  );
}

/**
 * The warning for a booking outside the professional's weekly hours, or null when it fits. Such bookings
 * are still saved (businesses book exceptions); people are only told.
 */
export function outsideHoursWarning(professional: Staff, booking: { date: string; startTime: string; endTime: string }): string | null {
  return fitsWeeklyHours(professional.availability, booking) ? null : warningFor(professional);
}

const warningFor = (professional: Staff) => `Fuera del horario de ${professional.name}: ${weeklyHoursLabel(professional.availability)}`;

/** The same warning for a saved appointment, read in the company's time zone. */
export function appointmentOutsideHours(appointment: AppointmentDto, professional: Staff | undefined, timezone: string): string | null {
  if (!professional) return null;
  const start = wallClockOf(new Date(appointment.startTime), timezone);
  const end = wallClockOf(new Date(appointment.endTime), timezone);
  const booking = { date: start.date, startTime: minutesToClockTime(start.minutes), endTime: minutesToClockTime(end.minutes) };
  // No working day runs past midnight, so an appointment that does is outside the hours whatever they are.
  const fits = end.date === start.date && fitsWeeklyHours(professional.availability, booking);
  return fits ? null : warningFor(professional);
}
