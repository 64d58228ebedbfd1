import {
  DEFAULT_BOOKING_MINUTES,
  END_AFTER_START,
  FILL_ALL_FIELDS,
  type AppointmentDto,
  type AppointmentRequest,
  type TimeBlockDto,
  type TimeBlockRequest,
} from '@embudo/contracts/http/agenda';
import { minutesToClockTime, wallClockOf } from '@embudo/contracts/time/wall-clock';
import { defaultEndMinutes } from './agenda-calendar.ts';

/**
 * What the appointment and time-block dialogs edit: dates and clock times of the tenant's calendar,
 * sent to the server as wall-clock times it reads in the tenant's time zone.
 */
export interface AppointmentDraft {
  clientName: string;
  clientWhatsapp: string;
  professionalId: string;
  serviceId: string;
  date: string;
  startTime: string;
  endTime: string;
  /** As typed; empty means the service's cost. */
  cost: string;
}

export interface TimeBlockDraft {
  professionalId: string;
  startDate: string;
  startTime: string;
  endDate: string;
  endTime: string;
  isAvailable: boolean;
  reason: string;
}

export const COST_PROBLEM = 'El costo debe ser un número mayor o igual a 0.';

const wallClock = (instant: string, timezone: string) => {
  const clock = wallClockOf(new Date(instant), timezone);
  return { date: clock.date, time: minutesToClockTime(clock.minutes) };
};

/** A new appointment at a clicked time: one hour by default (spec 02 §9). */
export function newAppointmentDraft(at: { date: string; minutes: number; professionalId: string }): AppointmentDraft {
  return {
    clientName: '',
    clientWhatsapp: '',
    professionalId: at.professionalId,
    serviceId: '',
    date: at.date,
    startTime: minutesToClockTime(at.minutes),
    endTime: minutesToClockTime(defaultEndMinutes(at.minutes, DEFAULT_BOOKING_MINUTES)),
    cost: '',
  };
}

export function appointmentDraftOf(appointment: AppointmentDto, timezone: string): AppointmentDraft {
  const start = wallClock(appointment.startTime, timezone);
  return {
    clientName: appointment.clientName,
    clientWhatsapp: appointment.clientWhatsapp,
    professionalId: appointment.professionalId,
    serviceId: appointment.serviceId,
    date: start.date,
    startTime: start.time,
    endTime: wallClock(appointment.endTime, timezone).time,
    cost: String(appointment.cost),
  };
}

/** Spec 02 §5: client name, professional and service are required; the end comes after the start. */
export function appointmentProblem(draft: AppointmentDraft): string | null {
  if (!draft.clientName.trim() || !draft.professionalId || !draft.serviceId || !draft.date || !draft.startTime || !draft.endTime) return FILL_ALL_FIELDS;
  if (draft.endTime <= draft.startTime) return END_AFTER_START;
  if (draft.cost.trim() !== '' && !(Number(draft.cost) >= 0)) return COST_PROBLEM;
  return null;
}

export function appointmentPayload(draft: AppointmentDraft): AppointmentRequest {
  return {
    clientName: draft.clientName.trim(),
    clientWhatsapp: draft.clientWhatsapp.trim(),
    professionalId: draft.professionalId,
    serviceId: draft.serviceId,
    startTime: `${draft.date}T${draft.startTime}`,
    endTime: `${draft.date}T${draft.endTime}`,
    ...(draft.cost.trim() === '' ? {} : { cost: Number(draft.cost) }),
  };
}

/** A new block at a right-clicked time: one hour by default, time blocked rather than opened. */
export function newTimeBlockDraft(at: { date: string; minutes: number; professionalId: string }): TimeBlockDraft {
  return {
    professionalId: at.professionalId,
    startDate: at.date,
    startTime: minutesToClockTime(at.minutes),
    endDate: at.date,
    endTime: minutesToClockTime(defaultEndMinutes(at.minutes, DEFAULT_BOOKING_MINUTES)),
    isAvailable: false,
    reason: '',
  };
}

export function timeBlockDraftOf(block: TimeBlockDto, timezone: string): TimeBlockDraft {
  const start = wallClock(block.startTime, timezone);
  const end = wallClock(block.endTime, timezone);
  return {
    professionalId: block.professionalId,
    startDate: start.date,
    startTime: start.time,
    endDate: end.date,
    endTime: end.time,
    isAvailable: block.isAvailable,
    reason: block.reason,
  };
}

export function timeBlockProblem(draft: TimeBlockDraft): string | null {
  if (!draft.professionalId || !draft.startDate || !draft.startTime || !draft.endDate || !draft.endTime) return FILL_ALL_FIELDS;
  // 'YYYY-MM-DDTHH:MM' strings order like the times they name.
  if (`${draft.endDate}T${draft.endTime}` <= `${draft.startDate}T${draft.startTime}`) return END_AFTER_START;
  return null;
}

export function timeBlockPayload(draft: TimeBlockDraft): TimeBlockRequest {
  return {
    professionalId: draft.professionalId,
    startTime: `${draft.startDate}T${draft.startTime}`,
    endTime: `${draft.endDate}T${draft.endTime}`,
    isAvailable: draft.isAvailable,
    reason: draft.reason.trim(),
  };
}
