import { z } from 'zod';
import { requiredText, safeString, safeText, TEXT_LIMITS, trimmedText } from '../text.ts';
import { clockTimeToMinutes, isClockTime, isDateKey, isValidTimeZone } from '../time/wall-clock.ts';

/** Spec 02 §3 and §9. */
export const professionalColors = ['purple', 'blue', 'orange', 'green', 'red'] as const;
export type ProfessionalColor = (typeof professionalColors)[number];
/** Keys of a professional's weekly availability, Monday first like the agenda's weeks. */
export const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof weekdays)[number];

export const DEFAULT_SERVICE_DURATION = 30;
export const DEFAULT_SERVICE_COST = 0;
export const DEFAULT_DAY_START = '09:00';
export const DEFAULT_DAY_END = '17:00';
/** The day view, the week view and a right-click all start with one hour. */
export const DEFAULT_BOOKING_MINUTES = 60;
export const MAX_COST = 999_999_999.99;

export const FILL_ALL_FIELDS = 'Por favor completa todos los campos.';
export const END_AFTER_START = 'La hora de fin debe ser posterior a la hora de inicio.';
export const INVALID_DATE_TIME = 'Fecha y hora inválidas: usa el formato ISO (AAAA-MM-DDTHH:MM).';
export const INVALID_RANGE_DATE = 'Fecha inválida: usa una fecha ISO (AAAA-MM-DD) o una fecha y hora ISO.';
export const INVALID_TIME_ZONE = 'Zona horaria inválida: usa un nombre IANA como America/Bogota.';
export const PROFESSIONAL_NOT_FOUND = 'Profesional no encontrado.';
export const SERVICE_NOT_FOUND = 'Servicio no encontrado.';
export const APPOINTMENT_NOT_FOUND = 'Cita no encontrada.';
export const TIME_BLOCK_NOT_FOUND = 'Bloque de tiempo no encontrado.';
export const SERVICE_NOT_OFFERED = 'El servicio seleccionado no lo ofrece este profesional.';

/** Numbers also arrive as the text of a form input ('25.50'). */
const numberLike = (schema: z.ZodNumber) => z.preprocess((value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value), schema);

const costMessage = 'El costo debe ser un número mayor o igual a 0.';
const cost = numberLike(z.number({ error: costMessage }).min(0, { error: costMessage }).max(MAX_COST, { error: 'El costo es demasiado alto.' }));
const durationMessage = 'La duración debe ser un número entero de minutos entre 5 y 1440.';
const duration = numberLike(
  z.number({ error: durationMessage }).int({ error: durationMessage }).min(5, { error: durationMessage }).max(1440, { error: durationMessage }),
);

const clockTime = safeString('Hora inválida: usa el formato HH:MM.').refine(isClockTime, { error: 'Hora inválida: usa el formato HH:MM.' });

export const dayAvailability = z
  .object({ startTime: clockTime, endTime: clockTime, enabled: z.boolean({ error: 'Indica enabled: true o false.' }) })
  .refine(
    (day) => !day.enabled || !isClockTime(day.startTime) || !isClockTime(day.endTime) || clockTimeToMinutes(day.endTime) > clockTimeToMinutes(day.startTime),
    { error: END_AFTER_START },
  );
export type DayAvailability = z.infer<typeof dayAvailability>;

/** What a request may send: any of the seven days; the ones left out keep their value. */
export const availabilityInput = z.strictObject(
  Object.fromEntries(weekdays.map((day) => [day, dayAvailability.optional()])) as Record<Weekday, z.ZodOptional<typeof dayAvailability>>,
  { error: 'Disponibilidad inválida: usa los días monday … sunday con startTime, endTime y enabled.' },
);
export type AvailabilityInput = z.infer<typeof availabilityInput>;
export type Availability = Record<Weekday, DayAvailability>;

/** 09:00 to 17:00, Monday to Friday (spec 02 §9). */
export function defaultAvailability(): Availability {
  return Object.fromEntries(
    weekdays.map((day, index) => [day, { startTime: DEFAULT_DAY_START, endTime: DEFAULT_DAY_END, enabled: index < 5 }]),
  ) as Availability;
}

export function withAvailability(base: Availability, changes: AvailabilityInput | undefined): Availability {
  const merged = { ...base };
  for (const day of weekdays) {
    const change = changes?.[day];
    if (change) merged[day] = change;
  }
  return merged;
}

