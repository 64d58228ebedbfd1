import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NOT_OFFERED } from '@embudo/contracts/http/agenda';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { agendaCaller, book, seedCatalog } from '../../../test/support/agenda-fixtures.ts';
import { freeStartTimes } from './availability.service.ts';

/** Tenants registered by the factory are in America/Bogota (UTC-5). 4 March 2030 is a Monday. */
let t: TestApp;
let call: ReturnType<typeof agendaCaller>;
beforeAll(async () => {
  t = await buildTestApp();
  call = agendaCaller(t.app);
});
afterAll(async () => t.close());

type Owner = Awaited<ReturnType<typeof registerTenant>>;

async function times(owner: Owner, professionalId: string, serviceId: string, date: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/agenda/availability?professionalId=${professionalId}&serviceId=${serviceId}&date=${date}`,
    headers: bearer(owner.token),
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { slots: Array<{ time: string }> }).slots.map((slot) => slot.time);
}

const halfHours = (from: string, to: string) => {
  const result: string[] = [];
  for (let minutes = Number(from.slice(0, 2)) * 60 + Number(from.slice(3)); minutes <= Number(to.slice(0, 2)) * 60 + Number(to.slice(3)); minutes += 30) {
    result.push(`${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`);
  }
  return result;
};

describe('free start times', () => {
  it("offers the weekday hours on a grid, each start leaving room for the whole service, in the tenant's time zone", async () => {
    const owner = await registerTenant(t.app);
    const { service, professional } = await seedCatalog(t.app, owner, { duration: 60 });
    const response = await call(owner, 'GET', `/agenda/availability?professionalId=${professional.id}&serviceId=${service.id}&date=2030-03-04`);
    expect(response.json()).toMatchObject({
      date: '2030-03-04',
      timezone: 'America/Bogota',
      professionalId: professional.id,
      serviceId: service.id,
      duration: 60,
    });
    expect(response.json().slots[0]).toEqual({ startTime: '2030-03-04T14:00:00.000Z', endTime: '2030-03-04T15:00:00.000Z', time: '09:00' });
    expect(await times(owner, professional.id, service.id, '2030-03-04')).toEqual(halfHours('09:00', '16:00'));
  });

  it('offers nothing on a weekday that is off, and the hours of a day once it is enabled', async () => {
    const owner = await registerTenant(t.app);
    const { service, professional } = await seedCatalog(t.app, owner, { duration: 60 });
    expect(await times(owner, professional.id, service.id, '2030-03-09')).toEqual([]);
    await call(owner, 'PUT', `/agenda/professionals/${professional.id}`, {
      availability: { saturday: { startTime: '10:00', endTime: '12:00', enabled: true }, monday: { startTime: '09:00', endTime: '17:00', enabled: false } },
    });
    expect(await times(owner, professional.id, service.id, '2030-03-09')).toEqual(['10:00', '10:30', '11:00']);
    expect(await times(owner, professional.id, service.id, '2030-03-04')).toEqual([]);
  });

  it('leaves out blocked time and existing appointments, and adds time opened by an available block', async () => {
    const owner = await registerTenant(t.app);
    const { service, professional } = await seedCatalog(t.app, owner, { duration: 60 });
    await call(owner, 'POST', '/agenda/time-blocks', { professionalId: professional.id, startTime: '2030-03-04T12:00', endTime: '2030-03-04T14:00' });
    await book(t.app, owner, { professionalId: professional.id, serviceId: service.id, startTime: '2030-03-04T10:00', endTime: '2030-03-04T10:30' });
    expect(await times(owner, professional.id, service.id, '2030-03-04')).toEqual(['09:00', '10:30', '11:00', '14:00', '14:30', '15:00', '15:30', '16:00']);

    await call(owner, 'POST', '/agenda/time-blocks', {
      professionalId: professional.id,
      startTime: '2030-03-10T09:00',
      endTime: '2030-03-10T11:00',
      isAvailable: true,
    });
    expect(await times(owner, professional.id, service.id, '2030-03-10')).toEqual(['09:00', '09:30', '10:00']);
    // An opened block right after the weekday hours extends them: a start may span both.
    await call(owner, 'POST', '/agenda/time-blocks', {
      professionalId: professional.id,
      startTime: '2030-03-05T17:00',
      endTime: '2030-03-05T18:00',
      isAvailable: true,
    });
    expect((await times(owner, professional.id, service.id, '2030-03-05')).slice(-3)).toEqual(['16:00', '16:30', '17:00']);
  });

  it('offers nothing where the service is longer than the gap', async () => {
    const owner = await registerTenant(t.app);
    const { service, professional } = await seedCatalog(t.app, owner, { duration: 60 });
    const long = (await call(owner, 'POST', '/agenda/services', { name: 'Tratamiento', duration: 90 })).json();
    await call(owner, 'PUT', `/agenda/professionals/${professional.id}`, { serviceIds: [service.id, long.id] });
    await book(t.app, owner, { professionalId: professional.id, serviceId: service.id, startTime: '2030-03-04T09:00', endTime: '2030-03-04T10:00' });
    await book(t.app, owner, { professionalId: professional.id, serviceId: service.id, startTime: '2030-03-04T11:00', endTime: '2030-03-04T17:00' });
    expect(await times(owner, professional.id, service.id, '2030-03-04')).toEqual(['10:00']);
    expect(await times(owner, professional.id, long.id, '2030-03-04')).toEqual([]);
  });

  it('steps by the service length when it is shorter than 30 minutes, and never offers a time already past', async () => {
    const owner = await registerTenant(t.app);
    const { service, professional } = await seedCatalog(t.app, owner, { duration: 15 });
    const slots = await times(owner, professional.id, service.id, '2030-03-04');
    expect(slots.slice(0, 3)).toEqual(['09:00', '09:15', '09:30']);
    expect(slots.at(-1)).toBe('16:45');
    expect(await times(owner, professional.id, service.id, '2020-03-02')).toEqual([]);

    // 10:10 in Bogota: the next free start is 10:15.
    const answer = await freeStartTimes(
      t.database.db,
      owner.tenant.id,
      { professionalId: professional.id, serviceId: service.id, date: '2030-03-04' },
      new Date('2030-03-04T15:10:00Z'),
    );
    expect(answer.slots[0]?.time).toBe('10:15');
  });

  it('refuses a service the professional does not offer, and bad input', async () => {
    const owner = await registerTenant(t.app);
    const { professional } = await seedCatalog(t.app, owner);
    const other = (await call(owner, 'POST', '/agenda/services', { name: 'Manicura' })).json();
    const query = (params: string) => call(owner, 'GET', `/agenda/availability?${params}`);
    expect((await query(`professionalId=${professional.id}&serviceId=${other.id}&date=2030-03-04`)).json().message).toBe(SERVICE_NOT_OFFERED);
    expect((await query(`professionalId=${professional.id}&serviceId=${other.id}&date=2030-02-30`)).json().message).toBe('Fecha inválida: usa AAAA-MM-DD.');
    expect((await query(`professionalId=${professional.id}&serviceId=${other.id}`)).json().message).toBe('Indica la fecha (date=AAAA-MM-DD).');
    expect((await query(`serviceId=${other.id}&date=2030-03-04`)).statusCode).toBe(400);
    expect((await query(`professionalId=x&serviceId=${other.id}&date=2030-03-04`)).json().message).toBe('Profesional inválido.');
  });
});
