import { wallClockOf } from '@embudo/contracts/time/wall-clock';
import { isSameMonth, longDate, WEEKDAY_HEADERS } from './agenda-calendar.ts';
import { clockTimeOf } from './agenda-format.ts';
import type { AppointmentDto, ProfessionalDto } from './agenda.api.ts';
import { professionalColorStyles } from './professional-colors.ts';
import { OutsideHoursMark } from './OutsideHoursMark.tsx';
import { appointmentOutsideHours } from './weekly-hours.ts';

const SHOWN_PER_DAY = 3;

interface MonthViewProps {
  /** The 42 days of the grid, Monday first. */
  days: string[];
  anchor: string;
  today: string;
  appointments: AppointmentDto[];
  professionals: ProfessionalDto[];
  timezone: string;
  onDayClick: (date: string) => void;
  onOpenAppointment: (appointment: AppointmentDto) => void;
}

/** Month view: six weeks under the headers Lun to Dom; a click on a day opens a new appointment for it. */
export function MonthView({ days, anchor, today, appointments, professionals, timezone, onDayClick, onOpenAppointment }: MonthViewProps) {
  const byDay = new Map<string, AppointmentDto[]>();
  for (const appointment of appointments) {
    const date = wallClockOf(new Date(appointment.startTime), timezone).date;
    byDay.set(date, [...(byDay.get(date) ?? []), appointment]);
  }
  const colorOf = (professionalId: string) => professionals.find((entry) => entry.id === professionalId)?.color;

  return (
    <div data-testid="month-grid" className="flex min-h-0 flex-1 flex-col overflow-auto bg-white">
      <div className="grid grid-cols-7 border-b border-slate-200">
        {WEEKDAY_HEADERS.map((header) => (
          <div key={header} className="py-2 text-center text-xs font-semibold text-slate-500">
            {header}
          </div>
        ))}
      </div>
      <div className="grid flex-1 grid-cols-7 grid-rows-6">
        {days.map((date) => {
          const items = byDay.get(date) ?? [];
          const inMonth = isSameMonth(date, anchor);
          return (
            <div
              key={date}
              data-testid="month-cell"
              data-date={date}
              title={`Nueva cita el ${longDate(date)}`}
              onClick={() => onDayClick(date)}
              className={`min-h-24 cursor-pointer border-r border-b border-slate-100 p-1.5 hover:bg-emerald-50/40 ${inMonth ? 'bg-white' : 'bg-slate-50 text-slate-400'}`}
            >
              <span className={`inline-grid size-6 place-items-center rounded-full text-xs font-semibold ${date === today ? 'bg-emerald-600 text-white' : ''}`}>
                {Number(date.slice(8))}
              </span>
              <ul className="mt-1 space-y-0.5">
                {items.slice(0, SHOWN_PER_DAY).map((appointment) => {
                  const color = colorOf(appointment.professionalId) ?? appointment.professionalColor;
                  const outsideHours = appointmentOutsideHours(
                    appointment,
                    professionals.find((entry) => entry.id === appointment.professionalId),
                    timezone,
                  );
                  return (
                    <li key={appointment.id}>
                      <button
                        type="button"
                        data-testid="appointment-item"
                        data-appointment-id={appointment.id}
                        onClick={(event) => {
                          event.stopPropagation();
                          onOpenAppointment(appointment);
                        }}
                        className="flex w-full items-center gap-1 truncate rounded px-1 text-left text-[11px] text-slate-700 hover:bg-slate-100"
                      >
                        <span className={`size-2 shrink-0 rounded-full ${professionalColorStyles[color].dot}`} aria-hidden="true" />
                        <span className="font-semibold">{clockTimeOf(appointment.startTime, timezone)}</span>
                        <span className="truncate">{appointment.clientName}</span>
                        {outsideHours && <OutsideHoursMark warning={outsideHours} />}
                      </button>
                    </li>
                  );
                })}
              </ul>
              {items.length > SHOWN_PER_DAY && <p className="px-1 text-[11px] text-slate-500">+{items.length - SHOWN_PER_DAY} más</p>}
            </div>
          );
        })}
      </div>
    </div>
  );
}
