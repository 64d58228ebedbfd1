import { addDays, wallClockOf } from '@embudo/contracts/time/wall-clock';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { listProfessionals, listServices, freeStartTimes, bookForCustomer } from '../agenda/index.ts';
import { findTenantById } from '../tenants/index.ts';
import { normaliseChoiceText } from '../chats/index.ts';
import type { BookingOutcome, SlotOffer } from './runtime/node-executor.ts';

const SLOTS_OFFERED = 3;
const DAYS_LOOKED_AHEAD = 7;

/**
 * The schedule node's offer: the agenda service whose name matches the event type (else the first
 * one), the first professional who offers it, and their next free start times over the coming week,
 * computed as the Agenda computes them (company time zone, weekly hours, blocks, other appointments).
 */
export async function nextFreeSlots(db: Db, tenantId: string, eventType: string, now = new Date()): Promise<SlotOffer[]> {
  const tenant = await findTenantById(db, tenantId);
  const services = await listServices(db, tenantId);
  if (!tenant || services.length === 0) return [];
  const wanted = normaliseChoiceText(eventType);
  const service =
    services.find((candidate) => wanted && (normaliseChoiceText(candidate.name).includes(wanted) || wanted.includes(normaliseChoiceText(candidate.name)))) ??
    services[0]!;
  const professional = (await listProfessionals(db, tenantId)).find((candidate) => candidate.serviceIds.includes(service.id));
  if (!professional) return [];

  const today = wallClockOf(now, tenant.timezone).date;
  // Dates are calendar days already: format them at noon UTC so no zone moves them to another day.
  const longDay = new Intl.DateTimeFormat('es', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
  const shortDay = new Intl.DateTimeFormat('es', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
  const offered: SlotOffer[] = [];
  for (let day = 0; day < DAYS_LOOKED_AHEAD && offered.length < SLOTS_OFFERED; day += 1) {
    const date = addDays(today, day);
    const noon = new Date(`${date}T12:00:00Z`);
    const free = await freeStartTimes(db, tenantId, { professionalId: professional.id, serviceId: service.id, date }, now);
    for (const slot of free.slots.slice(0, SLOTS_OFFERED - offered.length)) {
      offered.push({
        id: `slot-${offered.length + 1}`,
        // A reply button's title holds 20 characters: "mar, 10 mar 09:00".
        label: `${shortDay.format(noon).replace(/\./g, '')} ${slot.time}`,
        description: `${longDay.format(noon)} a las ${slot.time} (${service.name} con ${professional.name})`,
        professionalId: professional.id,
        serviceId: service.id,
        startTime: slot.startTime,
        endTime: slot.endTime,
      });
    }
  }
  return offered;
}

/** Books the offered time for the customer, unless it stopped being free since it was offered. */
export async function bookSlot(db: Db, tenantId: string, slot: SlotOffer, client: { name: string; phone: string }): Promise<BookingOutcome> {
  const tenant = await findTenantById(db, tenantId);
  if (!tenant) return { refused: 'La empresa ya no existe.' };
  try {
    const appointment = await bookForCustomer(
      { db, tenantId, timezone: tenant.timezone },
      {
        clientName: client.name,
        clientWhatsapp: client.phone,
        professionalId: slot.professionalId,
        serviceId: slot.serviceId,
        start: new Date(slot.startTime),
        end: new Date(slot.endTime),
      },
    );
    return { booked: appointment.id };
  } catch (error) {
    if (error instanceof AppError) return { refused: error.message };
    throw error;
  }
}
