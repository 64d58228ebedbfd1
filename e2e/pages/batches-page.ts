import { expect, type Page } from '@playwright/test';

/** /t/{slug}/batches: the bulk-send dashboard. */
export class BatchesPage {
  constructor(private readonly page: Page) {}

  async openFromNavigation() {
    await this.page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Envíos' }).click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'Dashboard de Envíos Masivos' })).toBeVisible();
  }

  row(templateName: string) {
    return this.page.getByTestId('batch-row').filter({ hasText: templateName });
  }

  count(templateName: string, what: 'status' | 'total' | 'sent' | 'delivered' | 'read' | 'replied' | 'failed') {
    return this.row(templateName).getByTestId(`batch-${what}`);
  }
}
