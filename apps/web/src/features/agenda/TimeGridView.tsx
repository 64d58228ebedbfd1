import { useLayoutEffect, useRef, type MouseEvent } from 'react';
import { DAY_HEIGHT_PX, dayHeader, minutesAtOffset, nowLine, PIXELS_PER_MINUTE, SCROLL_TO_HOUR, spanInDay } from './agenda-calendar.ts';
import { spanLabel } from './agenda-format.ts';
import type { AppointmentDto, ProfessionalDto, TimeBlockDto } from './agenda.api.ts';
import { professionalColorStyles } from './professional-colors.ts';
import { OutsideHoursMark } from './OutsideHoursMark.tsx';
import { appointmentOutsideHours } from './weekly-hours.ts';

export interface LanePoint {
  date: string;
  professionalId: string;
  minutes: number;
}

interface TimeGridViewProps {
  days: string[];
  professionals: ProfessionalDto[];
  appointments: AppointmentDto[];
  timeBlocks: TimeBlockDto[];
  timezone: string;
  now: Date;
  today: string;
  /** Click on a lane: a new appointment there. */
  onLaneClick: (point: LanePoint) => void;
  /** Right-click on a lane: a new time block there. */
  onLaneContextMenu: (point: LanePoint) => void;
  onOpenAppointment: (appointment: AppointmentDto) => void;
  onOpenTimeBlock: (block: TimeBlockDto) => void;
}

const TIME_COLUMN_PX = 56;
/** Hour labels are centred on their line: the first hour shown keeps this much room under the sticky day headers. */
const HOUR_LABEL_ROOM_PX = 12;
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const px = (minutes: number) => minutes * PIXELS_PER_MINUTE;

function pointOf(event: MouseEvent<HTMLDivElement>, date: string, professionalId: string): LanePoint {
  const rect = event.currentTarget.getBoundingClientRect();
  return { date, professionalId, minutes: minutesAtOffset(event.clientY - rect.top, rect.height) };
}

