import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { registerTenant } from '../../../test/support/factories.ts';
import { agendaCaller, book, seedCatalog } from '../../../test/support/agenda-fixtures.ts';

/**
 * Day, week and month queries in Europe/Madrid, where March 2030 starts at UTC+1 and switches to
 * UTC+2 on Sunday the 31st: a UTC calendar would put some of these appointments in the wrong day.
 */
let t: TestApp;
let call: ReturnType<typeof agendaCaller>;
let owner: Awaited<ReturnType<typeof registerTenant>>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp();
  call = agendaCaller(t.app);
  owner = await registerTenant(t.app, { timezone: 'Europe/Madrid' });
  const { service, professional } = await seedCatalog(t.app, owner);
  const local: Record<string, [string, string]> = {
    lastOfFebruary: ['2030-02-28T23:30', '2030-02-28T23:50'],
    // 23:10 UTC on 28 February: in March only in Madrid.
    firstOfMarch: ['2030-03-01T00:10', '2030-03-01T00:40'],
    sundayBeforeWeek: ['2030-03-03T23:30', '2030-03-03T23:59'],
    mondayMidnight: ['2030-03-04T00:00', '2030-03-04T00:30'],
    acrossMidnight: ['2030-03-04T23:30', '2030-03-05T00:30'],
    sundayEndOfWeek: ['2030-03-10T23:00', '2030-03-10T23:45'],
    nextMonday: ['2030-03-11T00:00', '2030-03-11T00:30'],
    lastOfMarch: ['2030-03-31T23:00', '2030-03-31T23:30'],
    // 22:15 UTC on 31 March: still March in UTC, April in Madrid.
    firstOfApril: ['2030-04-01T00:15', '2030-04-01T00:45'],
  };
  for (const [name, [startTime, endTime]] of Object.entries(local)) {
    ids[name] = (await book(t.app, owner, { professionalId: professional.id, serviceId: service.id, clientName: name, startTime, endTime })).id;
  }
  await call(owner, 'POST', '/agenda/time-blocks', {
    professionalId: professional.id,
    startTime: '2030-03-03T22:00',
    endTime: '2030-03-03T23:00',
    reason: 'sunday',
  });
  await call(owner, 'POST', '/agenda/time-blocks', {
    professionalId: professional.id,
    startTime: '2030-03-04T08:00',
    endTime: '2030-03-04T09:00',
    reason: 'monday',
  });
});
afterAll(async () => t.close());

async function namesIn(query: string) {
  const response = await call(owner, 'GET', `/agenda/data?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  const data = response.json() as { appointments: Array<{ clientName: string }>; timeBlocks: Array<{ reason: string }> };
  return { appointments: data.appointments.map((entry) => entry.clientName), blocks: data.timeBlocks.map((entry) => entry.reason) };
}

describe("agenda data in the tenant's time zone", () => {
  it('answers a day by its local midnights, with what crosses midnight on both days', async () => {
    expect(await namesIn('start=2030-03-04&end=2030-03-04')).toEqual({ appointments: ['mondayMidnight', 'acrossMidnight'], blocks: ['monday'] });
    expect((await namesIn('start=2030-03-05&end=2030-03-05')).appointments).toEqual(['acrossMidnight']);
    expect(await namesIn('start=2030-03-03&end=2030-03-03')).toEqual({ appointments: ['sundayBeforeWeek'], blocks: ['sunday'] });
  });

  it('answers a Monday-to-Sunday week with both ends included', async () => {
    expect((await namesIn('start=2030-03-04&end=2030-03-10')).appointments).toEqual(['mondayMidnight', 'acrossMidnight', 'sundayEndOfWeek']);
  });

  it('answers a month by the local calendar, across the change to summer time', async () => {
    expect((await namesIn('start=2030-03-01&end=2030-03-31')).appointments).toEqual([
      'firstOfMarch',
      'sundayBeforeWeek',
      'mondayMidnight',
      'acrossMidnight',
      'sundayEndOfWeek',
      'nextMonday',
      'lastOfMarch',
    ]);
    expect((await namesIn('start=2030-04-01&end=2030-04-30')).appointments).toEqual(['firstOfApril']);
    expect((await namesIn('start=2030-02-01&end=2030-02-28')).appointments).toEqual(['lastOfFebruary']);
  });

  it('takes instants as the web client sends them: start included, end excluded', async () => {
    // Madrid's Monday 4 March 00:00 is 23:00 UTC on the 3rd; the next Monday's midnight ends the week.
    const week = 'start=2030-03-03T23:00:00.000Z&end=2030-03-10T23:00:00.000Z';
    expect((await namesIn(week)).appointments).toEqual(['mondayMidnight', 'acrossMidnight', 'sundayEndOfWeek']);
    expect((await namesIn('start=2030-03-04T00:00&end=2030-03-04T00:30')).appointments).toEqual(['mondayMidnight']);
    expect((await namesIn('start=2030-03-04T00:30&end=2030-03-04T23:30')).appointments).toEqual([]);
  });

  it('stores a wall-clock time after the change to summer time with the new offset', async () => {
    const { appointments } = (await call(owner, 'GET', '/agenda/data?start=2030-03-31&end=2030-04-01')).json() as {
      appointments: Array<{ id: string; startTime: string }>;
    };
    expect(appointments.find((entry) => entry.id === ids.lastOfMarch)?.startTime).toBe('2030-03-31T21:00:00.000Z');
    expect(appointments.find((entry) => entry.id === ids.firstOfApril)?.startTime).toBe('2030-03-31T22:15:00.000Z');
  });
});
