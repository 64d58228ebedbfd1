import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '@embudo/contracts/http/auth';
import type { AgendaData, AppointmentDto, ProfessionalDto, ServiceDto } from '@embudo/contracts/http/agenda';
import { defaultAvailability } from '@embudo/contracts/http/agenda';
import { installFakeApi, json } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aTenant, aUser, storeSession } from '../../test/session-fixture.ts';
import { formatCost } from './agenda-format.ts';
import { contactQuery } from './ContactSearch.tsx';

/** Wednesday 6 March 2030, 11:00 in Mexico City (UTC-6), the fixture tenant's time zone. */
const NOW = new Date('2030-03-06T17:00:00Z');
const WEEK_URL = `/t/acme/api/agenda/data?start=${encodeURIComponent('2030-03-04T06:00:00.000Z')}&end=${encodeURIComponent('2030-03-11T06:00:00.000Z')}`;
const MONTH_URL = `/t/acme/api/agenda/data?start=${encodeURIComponent('2030-02-25T06:00:00.000Z')}&end=${encodeURIComponent('2030-04-08T06:00:00.000Z')}`;

const cut: ServiceDto = { id: 's-cut', name: 'Corte', duration: 30, cost: 15.5 };
const dye: ServiceDto = { id: 's-dye', name: 'Tinte', duration: 90, cost: 60 };
const lucia: ProfessionalDto = { id: 'p-lucia', name: 'Lucía', color: 'blue', serviceIds: ['s-cut'], availability: defaultAvailability() };
const marta: ProfessionalDto = { id: 'p-marta', name: 'Marta', color: 'red', serviceIds: ['s-cut', 's-dye'], availability: defaultAvailability() };
const appointment: AppointmentDto = {
  id: 'a1',
  clientName: 'Juan Pérez',
  clientWhatsapp: '525512345678',
  professionalId: 'p-marta',
  serviceId: 's-dye',
  startTime: '2030-03-05T16:00:00.000Z',
  endTime: '2030-03-05T17:30:00.000Z',
  cost: 60,
  professionalColor: 'red',
  professionalName: 'Marta',
  serviceName: 'Tinte',
};

function agendaData(overrides: Partial<AgendaData> = {}): AgendaData {
  return { professionals: [lucia, marta], services: [cut, dye], appointments: [appointment], timeBlocks: [], ...overrides };
}

afterEach(() => vi.useRealTimers());

async function openAgenda(options: { role?: Role; data?: AgendaData; handlers?: Parameters<typeof installFakeApi>[0] } = {}) {
  // Only the clock is fixed: timers stay real for the query client and the debounce.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  const user = aUser({ role: options.role ?? 'owner' });
  const tenant = aTenant();
  storeSession(user, tenant);
  const data = options.data ?? agendaData();
  const api = installFakeApi({
    'GET /api/auth/me': () => json(200, { user, tenant }),
    'GET /t/acme/api/agenda/settings': () => json(200, { timezone: 'America/Mexico_City' }),
    [`GET ${WEEK_URL}`]: () => json(200, data),
    [`GET ${MONTH_URL}`]: () => json(200, data),
    ...options.handlers,
  });
  renderApp('/t/acme/agenda');
  // The first render loads the lazy signed-in screens, slow on a busy machine.
  await screen.findByText('4 – 10 de marzo de 2030', undefined, { timeout: 5000 });
  await waitFor(() => expect(screen.queryAllByTestId('day-column').length).toBeGreaterThan(0));
  return api;
}