/** Day and week views: a 24-hour time column and, per day, one lane per professional at 1 px per minute. */
export function TimeGridView(props: TimeGridViewProps) {
  const { days, professionals, timezone } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = px(SCROLL_TO_HOUR * 60) - HOUR_LABEL_ROOM_PX;
  }, []);
  const line = nowLine(days, timezone, props.now);
  const dayMinWidth = Math.max(120, professionals.length * 72);

  return (
    <div ref={scrollRef} data-testid="time-grid" className="relative min-h-0 flex-1 overflow-auto bg-white">
      <div className="flex" style={{ minWidth: TIME_COLUMN_PX + days.length * dayMinWidth }}>
        <div className="sticky left-0 z-30 shrink-0 border-r border-slate-200 bg-white" style={{ width: TIME_COLUMN_PX }}>
          <div className="sticky top-0 z-30 h-16 border-b border-slate-200 bg-white" />
          <div className="relative" style={{ height: DAY_HEIGHT_PX }}>
            {HOURS.map((hour) => (
              <span key={hour} className="absolute right-2 -translate-y-1/2 text-[11px] text-slate-400 first:translate-y-0" style={{ top: px(hour * 60) }}>
                {`${String(hour).padStart(2, '0')}:00`}
              </span>
            ))}
          </div>
        </div>
        {days.map((date) => (
          <div key={date} data-testid="day-column" data-date={date} className="flex-1 border-r border-slate-200" style={{ minWidth: dayMinWidth }}>
            <div data-testid="day-header" className={`sticky top-0 z-20 h-16 border-b border-slate-200 ${date === props.today ? 'bg-emerald-50' : 'bg-white'}`}>
              <p className={`pt-1.5 text-center text-sm font-semibold ${date === props.today ? 'text-emerald-700' : 'text-slate-700'}`}>{dayHeader(date)}</p>
              <div className="mt-1 flex">
                {professionals.map((professional) => (
                  <p key={professional.id} className="flex min-w-0 flex-1 items-center justify-center gap-1 px-1 text-[11px] text-slate-500">
                    <span className={`size-2 shrink-0 rounded-full ${professionalColorStyles[professional.color].dot}`} aria-hidden="true" />
                    <span className="truncate">{professional.name}</span>
                  </p>
                ))}
              </div>
            </div>
            <div className="relative flex" style={{ height: DAY_HEIGHT_PX }}>
              {HOURS.map((hour) => (
                <div
                  key={hour}
                  className="pointer-events-none absolute inset-x-0 border-t border-slate-100"
                  style={{ top: px(hour * 60) }}
                  aria-hidden="true"
                />
              ))}
              {professionals.map((professional) => (
                <Lane key={professional.id} date={date} professional={professional} {...props} />
              ))}
              {line?.date === date && (
                <div data-testid="current-time-line" className="pointer-events-none absolute inset-x-0 z-20 h-0.5 bg-red-500" style={{ top: px(line.minutes) }}>
                  <span className="absolute -top-1 -left-1 size-2.5 rounded-full bg-red-500" />
                </div>
              )}
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}

function Lane({
  date,
  professional,
  appointments,
  timeBlocks,
  timezone,
  onLaneClick,
  onLaneContextMenu,
  onOpenAppointment,
  onOpenTimeBlock,
}: TimeGridViewProps & { date: string; professional: ProfessionalDto }) {
  const colors = professionalColorStyles[professional.color];
  return (
    <div
      data-testid="time-lane"
      data-date={date}
      data-professional-id={professional.id}
      title={`${professional.name}: clic para nueva cita, clic derecho para bloquear tiempo`}
      className="relative min-w-0 flex-1 cursor-pointer border-l border-slate-100 first:border-l-0 hover:bg-slate-50/60"
      onClick={(event) => onLaneClick(pointOf(event, date, professional.id))}
      onContextMenu={(event) => {
        event.preventDefault();
        onLaneContextMenu(pointOf(event, date, professional.id));
      }}
    >
      {timeBlocks
        .filter((block) => block.professionalId === professional.id)
        .map((block) => {
          const span = spanInDay(block, date, timezone);
          if (!span) return null;
          return (
            <button
              key={block.id}
              type="button"
              data-testid="time-block-item"
              data-time-block-id={block.id}
              onClick={(event) => {
                event.stopPropagation();
                onOpenTimeBlock(block);
              }}
              onContextMenu={(event) => {
                event.preventDefault();
                event.stopPropagation();
                onOpenTimeBlock(block);
              }}
              className={`absolute inset-x-0.5 z-0 flex flex-col items-start justify-start overflow-hidden rounded-md border border-dashed px-1.5 py-0.5 text-left text-[11px] ${
                block.isAvailable
                  ? 'border-emerald-400 bg-emerald-50/80 text-emerald-800'
                  : 'border-slate-400 bg-[repeating-linear-gradient(135deg,#f1f5f9_0_6px,#e2e8f0_6px_12px)] text-slate-600'
              }`}
              style={{ top: px(span.top), height: px(span.height) }}
            >
              <span className="block max-w-full truncate font-semibold">{block.isAvailable ? 'Disponible' : 'Bloqueado'}</span>
              {block.reason && <span className="block max-w-full truncate">{block.reason}</span>}
            </button>
          );
        })}
      {appointments
        .filter((appointment) => appointment.professionalId === professional.id)
        .map((appointment) => {
          const span = spanInDay(appointment, date, timezone);
          if (!span) return null;
          const outsideHours = appointmentOutsideHours(appointment, professional, timezone);
          return (
            <button
              key={appointment.id}
              type="button"
              data-testid="appointment-item"
              data-appointment-id={appointment.id}
              onClick={(event) => {
                event.stopPropagation();
                onOpenAppointment(appointment);
              }}
              onContextMenu={(event) => {
                event.preventDefault();
                event.stopPropagation();
                onOpenAppointment(appointment);
              }}
              className={`absolute inset-x-1 z-10 flex flex-col items-stretch justify-start overflow-hidden rounded-md border-l-4 px-1.5 py-0.5 text-left text-[11px] leading-tight shadow-sm ${colors.item}`}
              style={{ top: px(span.top), height: Math.max(px(span.height), 18) }}
            >
              <span className="flex items-center gap-1 font-semibold">
                {spanLabel(appointment, timezone)}
                {outsideHours && <OutsideHoursMark warning={outsideHours} />}
              </span>
              <span className="block truncate">{appointment.clientName}</span>
              <span className="block truncate opacity-75">{appointment.serviceName}</span>
            </button>
          );
        })}
    </div>
  );
}
