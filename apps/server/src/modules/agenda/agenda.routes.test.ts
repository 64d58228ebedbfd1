import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  END_AFTER_START,
  FILL_ALL_FIELDS,
  INVALID_TIME_ZONE,
  PROFESSIONAL_NOT_FOUND,
  SERVICE_NOT_FOUND,
  SERVICE_NOT_OFFERED,
} from '@embudo/contracts/http/agenda';
import { agendaServices, appointments, professionals, timeBlocks } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { signInMember } from '../../../test/support/members.ts';
import { agendaCaller, book, seedCatalog } from '../../../test/support/agenda-fixtures.ts';
import { OWNER_ONLY, OWNER_OR_ADMIN_ONLY, VIEWER_READ_ONLY } from '../../platform/policy/policy.ts';
import { upsertContact } from '../chats/index.ts';
import { findOrCreateCard } from '../funnels/index.ts';

let t: TestApp;
let call: ReturnType<typeof agendaCaller>;
beforeAll(async () => {
  t = await buildTestApp();
  call = agendaCaller(t.app);
});
afterAll(async () => t.close());

/** The tenants registered by the factory live in America/Bogota (UTC-5, no daylight saving). */
const WEEK = 'start=2030-03-04&end=2030-03-10';

async function rowCounts(tenantId: string) {
  const db = t.database.db;
  const [p, s, a, b] = await Promise.all([
    db.select().from(professionals).where(eq(professionals.tenantId, tenantId)),
    db.select().from(agendaServices).where(eq(agendaServices.tenantId, tenantId)),
    db.select().from(appointments).where(eq(appointments.tenantId, tenantId)),
    db.select().from(timeBlocks).where(eq(timeBlocks.tenantId, tenantId)),
  ]);
  return { professionals: p.length, services: s.length, appointments: a.length, timeBlocks: b.length };
}

async function expectRefused(response: { statusCode: number; json(): { message: string } }, status: number, message: string | RegExp) {
  expect(response.statusCode).toBe(status);
  if (typeof message === 'string') expect(response.json().message).toBe(message);
  else expect(response.json().message).toMatch(message);
}