function lane(date: string, professionalId: string) {
  const element = screen.getAllByTestId('time-lane').find((entry) => entry.dataset.date === date && entry.dataset.professionalId === professionalId)!;
  // jsdom lays nothing out: the lane is 1440 px tall, one per minute, like in the browser.
  vi.spyOn(element, 'getBoundingClientRect').mockReturnValue({
    top: 100,
    height: 1440,
    left: 0,
    width: 100,
    bottom: 1540,
    right: 100,
    x: 0,
    y: 100,
    toJSON: () => ({}),
  });
  return element;
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('agenda screen', () => {
  it('lists professionals with their colour and services with the cost to 2 decimals', async () => {
    await openAgenda();
    const professionals = within(screen.getByRole('region', { name: 'Profesionales' }));
    expect(professionals.getAllByTestId('professional-row').map((row) => row.textContent)).toEqual(['Lucía', 'Marta']);
    expect(professionals.getByRole('button', { name: 'Disponibilidad de Lucía' })).toBeTruthy();
    expect(professionals.getByRole('button', { name: 'Añadir' })).toBeTruthy();
    const services = within(screen.getByRole('region', { name: 'Servicios' }));
    expect(services.getAllByTestId('service-row').map((row) => row.textContent)).toEqual(['Corte$15.50', 'Tinte$60.00']);
    expect(formatCost('gratis')).toBe('$0.00');
    expect(screen.getAllByTestId('day-column').map((column) => column.dataset.date)).toEqual([
      '2030-03-04',
      '2030-03-05',
      '2030-03-06',
      '2030-03-07',
      '2030-03-08',
      '2030-03-09',
      '2030-03-10',
    ]);
    expect(screen.getByTestId('current-time-line').parentElement?.closest('[data-testid="day-column"]')?.getAttribute('data-date')).toBe('2030-03-06');
    expect(screen.getByTestId('current-time-line').style.top).toBe('660px');
    const item = screen.getByTestId('appointment-item');
    expect(item.closest('[data-testid="time-lane"]')?.getAttribute('data-professional-id')).toBe('p-marta');
    expect(item.style.top).toBe('600px');
    expect(item.style.height).toBe('90px');
  });

  it("warns before saving a booking outside the professional's weekly hours, saves it all the same, and marks it on the calendar", async () => {
    const saturday: AppointmentDto = {
      ...appointment,
      id: 'a-sat',
      professionalId: 'p-lucia',
      professionalName: 'Lucía',
      startTime: '2030-03-09T16:00:00.000Z',
      endTime: '2030-03-09T17:00:00.000Z',
    };
    const api = await openAgenda({
      data: agendaData({ appointments: [appointment, saturday] }),
      handlers: { 'POST /t/acme/api/agenda/appointments': ({ body }) => json(201, { ...appointment, ...(body as object), id: 'a2' }) },
    });
    // Marta's Tuesday 10:00 fits her week; Lucía's Saturday does not, and says why.
    const marks = screen.getAllByTestId('outside-hours-mark');
    expect(marks).toHaveLength(1);
    expect(marks[0]!.closest('[data-testid="appointment-item"]')?.getAttribute('data-appointment-id')).toBe('a-sat');
    expect(marks[0]!.getAttribute('aria-label')).toBe('Fuera del horario de Lucía: lunes a viernes 09:00–17:00');

    fireEvent.click(lane('2030-03-07', 'p-lucia'), { clientY: 100 + 16 * 60 });
    await screen.findByRole('heading', { name: 'Nueva cita' });
    expect(screen.queryByTestId('outside-hours-warning')).toBeNull();
    fireEvent.change(field('Hora de fin'), { target: { value: '17:30' } });
    expect(screen.getByTestId('outside-hours-warning').textContent).toBe('Fuera del horario de Lucía: lunes a viernes 09:00–17:00');
    fireEvent.change(field('Hora de fin'), { target: { value: '17:00' } });
    expect(screen.queryByTestId('outside-hours-warning')).toBeNull();
    fireEvent.change(field('Fecha'), { target: { value: '2030-03-10' } });
    expect(screen.getByTestId('outside-hours-warning')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Servicio'), { target: { value: 's-cut' } });
    fireEvent.change(field('Nombre del cliente'), { target: { value: 'Eva' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(api.callsTo('POST', '/t/acme/api/agenda/appointments')).toHaveLength(1));
    expect(api.callsTo('POST', '/t/acme/api/agenda/appointments')[0]!.body).toMatchObject({ startTime: '2030-03-10T16:00', endTime: '2030-03-10T17:00' });
  });

  it('books at the clicked time for the clicked professional, offering only their services and filling the cost', async () => {
    const api = await openAgenda({
      handlers: { 'POST /t/acme/api/agenda/appointments': ({ body }) => json(201, { ...appointment, ...(body as object), id: 'a2' }) },
    });
    fireEvent.click(lane('2030-03-07', 'p-lucia'), { clientY: 100 + 14 * 60 + 20 });
    await screen.findByRole('heading', { name: 'Nueva cita' });
    expect(field('Fecha').value).toBe('2030-03-07');
    expect(field('Hora de inicio').value).toBe('14:15');
    expect(field('Hora de fin').value).toBe('15:15');
    expect((screen.getByLabelText('Profesional') as HTMLSelectElement).value).toBe('p-lucia');
    const serviceOptions = () =>
      within(screen.getByLabelText('Servicio'))
        .getAllByRole('option')
        .map((option) => option.textContent);
    expect(serviceOptions()).toEqual(['Selecciona un servicio', 'Corte']);

    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Por favor completa todos los campos.')).toBeTruthy();
    expect(api.callsTo('POST', '/t/acme/api/agenda/appointments')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Profesional'), { target: { value: 'p-marta' } });
    expect(serviceOptions()).toEqual(['Selecciona un servicio', 'Corte', 'Tinte']);
    fireEvent.change(screen.getByLabelText('Servicio'), { target: { value: 's-dye' } });
    expect(field('Costo').value).toBe('60');
    fireEvent.change(field('Nombre del cliente'), { target: { value: '  Eva  ' } });
    fireEvent.change(field('Hora de fin'), { target: { value: '14:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('La hora de fin debe ser posterior a la hora de inicio.')).toBeTruthy();

    fireEvent.change(field('Hora de fin'), { target: { value: '15:45' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Cita guardada')).toBeTruthy();
    expect(api.callsTo('POST', '/t/acme/api/agenda/appointments')[0]!.body).toEqual({
      clientName: 'Eva',
      clientWhatsapp: '',
      professionalId: 'p-marta',
      serviceId: 's-dye',
      startTime: '2030-03-07T14:15',
      endTime: '2030-03-07T15:45',
      cost: 60,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("shows the server's refusal, or the fallback, when a booking fails", async () => {
    let answer = json(409, { code: 'CONFLICT', message: 'Marta ya tiene una cita de 10:00 a 11:30 (Juan Pérez). Elige otro horario.' });
    await openAgenda({ handlers: { 'POST /t/acme/api/agenda/appointments': () => answer } });
    fireEvent.click(lane('2030-03-05', 'p-marta'), { clientY: 100 + 10 * 60 });
    fireEvent.change(await screen.findByLabelText('Nombre del cliente'), { target: { value: 'Eva' } });
    fireEvent.change(screen.getByLabelText('Servicio'), { target: { value: 's-cut' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Marta ya tiene una cita de 10:00 a 11:30 (Juan Pérez). Elige otro horario.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Nueva cita' })).toBeTruthy();

    answer = new Response('<html>proxy error</html>', { status: 502 });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Error al guardar la cita.')).toBeTruthy();
  });

  it('searches contacts only for more than 2 characters that stopped changing', () => {
    expect(contactQuery('La', 'La')).toBeNull();
    expect(contactQuery(' La ', ' La ')).toBeNull();
    expect(contactQuery('Lau', 'Lau')).toBe('Lau');
    expect(contactQuery('Laur', 'Lau')).toBeNull();
    expect(contactQuery('Laur ', 'Laur')).toBe('Laur');
  });

  it('searches contacts once the typing pauses, and fills the client from the pick', async () => {
    const api = await openAgenda({
      handlers: { 'GET /t/acme/api/agenda/search-contacts?q=Laur': () => json(200, [{ id: 'c1', name: 'Laura Díaz', phone: '525511112222' }]) },
    });
    fireEvent.click(lane('2030-03-07', 'p-lucia'), { clientY: 700 });
    const search = await screen.findByLabelText('Buscar contacto');
    fireEvent.change(search, { target: { value: 'La' } });
    fireEvent.change(search, { target: { value: 'Lau' } });
    fireEvent.change(search, { target: { value: 'Laur' } });
    fireEvent.click(await screen.findByRole('button', { name: /Laura Díaz/ }));
    const searches = api.calls.filter((call) => call.url.includes('search-contacts'));
    expect(searches.map((call) => call.url)).toEqual(['/t/acme/api/agenda/search-contacts?q=Laur']);
    expect(field('Nombre del cliente').value).toBe('Laura Díaz');
    expect(field('WhatsApp').value).toBe('525511112222');
  });

  it('opens a time block on right-click and saves it', async () => {
    const api = await openAgenda({
      handlers: { 'POST /t/acme/api/agenda/time-blocks': ({ body }) => json(201, { id: 'b1', reason: '', ...(body as object) }) },
    });
    fireEvent.contextMenu(lane('2030-03-08', 'p-lucia'), { clientY: 100 + 13 * 60 });
    await screen.findByRole('heading', { name: 'Nuevo bloque de tiempo' });
    expect(field('Hora de inicio').value).toBe('13:00');
    fireEvent.change(field('Hora de fin'), { target: { value: '18:00' } });
    fireEvent.change(field('Motivo'), { target: { value: 'Médico' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Bloque de tiempo guardado')).toBeTruthy();
    expect(api.callsTo('POST', '/t/acme/api/agenda/time-blocks')[0]!.body).toEqual({
      professionalId: 'p-lucia',
      startTime: '2030-03-08T13:00',
      endTime: '2030-03-08T18:00',
      isAvailable: false,
      reason: 'Médico',
    });
  });

  it('switches to the 42-day month grid and books on the clicked day', async () => {
    await openAgenda();
    fireEvent.click(screen.getByRole('button', { name: 'Mes' }));
    expect(await screen.findByText('Marzo de 2030')).toBeTruthy();
    const cells = await screen.findAllByTestId('month-cell');
    expect(cells).toHaveLength(42);
    expect(screen.getByTestId('month-grid').textContent).toContain('LunMarMiéJueVieSábDom');
    const march5 = cells.find((cell) => cell.dataset.date === '2030-03-05')!;
    expect(within(march5).getByTestId('appointment-item').textContent).toContain('10:00Juan Pérez');
    fireEvent.click(cells.find((cell) => cell.dataset.date === '2030-03-21')!);
    await screen.findByRole('heading', { name: 'Nueva cita' });
    expect(field('Fecha').value).toBe('2030-03-21');
    expect(field('Hora de inicio').value).toBe('09:00');
    expect(field('Hora de fin').value).toBe('10:00');
  });

  it('shows the 24-hour grid before any professional exists, and a month click still opens a new appointment', async () => {
    await openAgenda({ data: agendaData({ professionals: [], services: [], appointments: [] }) });
    expect(screen.getByText('Añade un profesional en la barra lateral para empezar a agendar citas.')).toBeTruthy();
    expect(screen.getAllByTestId('day-column')).toHaveLength(7);
    const grid = screen.getByTestId('time-grid');
    for (const hour of ['00:00', '08:00', '23:00']) expect(within(grid).getByText(hour)).toBeTruthy();
    expect(screen.queryAllByTestId('time-lane')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Mes' }));
    const cells = await screen.findAllByTestId('month-cell');
    fireEvent.click(cells.find((cell) => cell.dataset.date === '2030-03-21')!);
    await screen.findByRole('heading', { name: 'Nueva cita' });
    expect(field('Fecha').value).toBe('2030-03-21');
    expect((screen.getByLabelText('Profesional') as HTMLSelectElement).value).toBe('');
    expect(screen.getByText('Aún no hay profesionales: añade uno en la barra lateral de la agenda.')).toBeTruthy();
  });

  it('says there is nothing to export in an empty range, and how loading failed', async () => {
    await openAgenda({
      handlers: {
        [`GET ${WEEK_URL}`]: () => json(200, agendaData({ appointments: [] })),
        [`GET /t/acme/api/agenda/data?start=${encodeURIComponent('2030-03-11T06:00:00.000Z')}&end=${encodeURIComponent('2030-03-18T06:00:00.000Z')}`]: () =>
          new Response('oops', { status: 500 }),
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Exportar JSON' }));
    expect(await screen.findByText('No hay citas para exportar en el rango actual.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(await screen.findByText('11 – 17 de marzo de 2030')).toBeTruthy();
    expect(await screen.findByText('Fallo al cargar los datos de la agenda.')).toBeTruthy();
  });

  it("lets the owner change the company's time zone", async () => {
    const api = await openAgenda({ handlers: { 'PUT /t/acme/api/agenda/settings': ({ body }) => json(200, body) } });
    const zone = screen.getByLabelText('Zona horaria') as HTMLSelectElement;
    expect(zone.value).toBe('America/Mexico_City');
    fireEvent.change(zone, { target: { value: 'Europe/Madrid' } });
    expect(await screen.findByText('Zona horaria guardada')).toBeTruthy();
    expect(api.callsTo('PUT', '/t/acme/api/agenda/settings')[0]!.body).toEqual({ timezone: 'Europe/Madrid' });
  });

  it('shows an agent the time zone without a control, and no catalogue buttons', async () => {
    await openAgenda({ role: 'agent' });
    expect(screen.getByLabelText('Zona horaria').tagName).toBe('OUTPUT');
    expect(screen.queryByRole('button', { name: 'Añadir' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Disponibilidad de Lucía' })).toBeNull();
  });

  it('lets a viewer look without adding, editing or booking', async () => {
    const api = await openAgenda({ role: 'viewer' });
    expect(screen.queryByRole('button', { name: 'Añadir' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Editar Lucía' })).toBeNull();
    fireEvent.click(lane('2030-03-07', 'p-lucia'), { clientY: 700 });
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByTestId('appointment-item'));
    await screen.findByRole('heading', { name: 'Cita' });
    expect(field('Nombre del cliente').matches(':disabled')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Guardar' })).toBeNull();
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('edits and deletes an appointment, and says when deleting a block failed', async () => {
    const block = {
      id: 'b1',
      professionalId: 'p-lucia',
      startTime: '2030-03-07T19:00:00.000Z',
      endTime: '2030-03-07T22:00:00.000Z',
      isAvailable: false,
      reason: 'Médico',
    };
    const api = await openAgenda({
      data: agendaData({ timeBlocks: [block] }),
      handlers: {
        'PUT /t/acme/api/agenda/appointments/a1': ({ body }) => json(200, { ...appointment, ...(body as object) }),
        'DELETE /t/acme/api/agenda/appointments/a1': () => new Response(null, { status: 204 }),
        'DELETE /t/acme/api/agenda/time-blocks/b1': () => new Response('', { status: 500 }),
      },
    });
    fireEvent.click(screen.getByTestId('appointment-item'));
    await screen.findByRole('heading', { name: 'Editar cita' });
    expect(field('Fecha').value).toBe('2030-03-05');
    expect(field('Hora de inicio').value).toBe('10:00');
    expect(field('Hora de fin').value).toBe('11:30');
    expect(field('Costo').value).toBe('60');
    fireEvent.change(field('Nombre del cliente'), { target: { value: 'Juan P. Gómez' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Cita guardada')).toBeTruthy();
    expect(api.callsTo('PUT', '/t/acme/api/agenda/appointments/a1')[0]!.body).toMatchObject({
      clientName: 'Juan P. Gómez',
      startTime: '2030-03-05T10:00',
      endTime: '2030-03-05T11:30',
      cost: 60,
    });

    fireEvent.click(screen.getByTestId('appointment-item'));
    fireEvent.click(await screen.findByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('¿Seguro que quieres eliminar la cita de Juan Pérez?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Cita eliminada')).toBeTruthy();

    const blockItem = screen.getByTestId('time-block-item');
    expect(blockItem.textContent).toBe('BloqueadoMédico');
    fireEvent.click(blockItem);
    await screen.findByRole('heading', { name: 'Editar bloque de tiempo' });
    expect(field('Hora de inicio').value).toBe('13:00');
    expect(field('Hora de fin').value).toBe('16:00');
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Error al eliminar.')).toBeTruthy();
  });

  it('asks before deleting a professional with future appointments, and deletes them too when told', async () => {
    const api = await openAgenda({
      handlers: {
        'DELETE /t/acme/api/agenda/professionals/p-marta': () =>
          json(409, {
            code: 'CONFLICT',
            message: 'El profesional Marta tiene 1 cita futura. Reasígnalas o elimínalas primero, o confirma que quieres eliminarlas también.',
          }),
        'DELETE /t/acme/api/agenda/professionals/p-marta?appointments=delete': () => new Response(null, { status: 204 }),
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Editar Marta' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Eliminar' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText(/Marta tiene 1 cita futura/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar también las citas' }));
    expect(await screen.findByText('Profesional eliminado')).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'DELETE').map((call) => call.url)).toEqual([
      '/t/acme/api/agenda/professionals/p-marta',
      '/t/acme/api/agenda/professionals/p-marta?appointments=delete',
    ]);
  });
});
