import { expect, type Page } from '@playwright/test';

/** The Sales Funnel board. */
export class BoardPage {
  constructor(private readonly page: Page) {}

  column(title: string) {
    return this.page.getByTestId('board-column').and(this.page.getByRole('region', { name: title, exact: true }));
  }

  card(title: string) {
    return this.page.getByTestId('board-card').filter({ has: this.page.getByTestId('card-title').getByText(title, { exact: true }) });
  }

  funnelSelector() {
    return this.page.getByLabel('Funnel', { exact: true });
  }

  /** The funnels offered, in order (an option may carry its unread count, "Ventas (2)"). */
  async expectFunnels(names: string[]) {
    const escaped = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await expect(this.funnelSelector().locator('option')).toHaveText(names.map((name) => new RegExp(`^${escaped(name)}( \\(\\d+\\))?$`)));
  }
}