describe('professionals and services', () => {
  it('creates services with the spec defaults and numbers typed as text', async () => {
    const owner = await registerTenant(t.app);
    const plain = await t.app.inject({ method: 'POST', url: '/api/agenda/services', headers: bearer(owner.token), payload: { name: '  Consulta  ' } });
    expect(plain.statusCode).toBe(201);
    expect(plain.json()).toEqual({ id: expect.any(String), name: 'Consulta', duration: 30, cost: 0 });

    const typed = await call(owner, 'POST', '/agenda/services', { name: 'Tinte', duration: '45', cost: '25.505' });
    expect(typed.json()).toMatchObject({ duration: 45, cost: 25.51 });

    const edited = await call(owner, 'PUT', `/agenda/services/${typed.json().id}`, { cost: 30 });
    expect(edited.json()).toEqual({ id: typed.json().id, name: 'Tinte', duration: 45, cost: 30 });
    const data = (await call(owner, 'GET', `/agenda/data?${WEEK}`)).json();
    expect(data.services.map((service: { name: string }) => service.name)).toEqual(['Consulta', 'Tinte']);
  });

  it('creates a professional with the default availability, then edits name, colour, services and some weekdays', async () => {
    const owner = await registerTenant(t.app);
    const service = (await call(owner, 'POST', '/agenda/services', { name: 'Masaje', duration: 60, cost: 40 })).json();
    const created = await call(owner, 'POST', '/agenda/professionals', { name: 'Lucía', color: 'orange', serviceIds: [service.id] });
    expect(created.statusCode).toBe(201);
    const professional = created.json();
    expect(professional).toMatchObject({ name: 'Lucía', color: 'orange', serviceIds: [service.id] });
    const nineToFive = { startTime: '09:00', endTime: '17:00', enabled: true };
    const off = { startTime: '09:00', endTime: '17:00', enabled: false };
    expect(professional.availability).toEqual({
      monday: nineToFive,
      tuesday: nineToFive,
      wednesday: nineToFive,
      thursday: nineToFive,
      friday: nineToFive,
      saturday: off,
      sunday: off,
    });

    const updated = await call(owner, 'PUT', `/agenda/professionals/${professional.id}`, {
      name: 'Lucía Gómez',
      color: 'red',
      availability: { saturday: { startTime: '10:00', endTime: '14:00', enabled: true }, monday: { ...nineToFive, enabled: false } },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Lucía Gómez', color: 'red', serviceIds: [service.id] });
    expect(updated.json().availability).toMatchObject({
      monday: { enabled: false },
      tuesday: nineToFive,
      saturday: { startTime: '10:00', endTime: '14:00', enabled: true },
    });

    const noServices = await call(owner, 'PUT', `/agenda/professionals/${professional.id}`, { serviceIds: [] });
    expect(noServices.json()).toMatchObject({ serviceIds: [], color: 'red' });
    const data = (await call(owner, 'GET', `/agenda/data?${WEEK}`)).json();
    expect(data.professionals).toEqual([noServices.json()]);
  });

  it.each([
    ['a professional without a name', '/agenda/professionals', { color: 'blue' }, 'El nombre del profesional es requerido.'],
    ['a professional with a blank name', '/agenda/professionals', { name: '   ' }, 'El nombre del profesional es requerido.'],
    ['a colour outside the five', '/agenda/professionals', { name: 'Ana', color: 'pink' }, 'Color inválido: usa purple, blue, orange, green o red.'],
    [
      'a weekday ending before it starts',
      '/agenda/professionals',
      { name: 'Ana', availability: { monday: { startTime: '17:00', endTime: '09:00', enabled: true } } },
      END_AFTER_START,
    ],
    [
      'an hour that is not HH:MM',
      '/agenda/professionals',
      { name: 'Ana', availability: { monday: { startTime: '9am', endTime: '17:00', enabled: true } } },
      'Hora inválida: usa el formato HH:MM.',
    ],
    [
      'an unknown weekday',
      '/agenda/professionals',
      { name: 'Ana', availability: { lunes: { startTime: '09:00', endTime: '17:00', enabled: true } } },
      /Disponibilidad inválida/,
    ],
    ['a service without a name', '/agenda/services', { duration: 30 }, 'El nombre del servicio es requerido.'],
    ['a negative cost', '/agenda/services', { name: 'Corte', cost: -1 }, 'El costo debe ser un número mayor o igual a 0.'],
    ['a cost that is not a number', '/agenda/services', { name: 'Corte', cost: 'gratis' }, 'El costo debe ser un número mayor o igual a 0.'],
    ['a duration that is not a number', '/agenda/services', { name: 'Corte', duration: 'media hora' }, /La duración debe ser/],
    ['a duration of 0', '/agenda/services', { name: 'Corte', duration: 0 }, /La duración debe ser/],
  ])('refuses %s with 400 and writes nothing', async (_label, path, payload, message) => {
    const owner = await registerTenant(t.app);
    await expectRefused(await call(owner, 'POST', path, payload), 400, message);
    expect(await rowCounts(owner.tenant.id)).toEqual({ professionals: 0, services: 0, appointments: 0, timeBlocks: 0 });
  });

  it("refuses a professional offering another tenant's service with 404 and writes nothing", async () => {
    const owner = await registerTenant(t.app);
    const other = await registerTenant(t.app);
    const foreign = (await call(other, 'POST', '/agenda/services', { name: 'Ajeno' })).json();
    const own = (await call(owner, 'POST', '/agenda/services', { name: 'Propio' })).json();
    await expectRefused(await call(owner, 'POST', '/agenda/professionals', { name: 'Ana', serviceIds: [own.id, foreign.id] }), 404, SERVICE_NOT_FOUND);
    expect((await rowCounts(owner.tenant.id)).professionals).toBe(0);
  });
});

describe('appointments', () => {
  it("books in the tenant's wall-clock time, answers colour and service name, edits and deletes", async () => {
    const owner = await registerTenant(t.app);
    const { service, professional } = await seedCatalog(t.app, owner);
    const created = await call(owner, 'POST', '/agenda/appointments', {
      clientName: 'Juan Pérez',
      clientWhatsapp: '+57 300 123 4567',
      professionalId: professional.id,
      serviceId: service.id,
      startTime: '2030-03-04T10:00',
      endTime: '2030-03-04T11:00',
    });
    expect(created.statusCode).toBe(201);
    const appointment = created.json();
    expect(appointment).toEqual({
      id: expect.any(String),
      clientName: 'Juan Pérez',
      clientWhatsapp: '573001234567',
      professionalId: professional.id,
      serviceId: service.id,
      // 10:00 in Bogota is 15:00 UTC.
      startTime: '2030-03-04T15:00:00.000Z',
      endTime: '2030-03-04T16:00:00.000Z',
      cost: 25,
      professionalColor: 'blue',
      professionalName: 'Lucía',
      serviceName: 'Corte de pelo',
    });

    const moved = await call(owner, 'PUT', `/agenda/appointments/${appointment.id}`, {
      startTime: '2030-03-04T12:00:00-05:00',
      endTime: '2030-03-04T13:30:00-05:00',
      cost: 20,
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ clientName: 'Juan Pérez', startTime: '2030-03-04T17:00:00.000Z', endTime: '2030-03-04T18:30:00.000Z', cost: 20 });

    const data = (await call(owner, 'GET', `/agenda/data?${WEEK}`)).json();
    expect(data.appointments).toEqual([moved.json()]);

    expect((await call(owner, 'DELETE', `/agenda/appointments/${appointment.id}`)).statusCode).toBe(204);
    expect((await call(owner, 'DELETE', `/agenda/appointments/${appointment.id}`)).statusCode).toBe(404);
    expect((await call(owner, 'GET', `/agenda/data?${WEEK}`)).json().appointments).toEqual([]);
  });

  it.each([
    ['no client name', { clientName: undefined }, FILL_ALL_FIELDS],
    ['a blank client name', { clientName: '   ' }, FILL_ALL_FIELDS],
    ['no professional', { professionalId: undefined }, FILL_ALL_FIELDS],
    ['an empty professional', { professionalId: '' }, FILL_ALL_FIELDS],
    ['no service', { serviceId: undefined }, FILL_ALL_FIELDS],
    ['an end before the start', { startTime: '2030-03-04T11:00', endTime: '2030-03-04T10:00' }, END_AFTER_START],
    ['an end equal to the start', { startTime: '2030-03-04T10:00', endTime: '2030-03-04T10:00' }, END_AFTER_START],
    ['a date that does not exist', { startTime: '2030-02-30T10:00', endTime: '2030-02-30T11:00' }, /Fecha y hora inválidas/],
    ['a start that is not a date', { startTime: 'mañana' }, /Fecha y hora inválidas/],
    ['a WhatsApp with letters', { clientWhatsapp: 'llámame' }, 'El WhatsApp debe tener entre 6 y 20 dígitos con código de país.'],
    ['a negative cost', { cost: -5 }, 'El costo debe ser un número mayor o igual a 0.'],
  ])('refuses %s with 400 and writes nothing', async (_label, overrides, message) => {
    const owner = await registerTenant(t.app);
    const { service, professional } = await seedCatalog(t.app, owner);
    const payload = {
      clientName: 'Ana',
      professionalId: professional.id,
      serviceId: service.id,
      startTime: '2030-03-04T10:00',
      endTime: '2030-03-04T11:00',
      ...overrides,
    };
    await expectRefused(await call(owner, 'POST', '/agenda/appointments', payload), 400, message);
    expect((await rowCounts(owner.tenant.id)).appointments).toBe(0);
  });

  it('refuses a service the professional does not offer', async () => {
    const owner = await registerTenant(t.app);
    const { professional } = await seedCatalog(t.app, owner);
    const other = (await call(owner, 'POST', '/agenda/services', { name: 'Manicura' })).json();
    const response = await call(owner, 'POST', '/agenda/appointments', {
      clientName: 'Ana',
      professionalId: professional.id,
      serviceId: other.id,
      startTime: '2030-03-04T10:00',
      endTime: '2030-03-04T11:00',
    });
    await expectRefused(response, 400, SERVICE_NOT_OFFERED);
    expect((await rowCounts(owner.tenant.id)).appointments).toBe(0);
  });

  it('refuses an overlap with the same professional, allows back-to-back and another professional, also when moving', async () => {
    const owner = await registerTenant(t.app);
    const { service, professional } = await seedCatalog(t.app, owner);
    const second = (await call(owner, 'POST', '/agenda/professionals', { name: 'Marta', serviceIds: [service.id] })).json();
    const base = { professionalId: professional.id, serviceId: service.id };
    await book(t.app, owner, { ...base, clientName: 'Juan Pérez', startTime: '2030-03-04T10:00', endTime: '2030-03-04T11:00' });

    const overlap = await call(owner, 'POST', '/agenda/appointments', {
      ...base,
      clientName: 'Eva',
      startTime: '2030-03-04T10:30',
      endTime: '2030-03-04T11:30',
    });
    await expectRefused(overlap, 409, 'Lucía ya tiene una cita de 10:00 a 11:00 (Juan Pérez). Elige otro horario.');
    const inside = await call(owner, 'POST', '/agenda/appointments', {
      ...base,
      clientName: 'Eva',
      startTime: '2030-03-04T10:15',
      endTime: '2030-03-04T10:45',
    });
    expect(inside.statusCode).toBe(409);

    const after = await book(t.app, owner, { ...base, clientName: 'Eva', startTime: '2030-03-04T11:00', endTime: '2030-03-04T12:00' });
    await book(t.app, owner, { ...base, clientName: 'Eva', startTime: '2030-03-04T09:00', endTime: '2030-03-04T10:00' });
    await book(t.app, owner, {
      professionalId: second.id,
      serviceId: service.id,
      clientName: 'Leo',
      startTime: '2030-03-04T10:00',
      endTime: '2030-03-04T11:00',
    });

    const moveOnto = await call(owner, 'PUT', `/agenda/appointments/${after.id}`, { startTime: '2030-03-04T10:59' });
    expect(moveOnto.statusCode).toBe(409);
    // Moving within its own slot does not clash with itself.
    expect((await call(owner, 'PUT', `/agenda/appointments/${after.id}`, { endTime: '2030-03-04T11:45' })).statusCode).toBe(200);
    expect((await rowCounts(owner.tenant.id)).appointments).toBe(4);
  });

  it('refuses a booking in blocked time but not in time opened by an available block', async () => {
    const owner = await registerTenant(t.app);
    const { service, professional } = await seedCatalog(t.app, owner);
    const blocked = await call(owner, 'POST', '/agenda/time-blocks', {
      professionalId: professional.id,
      startTime: '2030-03-04T13:00',
      endTime: '2030-03-04T18:00',
      reason: 'Médico',
    });
    expect(blocked.statusCode).toBe(201);
    expect(blocked.json()).toMatchObject({ isAvailable: false, reason: 'Médico', startTime: '2030-03-04T18:00:00.000Z' });
    await call(owner, 'POST', '/agenda/time-blocks', {
      professionalId: professional.id,
      startTime: '2030-03-09T09:00',
      endTime: '2030-03-09T12:00',
      isAvailable: true,
    });

    const base = { clientName: 'Ana', professionalId: professional.id, serviceId: service.id };
    const response = await call(owner, 'POST', '/agenda/appointments', { ...base, startTime: '2030-03-04T12:30', endTime: '2030-03-04T13:30' });
    await expectRefused(response, 409, 'El horario de Lucía está bloqueado de 13:00 a 18:00 (Médico). Elige otro horario.');
    await book(t.app, owner, { ...base, startTime: '2030-03-09T10:00', endTime: '2030-03-09T11:00' });
    expect((await rowCounts(owner.tenant.id)).appointments).toBe(1);
  });

  it("takes the service cost when none is sent, and the new service's when the service changes", async () => {
    const owner = await registerTenant(t.app);
    const { service, professional } = await seedCatalog(t.app, owner, { cost: 25 });
    const dye = (await call(owner, 'POST', '/agenda/services', { name: 'Tinte', cost: 60 })).json();
    await call(owner, 'PUT', `/agenda/professionals/${professional.id}`, { serviceIds: [service.id, dye.id] });
    const appointment = await book(t.app, owner, {
      professionalId: professional.id,
      serviceId: service.id,
      startTime: '2030-03-04T10:00',
      endTime: '2030-03-04T11:00',
    });
    expect(appointment.cost).toBe(25);
    const changed = await call(owner, 'PUT', `/agenda/appointments/${appointment.id}`, { serviceId: dye.id });
    expect(changed.json()).toMatchObject({ serviceId: dye.id, serviceName: 'Tinte', cost: 60 });
    const free = await call(owner, 'PUT', `/agenda/appointments/${appointment.id}`, { cost: 0 });
    expect(free.json().cost).toBe(0);
  });
});

describe('time blocks', () => {
  it('creates, edits and deletes a block; refuses an end before the start and blocking over an appointment', async () => {
    const owner = await registerTenant(t.app);
    const { service, professional } = await seedCatalog(t.app, owner);
    await book(t.app, owner, {
      professionalId: professional.id,
      serviceId: service.id,
      clientName: 'Juan',
      startTime: '2030-03-04T16:00',
      endTime: '2030-03-04T17:00',
    });

    const backwards = await call(owner, 'POST', '/agenda/time-blocks', {
      professionalId: professional.id,
      startTime: '2030-03-04T14:00',
      endTime: '2030-03-04T13:00',
    });
    await expectRefused(backwards, 400, END_AFTER_START);
    const overAppointment = await call(owner, 'POST', '/agenda/time-blocks', {
      professionalId: professional.id,
      startTime: '2030-03-04T13:00',
      endTime: '2030-03-04T18:00',
    });
    await expectRefused(overAppointment, 409, 'Lucía tiene una cita de 16:00 a 17:00 (Juan) en ese horario. Muévela o elimínala antes de bloquearlo.');
    await expectRefused(await call(owner, 'POST', '/agenda/time-blocks', { startTime: '2030-03-04T13:00', endTime: '2030-03-04T14:00' }), 400, FILL_ALL_FIELDS);
    expect((await rowCounts(owner.tenant.id)).timeBlocks).toBe(0);

    const block = (
      await call(owner, 'POST', '/agenda/time-blocks', {
        professionalId: professional.id,
        startTime: '2030-03-04T13:00',
        endTime: '2030-03-04T15:00',
        reason: 'Almuerzo',
      })
    ).json();
    expect(block).toEqual({
      id: expect.any(String),
      professionalId: professional.id,
      startTime: '2030-03-04T18:00:00.000Z',
      endTime: '2030-03-04T20:00:00.000Z',
      isAvailable: false,
      reason: 'Almuerzo',
    });
    const stretched = await call(owner, 'PUT', `/agenda/time-blocks/${block.id}`, { endTime: '2030-03-04T16:30' });
    expect(stretched.statusCode).toBe(409);
    const renamed = await call(owner, 'PUT', `/agenda/time-blocks/${block.id}`, { reason: 'Trámite', endTime: '2030-03-04T16:00' });
    expect(renamed.json()).toMatchObject({ reason: 'Trámite', endTime: '2030-03-04T21:00:00.000Z' });
    // An available block may sit over an appointment: it only opens time.
    const opened = await call(owner, 'PUT', `/agenda/time-blocks/${block.id}`, { isAvailable: true, endTime: '2030-03-04T18:00' });
    expect(opened.json()).toMatchObject({ isAvailable: true });
    expect((await call(owner, 'GET', `/agenda/data?${WEEK}`)).json().timeBlocks).toEqual([opened.json()]);

    expect((await call(owner, 'DELETE', `/agenda/time-blocks/${block.id}`)).statusCode).toBe(204);
    expect((await call(owner, 'DELETE', `/agenda/time-blocks/${block.id}`)).statusCode).toBe(404);
  });
});

describe('deleting a professional or service with future appointments', () => {
  it('asks for a decision with 409, then deletes the appointments too when told to', async () => {
    const owner = await registerTenant(t.app);
    const { service, professional } = await seedCatalog(t.app, owner);
    await book(t.app, owner, { professionalId: professional.id, serviceId: service.id, startTime: '2030-03-04T10:00', endTime: '2030-03-04T11:00' });
    await book(t.app, owner, { professionalId: professional.id, serviceId: service.id, startTime: '2030-03-05T10:00', endTime: '2030-03-05T11:00' });

    await expectRefused(
      await call(owner, 'DELETE', `/agenda/services/${service.id}`),
      409,
      'El servicio Corte de pelo tiene 2 citas futuras. Reasígnalas o elimínalas primero, o confirma que quieres eliminarlas también.',
    );
    await expectRefused(await call(owner, 'DELETE', `/agenda/professionals/${professional.id}`), 409, /^El profesional Lucía tiene 2 citas futuras\./);
    expect(await rowCounts(owner.tenant.id)).toEqual({ professionals: 1, services: 1, appointments: 2, timeBlocks: 0 });
    expect((await call(owner, 'DELETE', `/agenda/professionals/${professional.id}?appointments=keep`)).statusCode).toBe(400);

    expect((await call(owner, 'DELETE', `/agenda/professionals/${professional.id}?appointments=delete`)).statusCode).toBe(204);
    expect(await rowCounts(owner.tenant.id)).toEqual({ professionals: 0, services: 1, appointments: 0, timeBlocks: 0 });
  });

  it('deletes a service used only by past appointments without asking, and a service with future ones when told', async () => {
    const owner = await registerTenant(t.app);
    const { service, professional } = await seedCatalog(t.app, owner);
    const second = (await call(owner, 'POST', '/agenda/services', { name: 'Barba' })).json();
    await call(owner, 'PUT', `/agenda/professionals/${professional.id}`, { serviceIds: [service.id, second.id] });
    await book(t.app, owner, { professionalId: professional.id, serviceId: service.id, startTime: '2020-03-02T10:00', endTime: '2020-03-02T11:00' });
    await book(t.app, owner, { professionalId: professional.id, serviceId: second.id, startTime: '2030-03-04T10:00', endTime: '2030-03-04T11:00' });

    expect((await call(owner, 'DELETE', `/agenda/services/${service.id}`)).statusCode).toBe(204);
    expect((await call(owner, 'DELETE', `/agenda/services/${second.id}?appointments=delete`)).statusCode).toBe(204);
    const data = (await call(owner, 'GET', '/agenda/data?start=2020-01-01&end=2020-12-31')).json();
    expect(data.professionals[0].serviceIds).toEqual([]);
    expect(await rowCounts(owner.tenant.id)).toEqual({ professionals: 1, services: 0, appointments: 0, timeBlocks: 0 });
  });
});

describe("another tenant's ids", () => {
  it('answer 404 everywhere and are never written to or shown', async () => {
    const owner = await registerTenant(t.app);
    const mine = await seedCatalog(t.app, owner);
    const other = await registerTenant(t.app);
    const theirs = await seedCatalog(t.app, other, { professionalName: 'Secreto Ajeno' });
    const theirAppointment = await book(t.app, other, {
      professionalId: theirs.professional.id,
      serviceId: theirs.service.id,
      clientName: 'Cliente Ajeno',
      startTime: '2030-03-04T10:00',
      endTime: '2030-03-04T11:00',
    });
    const theirBlock = (
      await call(other, 'POST', '/agenda/time-blocks', { professionalId: theirs.professional.id, startTime: '2030-03-04T13:00', endTime: '2030-03-04T14:00' })
    ).json();
    const before = await rowCounts(other.tenant.id);

    const slot = { startTime: '2030-03-04T15:00', endTime: '2030-03-04T16:00' };
    const attempts: Array<[string, string, unknown, string]> = [
      ['PUT', `/agenda/professionals/${theirs.professional.id}`, { name: 'Robado' }, PROFESSIONAL_NOT_FOUND],
      ['DELETE', `/agenda/professionals/${theirs.professional.id}?appointments=delete`, undefined, PROFESSIONAL_NOT_FOUND],
      ['PUT', `/agenda/services/${theirs.service.id}`, { cost: 1 }, SERVICE_NOT_FOUND],
      ['DELETE', `/agenda/services/${theirs.service.id}?appointments=delete`, undefined, SERVICE_NOT_FOUND],
      ['PUT', `/agenda/appointments/${theirAppointment.id}`, { clientName: 'Robado' }, 'Cita no encontrada.'],
      ['DELETE', `/agenda/appointments/${theirAppointment.id}`, undefined, 'Cita no encontrada.'],
      ['PUT', `/agenda/time-blocks/${theirBlock.id}`, { reason: 'x' }, 'Bloque de tiempo no encontrado.'],
      ['DELETE', `/agenda/time-blocks/${theirBlock.id}`, undefined, 'Bloque de tiempo no encontrado.'],
      [
        'POST',
        '/agenda/appointments',
        { clientName: 'Ana', professionalId: theirs.professional.id, serviceId: mine.service.id, ...slot },
        PROFESSIONAL_NOT_FOUND,
      ],
      ['POST', '/agenda/appointments', { clientName: 'Ana', professionalId: mine.professional.id, serviceId: theirs.service.id, ...slot }, SERVICE_NOT_FOUND],
      ['POST', '/agenda/time-blocks', { professionalId: theirs.professional.id, ...slot }, PROFESSIONAL_NOT_FOUND],
      ['PUT', `/agenda/professionals/${mine.professional.id}`, { serviceIds: [theirs.service.id] }, SERVICE_NOT_FOUND],
      [
        'GET',
        `/agenda/availability?professionalId=${theirs.professional.id}&serviceId=${theirs.service.id}&date=2030-03-04`,
        undefined,
        PROFESSIONAL_NOT_FOUND,
      ],
    ];
    for (const [method, path, payload, message] of attempts) {
      const response = await call(owner, method as 'PUT', path, payload);
      expect(response.statusCode, `${method} ${path}`).toBe(404);
      expect(response.json().message, `${method} ${path}`).toBe(message);
    }
    expect(await rowCounts(other.tenant.id)).toEqual(before);
    const data = await call(owner, 'GET', `/agenda/data?${WEEK}`);
    expect(data.body).not.toContain('Ajeno');
    expect(data.json().professionals.map((entry: { id: string }) => entry.id)).toEqual([mine.professional.id]);
  });
});

describe('roles', () => {
  it('lets a viewer read only, an agent book and block, owners and admins manage the catalogue', async () => {
    const owner = await registerTenant(t.app);
    const { service, professional } = await seedCatalog(t.app, owner);
    const viewer = await signInMember(t, owner, 'viewer');
    const agent = await signInMember(t, owner, 'agent');
    const admin = await signInMember(t, owner, 'admin');
    const appointment = {
      clientName: 'Ana',
      professionalId: professional.id,
      serviceId: service.id,
      startTime: '2030-03-04T10:00',
      endTime: '2030-03-04T11:00',
    };
    const block = { professionalId: professional.id, startTime: '2030-03-04T13:00', endTime: '2030-03-04T14:00' };

    expect((await call(viewer, 'GET', `/agenda/data?${WEEK}`)).statusCode).toBe(200);
    expect((await call(viewer, 'GET', '/agenda/settings')).statusCode).toBe(200);
    expect((await call(viewer, 'GET', `/agenda/availability?professionalId=${professional.id}&serviceId=${service.id}&date=2030-03-04`)).statusCode).toBe(200);
    const viewerWrites: Array<[string, string, unknown]> = [
      ['POST', '/agenda/professionals', { name: 'X' }],
      ['PUT', `/agenda/professionals/${professional.id}`, { name: 'X' }],
      ['DELETE', `/agenda/professionals/${professional.id}`, undefined],
      ['POST', '/agenda/services', { name: 'X' }],
      ['PUT', `/agenda/services/${service.id}`, { name: 'X' }],
      ['DELETE', `/agenda/services/${service.id}`, undefined],
      ['POST', '/agenda/appointments', appointment],
      ['POST', '/agenda/time-blocks', block],
      ['PUT', '/agenda/settings', { timezone: 'Europe/Madrid' }],
    ];
    for (const [method, path, payload] of viewerWrites) {
      await expectRefused(await call(viewer, method as 'POST', path, payload), 403, VIEWER_READ_ONLY);
    }

    for (const [method, path, payload] of viewerWrites.slice(0, 6)) {
      await expectRefused(await call(agent, method as 'POST', path, payload), 403, OWNER_OR_ADMIN_ONLY);
    }
    const booked = await call(agent, 'POST', '/agenda/appointments', appointment);
    expect(booked.statusCode).toBe(201);
    const blocked = await call(agent, 'POST', '/agenda/time-blocks', block);
    expect(blocked.statusCode).toBe(201);
    await expectRefused(await call(viewer, 'PUT', `/agenda/appointments/${booked.json().id}`, { clientName: 'X' }), 403, VIEWER_READ_ONLY);
    await expectRefused(await call(viewer, 'DELETE', `/agenda/appointments/${booked.json().id}`), 403, VIEWER_READ_ONLY);
    await expectRefused(await call(viewer, 'PUT', `/agenda/time-blocks/${blocked.json().id}`, { reason: 'X' }), 403, VIEWER_READ_ONLY);
    await expectRefused(await call(viewer, 'DELETE', `/agenda/time-blocks/${blocked.json().id}`), 403, VIEWER_READ_ONLY);
    expect((await call(agent, 'PUT', `/agenda/appointments/${booked.json().id}`, { clientName: 'Ana María' })).statusCode).toBe(200);
    expect((await call(agent, 'DELETE', `/agenda/time-blocks/${blocked.json().id}`)).statusCode).toBe(204);
    expect((await call(agent, 'DELETE', `/agenda/appointments/${booked.json().id}`)).statusCode).toBe(204);
    await expectRefused(await call(agent, 'PUT', '/agenda/settings', { timezone: 'Europe/Madrid' }), 403, OWNER_ONLY);

    expect((await call(admin, 'POST', '/agenda/services', { name: 'Barba' })).statusCode).toBe(201);
    expect(
      (
        await call(admin, 'PUT', `/agenda/professionals/${professional.id}`, {
          availability: { sunday: { startTime: '10:00', endTime: '12:00', enabled: true } },
        })
      ).statusCode,
    ).toBe(200);
    await expectRefused(await call(admin, 'PUT', '/agenda/settings', { timezone: 'Europe/Madrid' }), 403, OWNER_ONLY);
    expect(await rowCounts(owner.tenant.id)).toEqual({ professionals: 1, services: 2, appointments: 0, timeBlocks: 0 });
  });
});

describe('time zone settings', () => {
  it("lets the owner change the tenant's time zone to a valid IANA one, in its canonical spelling", async () => {
    const owner = await registerTenant(t.app);
    expect((await t.app.inject({ method: 'GET', url: '/api/agenda/settings', headers: bearer(owner.token) })).json()).toEqual({ timezone: 'America/Bogota' });

    for (const timezone of ['Mars/Olympus', '', 'America/Bogotá']) {
      await expectRefused(await call(owner, 'PUT', '/agenda/settings', { timezone }), 400, INVALID_TIME_ZONE);
    }
    await expectRefused(await call(owner, 'PUT', '/agenda/settings', {}), 400, INVALID_TIME_ZONE);
    expect((await call(owner, 'GET', '/agenda/settings')).json()).toEqual({ timezone: 'America/Bogota' });

    const changed = await call(owner, 'PUT', '/agenda/settings', { timezone: 'europe/madrid' });
    expect(changed.json()).toEqual({ timezone: 'Europe/Madrid' });
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(owner.token) })).json().tenant.timezone).toBe('Europe/Madrid');

    // From now on wall-clock times are Madrid's (UTC+1 in March).
    const { service, professional } = await seedCatalog(t.app, owner);
    const appointment = await book(t.app, owner, {
      professionalId: professional.id,
      serviceId: service.id,
      startTime: '2030-03-04T10:00',
      endTime: '2030-03-04T11:00',
    });
    expect(appointment.startTime).toBe('2030-03-04T09:00:00.000Z');
  });
});

