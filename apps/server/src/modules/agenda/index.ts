/**
 * The agenda module's public face: the only file that other modules, app.ts and other modules' tests import
 * (docs/decisions/0012-module-boundaries.md). Professionals, services, appointments and availability. Imports funnels
 * and tenants.
 */
export { agendaPlugin } from './agenda.plugin.ts';
export { listProfessionals, listServices } from './agenda-catalog.service.ts';
export { type FreeStart, freeStartsOver, freeStartTimes } from './availability.service.ts';
export { bookForCustomer, withdrawCustomerBooking } from './bookings.service.ts';