const id = (message: string) => z.uuid({ error: message });
/** Required reference: missing or empty is the spec's "complete every field", a malformed one is invalid. */
const requiredReference = (invalid: string) => requiredText(100, FILL_ALL_FIELDS, invalid).pipe(id(invalid));

export const professionalRequest = z.object({
  name: requiredText(TEXT_LIMITS.name, 'El nombre del profesional es requerido.'),
  color: z.enum(professionalColors, { error: 'Color inválido: usa purple, blue, orange, green o red.' }).default('purple'),
  serviceIds: z.array(id('Servicio inválido.'), { error: 'serviceIds debe ser una lista de servicios.' }).max(200).default([]),
  availability: availabilityInput.optional(),
});
export type ProfessionalRequest = z.input<typeof professionalRequest>;
export const professionalUpdateRequest = z.object({
  name: professionalRequest.shape.name.optional(),
  color: z.enum(professionalColors, { error: 'Color inválido: usa purple, blue, orange, green o red.' }).optional(),
  serviceIds: z.array(id('Servicio inválido.'), { error: 'serviceIds debe ser una lista de servicios.' }).max(200).optional(),
  availability: availabilityInput.optional(),
});
export type ProfessionalUpdateRequest = z.input<typeof professionalUpdateRequest>;

export const professionalDto = z.object({
  id: z.string(),
  name: z.string(),
  color: z.enum(professionalColors),
  serviceIds: z.array(z.string()),
  availability: z.record(z.enum(weekdays), z.object({ startTime: z.string(), endTime: z.string(), enabled: z.boolean() })),
});
export type ProfessionalDto = z.infer<typeof professionalDto> & { availability: Availability };

export const serviceRequest = z.object({
  name: requiredText(TEXT_LIMITS.name, 'El nombre del servicio es requerido.'),
  duration: duration.default(DEFAULT_SERVICE_DURATION),
  cost: cost.default(DEFAULT_SERVICE_COST),
});
export type ServiceRequest = z.input<typeof serviceRequest>;
export const serviceUpdateRequest = z.object({
  name: serviceRequest.shape.name.optional(),
  duration: duration.optional(),
  cost: cost.optional(),
});

export const serviceDto = z.object({ id: z.string(), name: z.string(), duration: z.number(), cost: z.number() });
export type ServiceDto = z.infer<typeof serviceDto>;

/** With an offset it is an instant; without one (2030-03-10T10:00) it is the tenant's wall-clock time. */
const dateTime = safeText(64, { error: FILL_ALL_FIELDS, tooLong: INVALID_DATE_TIME }).pipe(
  z.iso.datetime({ offset: true, local: true, error: INVALID_DATE_TIME }),
);

const whatsappMessage = 'El WhatsApp debe tener entre 6 y 20 dígitos con código de país.';
/** Kept as digits with country code, like the chats' contacts, so a bot can write to it. */
const clientWhatsapp = trimmedText(40, { error: whatsappMessage, tooLong: whatsappMessage })
  .transform((value) => value.replace(/[\s()+.-]/g, ''))
  .refine((digits) => digits === '' || /^\d{6,20}$/.test(digits), { error: whatsappMessage });

const appointmentFields = {
  clientName: requiredText(200, FILL_ALL_FIELDS),
  clientWhatsapp: clientWhatsapp.nullish(),
  professionalId: requiredReference('Profesional inválido.'),
  serviceId: requiredReference('Servicio inválido.'),
  startTime: dateTime,
  endTime: dateTime,
  /** Left out, the appointment costs what its service costs. */
  cost: cost.nullish(),
};

export const appointmentRequest = z.object(appointmentFields);
export type AppointmentRequest = z.input<typeof appointmentRequest>;
/** Only the fields sent change; the merged appointment is checked like a new one. */
export const appointmentUpdateRequest = z.object(appointmentFields).partial();
export type AppointmentUpdateRequest = z.output<typeof appointmentUpdateRequest>;

export const appointmentDto = z.object({
  id: z.string(),
  clientName: z.string(),
  clientWhatsapp: z.string(),
  professionalId: z.string(),
  serviceId: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  cost: z.number(),
  professionalColor: z.enum(professionalColors),
  professionalName: z.string(),
  serviceName: z.string(),
});
export type AppointmentDto = z.infer<typeof appointmentDto>;