describe('data range query', () => {
  it("answers the current week of the company's calendar when no range is given", async () => {
    const owner = await registerTenant(t.app);
    const { service, professional } = await seedCatalog(t.app, owner);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Bogota' }).format(new Date());
    const thisWeek = await book(t.app, owner, {
      professionalId: professional.id,
      serviceId: service.id,
      startTime: `${today}T00:00`,
      endTime: `${today}T00:30`,
    });
    await book(t.app, owner, { professionalId: professional.id, serviceId: service.id, startTime: '2020-03-02T10:00', endTime: '2020-03-02T11:00' });
    const response = await t.app.inject({ method: 'GET', url: '/api/agenda/data', headers: bearer(owner.token) });
    expect(response.statusCode).toBe(200);
    expect(response.json().appointments.map((entry: { id: string }) => entry.id)).toEqual([thisWeek.id]);
  });

  it.each([
    ['no start', 'end=2030-03-10', 'Indica el inicio y el fin del rango (start y end).'],
    ['no end', 'start=2030-03-04', 'Indica el inicio y el fin del rango (start y end).'],
    ['a start that is not a date', 'start=ayer&end=2030-03-10', /Fecha inválida/],
    ['an impossible date', 'start=2030-02-30&end=2030-03-10', /Fecha inválida/],
    ['an end before the start', 'start=2030-03-10&end=2030-03-04', 'El fin del rango debe ser posterior al inicio.'],
    ['a range of more than 400 days', 'start=2030-01-01&end=2031-12-31', 'El rango no puede superar 400 días.'],
  ])('refuses %s with 400', async (_label, query, message) => {
    const owner = await registerTenant(t.app);
    await expectRefused(await call(owner, 'GET', `/agenda/data?${query}`), 400, message);
  });
});

