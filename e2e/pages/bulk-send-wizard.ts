import { expect, type Locator, type Page } from '@playwright/test';

/** The 'Envío Masivo' wizard opened from the board (spec 02 §2 Bulk send modal). */
export class BulkSendWizard {
  readonly dialog: Locator;

  constructor(private readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'Envío Masivo' });
  }

  async open() {
    await this.page.getByRole('button', { name: 'Envío Masivo' }).click();
    await expect(this.dialog.getByText('Paso 1 de 3: archivo y plantilla')).toBeVisible();
  }

  field(label: string) {
    return this.dialog.getByLabel(label, { exact: true });
  }

  next() {
    return this.dialog.getByRole('button', { name: 'Siguiente' });
  }

  async upload(name: string, buffer: Buffer) {
    await this.field('Archivo Excel').setInputFiles({ name, mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer });
    await expect(this.dialog.getByText(new RegExp(`^${name.replace('.', '\\.')}: `))).toBeVisible();
  }

  async submit() {
    await this.dialog.getByRole('button', { name: 'Iniciar Envío' }).click();
  }
}
