import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { registerCompany } from '../fixtures/api.ts';
import { customerWrites } from '../fixtures/tenant-api.ts';
import { AgendaPage } from '../pages/agenda-page.ts';
import { LoginPage } from '../pages/login-page.ts';

const TIME_ZONE = 'America/Bogota';
const dateIn = (timeZone: string, instant = new Date()) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);

/** The Saturday of the week after `date` ('YYYY-MM-DD'), always in the future. */
function nextWeeksSaturday(date: string) {
  const day = new Date(`${date}T12:00:00Z`);
  const toMonday = (8 - day.getUTCDay()) % 7 || 7;
  day.setUTCDate(day.getUTCDate() + toMonday + 5);
  return day.toISOString().slice(0, 10);
}

test('an owner sets up the agenda, books by clicking the week, is refused an overlap, blocks an afternoon and exports the week', async ({ page, request }) => {
  const owner = await registerCompany(request, { timezone: TIME_ZONE });
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn({ email: owner.user.email, password: owner.password, tenantSlug: owner.tenant.slug });
  await login.expectOnBoard(owner.tenant.slug);

  // A customer who already chats with the company, found later by the appointment's contact search.
  const auth = { authorization: `Bearer ${owner.token}` };
  await customerWrites(request, owner, { phone: '573001234567', name: 'Juan Pérez' }, 'Hola, quiero una cita');
  await expect.poll(async () => (await (await request.get('/api/agenda/search-contacts?q=juan', { headers: auth })).json()) as unknown[]).toHaveLength(1);

  const agenda = new AgendaPage(page);
  await agenda.goto(owner.tenant.slug);
  const today = dateIn(TIME_ZONE);

  await agenda.addService({ name: 'Corte de pelo', duration: '45', cost: '25.5' });
  await expect(agenda.section('Servicios').getByTestId('service-row')).toHaveText(['Corte de pelo$25.50']);
  await agenda.addProfessional({ name: 'Lucía Gómez', color: 'Azul', services: ['Corte de pelo'] });
  await expect(agenda.section('Profesionales').getByTestId('professional-row')).toHaveText(['Lucía Gómez']);

  // Availability: Saturdays 10:00 to 14:00 on top of the default Monday to Friday.
  const availability = await agenda.openAvailability('Lucía Gómez');
  await expect(availability.getByLabel('Lunes', { exact: true })).toBeChecked();
  await expect(availability.getByLabel('Sábado', { exact: true })).not.toBeChecked();
  await availability.getByLabel('Sábado', { exact: true }).check();
  await availability.getByLabel('Inicio Sábado').fill('10:00');
  await availability.getByLabel('Fin Sábado').fill('14:00');
  await availability.getByRole('button', { name: 'Guardar' }).click();
  await expect(agenda.toast('Disponibilidad guardada')).toBeVisible();
  const professionalId = await agenda.lane(today).getAttribute('data-professional-id');
  const serviceId = (
    (await (await request.get(`/api/agenda/data?start=${today}&end=${today}`, { headers: auth })).json()) as { services: Array<{ id: string }> }
  ).services[0]!.id;
  const saturday = await request.get(`/api/agenda/availability?professionalId=${professionalId}&serviceId=${serviceId}&date=${nextWeeksSaturday(today)}`, {
    headers: auth,
  });
  expect(((await saturday.json()) as { slots: Array<{ time: string }> }).slots.map((slot) => slot.time)).toEqual([
    '10:00',
    '10:30',
    '11:00',
    '11:30',
    '12:00',
    '12:30',
    '13:00',
  ]);

  // The week view opens on this week, with the red line on today; a click at 10:00 books 10:00 to 11:00.
  await expect(page.getByRole('group', { name: 'Vista' }).getByRole('button', { name: 'Semana' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator(`[data-testid="day-column"][data-date="${today}"] [data-testid="current-time-line"]`)).toBeVisible();
  await agenda.clickLaneAt(today, 10 * 60);
  const dialog = agenda.dialog();
  await expect(dialog.getByRole('heading', { name: 'Nueva cita' })).toBeVisible();
  await expect(dialog.getByLabel('Fecha')).toHaveValue(today);
  await expect(dialog.getByLabel('Hora de inicio')).toHaveValue('10:00');
  await expect(dialog.getByLabel('Hora de fin')).toHaveValue('11:00');
  await expect(dialog.getByLabel('Profesional')).toHaveValue(professionalId!);
  await dialog.getByLabel('Buscar contacto').fill('Jua');
  await dialog.getByRole('button', { name: /Juan Pérez/ }).click();
  await expect(dialog.getByLabel('Nombre del cliente')).toHaveValue('Juan Pérez');
  await expect(dialog.getByLabel('WhatsApp')).toHaveValue('573001234567');
  await expect(dialog.getByLabel('Servicio').locator('option')).toHaveText(['Selecciona un servicio', 'Corte de pelo']);
  await dialog.getByLabel('Servicio').selectOption({ label: 'Corte de pelo' });
  await expect(dialog.getByLabel('Costo')).toHaveValue('25.5');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(agenda.toast('Cita guardada')).toBeVisible();
  await expect(dialog).toBeHidden();
  const booked = agenda.lane(today).getByTestId('appointment-item');
  await expect(booked).toContainText('10:00 – 11:00');
  await expect(booked).toContainText('Juan Pérez');

  // The same appointment in the day and month views.
  await agenda.switchView('Día');
  await expect(page.getByTestId('day-column')).toHaveCount(1);
  await expect(agenda.lane(today).getByTestId('appointment-item')).toContainText('Juan Pérez');
  await agenda.switchView('Mes');
  await expect(page.getByTestId('month-cell')).toHaveCount(42);
  await expect(agenda.monthCell(today).getByTestId('appointment-item')).toContainText('10:00');
  await expect(agenda.monthCell(today).getByTestId('appointment-item')).toContainText('Juan Pérez');

  // An overlapping booking (9:30 to 10:30) is refused with the server's reason.
  await agenda.switchView('Semana');
  await agenda.clickLaneAt(today, 9 * 60 + 30);
  await expect(dialog.getByLabel('Hora de inicio')).toHaveValue('09:30');
  await dialog.getByLabel('Nombre del cliente').fill('Eva Ruiz');
  await dialog.getByLabel('Servicio').selectOption({ label: 'Corte de pelo' });
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Lucía Gómez ya tiene una cita de 10:00 a 11:00 (Juan Pérez). Elige otro horario.' })).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Nueva cita' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(agenda.appointments()).toHaveCount(1);

  // Right-click at 14:00 blocks the afternoon.
  await agenda.clickLaneAt(today, 14 * 60, 'right');
  await expect(dialog.getByRole('heading', { name: 'Nuevo bloque de tiempo' })).toBeVisible();
  await expect(dialog.getByLabel('Hora de inicio')).toHaveValue('14:00');
  await dialog.getByLabel('Hora de fin').fill('18:00');
  await dialog.getByLabel('Motivo').fill('Trámites');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(agenda.toast('Bloque de tiempo guardado')).toBeVisible();
  const block = agenda.lane(today).getByTestId('time-block-item');
  await expect(block).toContainText('Bloqueado');
  await expect(block).toContainText('Trámites');

  // Exporting the week downloads its appointment as JSON.
  const title = await page.getByTestId('agenda-range-title').textContent();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exportar JSON' }).click();
  const download = await downloading;
  const weekDays = await page.getByTestId('day-column').evaluateAll((columns) => columns.map((column) => column.getAttribute('data-date')));
  expect(download.suggestedFilename()).toBe(`agenda_${weekDays[0]}_${weekDays[6]}.json`);
  const exported = JSON.parse(fs.readFileSync((await download.path())!, 'utf8')) as {
    range: Record<string, string>;
    appointments: Array<Record<string, unknown>>;
  };
  expect(exported.range).toEqual({ start: weekDays[0], end: weekDays[6], timezone: TIME_ZONE });
  expect(exported.appointments).toHaveLength(1);
  expect(exported.appointments[0]).toMatchObject({
    clientName: 'Juan Pérez',
    clientWhatsapp: '573001234567',
    professionalName: 'Lucía Gómez',
    serviceName: 'Corte de pelo',
    cost: 25.5,
    // 10:00 in Bogota (UTC-5).
    startTime: `${today}T15:00:00.000Z`,
    endTime: `${today}T16:00:00.000Z`,
  });

  // The next week has nothing to export.
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await expect(page.getByTestId('agenda-range-title')).not.toHaveText(title!);
  await page.getByRole('button', { name: 'Exportar JSON' }).click();
  await expect(agenda.toast('No hay citas para exportar en el rango actual.')).toBeVisible();
});

test('a new company on a phone-sized window sees the 24-hour week at once, with most of a screen for the calendar', async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  const owner = await registerCompany(request);
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn({ email: owner.user.email, password: owner.password, tenantSlug: owner.tenant.slug });
  await login.expectOnBoard(owner.tenant.slug);

  const agenda = new AgendaPage(page);
  await agenda.goto(owner.tenant.slug);
  await expect(page.getByText('Añade un profesional en la barra lateral para empezar a agendar citas.')).toBeVisible();
  await expect(page.getByTestId('day-column')).toHaveCount(7);
  const grid = page.getByTestId('time-grid');
  const eight = grid.getByText('08:00', { exact: true });
  await expect(eight).toBeAttached();
  // Scrolled to 8:00 at 60 px per hour, its label whole below the sticky day headers.
  await expect.poll(() => grid.evaluate((element) => element.scrollTop)).toBe(480 - 12);
  const headerBottom = await page
    .getByTestId('day-header')
    .first()
    .evaluate((header) => header.getBoundingClientRect().bottom);
  expect((await eight.boundingBox())!.y).toBeGreaterThanOrEqual(headerBottom);
  const height = (await grid.boundingBox())!.height;
  expect(height).toBeGreaterThan(400);
});
