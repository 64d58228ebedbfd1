import { addDays, wallClockOf } from '@embudo/contracts/time/wall-clock';
import type { DbExecutor } from '../../platform/db/database.ts';
import { listProfessionals, listServices } from '../agenda/agenda-catalog.service.ts';
import { freeStartTimes } from '../agenda/availability.service.ts';
import { findTenantById } from '../tenants/tenants.service.ts';
import { normaliseChoiceText } from '../chats/reply-choices.ts';

const SLOTS_OFFERED = 3;
const DAYS_LOOKED_AHEAD = 7;


/**
 * The schedule node's offer: the agenda service whose name matches the event type (else the first
 * one), the first professional who offers it, and their next free start times over the coming week.
 */
export async function nextFreeSlots(executor: DbExecutor, tenantId: string, eventType: string, now = new Date()): Promise<string[]> {
  const tenant = await findTenantById(executor, tenantId);
  const services = await listServices(executor, tenantId);
  if (!tenant || services.length === 0) return [];
  const wanted = normaliseChoiceText(eventType);
  const service = services.find((candidate) => wanted && (normaliseChoiceText(candidate.name).includes(wanted) || wanted.includes(normaliseChoiceText(candidate.name)))) ?? services[0]!;
  const professional = (await listProfessionals(executor, tenantId)).find((candidate) => candidate.serviceIds.includes(service.id));
  if (!professional) return [];

  const today = wallClockOf(now, tenant.timezone).date;
  const dayName = new Intl.DateTimeFormat('es', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
  const offered: string[] = [];
  for (let day = 0; day < DAYS_LOOKED_AHEAD && offered.length < SLOTS_OFFERED; day += 1) {
    const date = addDays(today, day);
    const free = await freeStartTimes(executor, tenantId, { professionalId: professional.id, serviceId: service.id, date }, now);
    for (const slot of free.slots.slice(0, SLOTS_OFFERED - offered.length)) {
      offered.push(`${dayName.format(new Date(`${date}T12:00:00Z`))} a las ${slot.time} (${service.name} con ${professional.name})`);
    }
  }
  return offered;
}