const timeBlockFields = {
  professionalId: requiredReference('Profesional inválido.'),
  startTime: dateTime,
  endTime: dateTime,
  /** false (the default) blocks the time; true opens extra availability, e.g. a Saturday morning. */
  isAvailable: z.boolean({ error: 'Indica isAvailable: true o false.' }),
  reason: trimmedText(500, { error: 'El motivo debe ser texto.' }).nullish(),
};
export const timeBlockRequest = z.object({ ...timeBlockFields, isAvailable: timeBlockFields.isAvailable.default(false) });
export type TimeBlockRequest = z.input<typeof timeBlockRequest>;
export const timeBlockUpdateRequest = z.object(timeBlockFields).partial();
export type TimeBlockUpdateRequest = z.output<typeof timeBlockUpdateRequest>;

export const timeBlockDto = z.object({
  id: z.string(),
  professionalId: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  isAvailable: z.boolean(),
  reason: z.string(),
});
export type TimeBlockDto = z.infer<typeof timeBlockDto>;

export const RANGE_NEEDS_BOTH_ENDS = 'Indica el inicio y el fin del rango (start y end).';
const rangeBound = safeText(64, { error: RANGE_NEEDS_BOTH_ENDS, tooLong: INVALID_RANGE_DATE }).refine(
  (value) => isDateKey(value) || z.iso.datetime({ offset: true, local: true }).safeParse(value).success,
  { error: INVALID_RANGE_DATE },
);
/**
 * A bare date is a whole day in the tenant's time zone: start=2030-03-04&end=2030-03-10 is that week, both ends
 * included. Without either end the answer is the current week.
 */
export const agendaDataQuery = z
  .object({ start: rangeBound.optional(), end: rangeBound.optional() })
  .refine((query) => (query.start === undefined) === (query.end === undefined), { error: RANGE_NEEDS_BOTH_ENDS });

export const agendaDataResponse = z.object({
  professionals: z.array(professionalDto),
  services: z.array(serviceDto),
  appointments: z.array(appointmentDto),
  timeBlocks: z.array(timeBlockDto),
});
export type AgendaData = z.infer<typeof agendaDataResponse> & { professionals: ProfessionalDto[] };

/** Deleting a professional or service with future appointments needs appointments=delete. */
export const catalogDeleteQuery = z.object({
  appointments: z.enum(['delete'], { error: 'Usa appointments=delete para eliminar también sus citas futuras.' }).optional(),
});

export const searchContactsQuery = z.object({ q: safeText(100).default('') });
export const contactSearchResult = z.object({ id: z.string(), name: z.string(), phone: z.string() });
export type ContactSearchResult = z.infer<typeof contactSearchResult>;
export const searchContactsResponse = z.array(contactSearchResult);
/** Spec 02 §5 and §9: the search starts after more than 2 characters and a 300 ms pause. */
export const CONTACT_SEARCH_MIN_LENGTH = 3;
export const CONTACT_SEARCH_DEBOUNCE_MS = 300;

export const availabilityQuery = z.object({
  professionalId: requiredReference('Profesional inválido.'),
  serviceId: requiredReference('Servicio inválido.'),
  date: safeText(10, { error: 'Indica la fecha (date=AAAA-MM-DD).', tooLong: 'Fecha inválida: usa AAAA-MM-DD.' }).refine(isDateKey, {
    error: 'Fecha inválida: usa AAAA-MM-DD.',
  }),
});
export const availabilitySlot = z.object({ startTime: z.string(), endTime: z.string(), time: z.string() });
export const availabilityResponse = z.object({
  date: z.string(),
  timezone: z.string(),
  professionalId: z.string(),
  serviceId: z.string(),
  duration: z.number(),
  slots: z.array(availabilitySlot),
});
export type AvailabilityResponse = z.infer<typeof availabilityResponse>;

export const agendaSettings = z.object({
  timezone: requiredText(64, INVALID_TIME_ZONE, INVALID_TIME_ZONE).refine(isValidTimeZone, { error: INVALID_TIME_ZONE }),
});
export type AgendaSettings = z.infer<typeof agendaSettings>;
