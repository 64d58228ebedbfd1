import type { FastifyInstance } from 'fastify';
import { type AppointmentDto, type ProfessionalDto, type ServiceDto, weekdays } from '@embudo/contracts/http/agenda';
import { bearer } from './factories.ts';

/** Test helpers shared by the agenda's integration suites. */
export interface Caller {
  token: string;
  tenant: { slug: string };
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Calls a tenant route the way the web client does, under /t/{slug}/api. */
export function agendaCaller(app: FastifyInstance) {
  return (who: Caller, method: Method, path: string, payload?: unknown) =>
    app.inject({ method, url: `/t/${who.tenant.slug}/api${path}`, headers: bearer(who.token), payload: payload as Record<string, unknown> | undefined });
}

/**
 * A service and a professional who offers it, created through the API. `everyDay` opens 09:00–17:00 all week, so a
 * suite that books "tomorrow" on the real clock does not fail on a weekend.
 */
export async function seedCatalog(
  app: FastifyInstance,
  owner: Caller,
  options: { duration?: number; cost?: number; professionalName?: string; everyDay?: boolean } = {},
) {
  const call = agendaCaller(app);
  const serviceResponse = await call(owner, 'POST', '/agenda/services', { name: 'Corte de pelo', duration: options.duration ?? 60, cost: options.cost ?? 25 });
  if (serviceResponse.statusCode !== 201) throw new Error(`service: ${serviceResponse.body}`);
  const service = serviceResponse.json() as ServiceDto;
  const professionalResponse = await call(owner, 'POST', '/agenda/professionals', {
    name: options.professionalName ?? 'Lucía',
    color: 'blue',
    serviceIds: [service.id],
    ...(options.everyDay ? { availability: Object.fromEntries(weekdays.map((day) => [day, { startTime: '09:00', endTime: '17:00', enabled: true }])) } : {}),
  });
  if (professionalResponse.statusCode !== 201) throw new Error(`professional: ${professionalResponse.body}`);
  return { service, professional: professionalResponse.json() as ProfessionalDto };
}

/** Books through the API and fails the test at once when the booking is refused. */
export async function book(
  app: FastifyInstance,
  owner: Caller,
  fields: { professionalId: string; serviceId: string; startTime: string; endTime: string; clientName?: string },
) {
  const response = await agendaCaller(app)(owner, 'POST', '/agenda/appointments', { clientName: 'Cliente', ...fields });
  if (response.statusCode !== 201) throw new Error(`appointment: ${response.statusCode} ${response.body}`);
  return response.json() as AppointmentDto;
}