describe('contact search', () => {
  async function chatWith(tenantId: string, phone: string, name: string, isGroup = false) {
    const contact = await upsertContact(t.database.db, tenantId, { phone, name, isGroup });
    return (await findOrCreateCard(t.database.db, tenantId, contact)).card;
  }

  it("finds the tenant's chat contacts by name or phone, never groups or other tenants' contacts, within the funnels a member sees", async () => {
    const owner = await registerTenant(t.app);
    const other = await registerTenant(t.app);
    const laura = await chatWith(owner.tenant.id, '573001112233', 'Laura Díaz');
    await chatWith(owner.tenant.id, '573009998877', 'Pedro Laurel');
    await chatWith(owner.tenant.id, '120363000000000001', 'Laureles grupo', true);
    await chatWith(other.tenant.id, '573001112299', 'Laura Ajena');

    const byName = await t.app.inject({ method: 'GET', url: '/api/agenda/search-contacts?q=laur', headers: bearer(owner.token) });
    expect(byName.statusCode).toBe(200);
    expect(
      byName
        .json()
        .map((contact: { name: string }) => contact.name)
        .sort(),
    ).toEqual(['Laura Díaz', 'Pedro Laurel']);
    expect((await call(owner, 'GET', '/agenda/search-contacts?q=%2B57%20300%20111')).json()).toEqual([
      { id: laura.contactId, name: 'Laura Díaz', phone: '573001112233' },
    ]);
    expect((await call(owner, 'GET', '/agenda/search-contacts?q=100%25')).json()).toEqual([]);
    expect((await call(owner, 'GET', '/agenda/search-contacts?q=')).json()).toEqual([]);

    const unassigned = await signInMember(t, owner, 'agent');
    expect((await call(unassigned, 'GET', '/agenda/search-contacts?q=laur')).json()).toEqual([]);
    const assigned = await signInMember(t, owner, 'viewer', [laura.funnelId]);
    expect((await call(assigned, 'GET', '/agenda/search-contacts?q=laura')).json()).toEqual([
      { id: laura.contactId, name: 'Laura Díaz', phone: '573001112233' },
    ]);
  });
});
