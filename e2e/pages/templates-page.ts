import { expect, type Locator, type Page } from '@playwright/test';

/** /t/{slug}/templates and the template editor. */
export class TemplatesPage {
  constructor(private readonly page: Page) {}

  async goto(slug: string) {
    await this.page.goto(`/t/${slug}/templates`);
    await expect(this.page.getByRole('heading', { level: 1, name: 'Plantillas de Mensajes' })).toBeVisible();
  }

  card(name: string): Locator {
    return this.page.getByRole('article', { name });
  }

  status(name: string): Locator {
    return this.card(name).getByTestId('template-status');
  }

  /** Presses Sincronizar con Meta until the template's review ended, as a person would. */
  async syncUntil(name: string, status: string) {
    await expect(async () => {
      await this.page.getByRole('button', { name: 'Sincronizar con Meta' }).click();
      await expect(this.page.getByText('Sync complete!').first()).toBeVisible({ timeout: 3_000 });
      await expect(this.status(name)).toHaveAttribute('data-status', status, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
  }

  // The editor.
  field(label: string) {
    return this.page.getByLabel(label, { exact: true });
  }

  preview() {
    return this.page.getByTestId('template-preview');
  }

  async save() {
    await this.page.getByRole('button', { name: 'Guardar y Enviar a Revisión' }).click();
  }
}
