import { expect, type Locator, type Page } from '@playwright/test';

/** The agenda screen at /t/{slug}/agenda (spec 02 §2 Agenda). */
export class AgendaPage {
  constructor(private readonly page: Page) {}

  async goto(slug: string) {
    await this.page.goto(`/t/${slug}/agenda`);
    await expect(this.page.getByTestId('agenda-range-title')).toBeVisible();
  }

  section(name: 'Profesionales' | 'Servicios') {
    return this.page.getByRole('region', { name });
  }

  dialog() {
    return this.page.getByRole('dialog');
  }

  /** The newest notification with that text (an earlier one may still be on screen). */
  toast(text: string) {
    return this.page.getByText(text, { exact: true }).last();
  }

  async addService(service: { name: string; duration: string; cost: string }) {
    await this.section('Servicios').getByRole('button', { name: 'Añadir' }).click();
    const dialog = this.dialog();
    await expect(dialog.getByRole('heading', { name: 'Nuevo servicio' })).toBeVisible();
    await dialog.getByLabel('Nombre').fill(service.name);
    await dialog.getByLabel('Duración (minutos)').fill(service.duration);
    await dialog.getByLabel('Costo').fill(service.cost);
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect(this.toast('Servicio guardado')).toBeVisible();
    await expect(dialog).toBeHidden();
  }

  async addProfessional(professional: { name: string; color: string; services: string[] }) {
    await this.section('Profesionales').getByRole('button', { name: 'Añadir' }).click();
    const dialog = this.dialog();
    await expect(dialog.getByRole('heading', { name: 'Nuevo profesional' })).toBeVisible();
    await dialog.getByLabel('Nombre').fill(professional.name);
    await dialog.getByText(professional.color, { exact: true }).click();
    for (const service of professional.services) await dialog.getByLabel(service).check();
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect(this.toast('Profesional guardado')).toBeVisible();
    await expect(dialog).toBeHidden();
  }

  async openAvailability(professionalName: string) {
    await this.section('Profesionales')
      .getByRole('button', { name: `Disponibilidad de ${professionalName}` })
      .click();
    await expect(this.dialog().getByRole('heading', { name: `Disponibilidad de ${professionalName}` })).toBeVisible();
    return this.dialog();
  }

  async switchView(name: 'Día' | 'Semana' | 'Mes') {
    await this.page.getByRole('group', { name: 'Vista' }).getByRole('button', { name }).click();
  }

  /** The first professional's lane on that date ('YYYY-MM-DD'). */
  lane(date: string): Locator {
    return this.page.locator(`[data-testid="day-column"][data-date="${date}"] [data-testid="time-lane"]`).first();
  }

  /** Clicks a lane at a time of day: 1 px per minute from the top of the lane. */
  async clickLaneAt(date: string, minutes: number, button: 'left' | 'right' = 'left') {
    await this.lane(date).click({ position: { x: 20, y: minutes + 5 }, button });
  }

  appointments() {
    return this.page.getByTestId('appointment-item');
  }

  monthCell(date: string) {
    return this.page.locator(`[data-testid="month-cell"][data-date="${date}"]`);
  }
}
