import { expect, type Page } from '@playwright/test';

/** The board's chat panel for one card. */
export class ChatPanel {
  constructor(private readonly page: Page) {}

  async open(cardTitle: string) {
    await this.page.getByRole('button', { name: `Abrir chat ${cardTitle}` }).click();
    await expect(this.panel()).toBeVisible();
  }

  panel() {
    return this.page.getByTestId('chat-panel');
  }

  windowIndicator() {
    return this.panel().getByTestId('window-indicator');
  }

  messages() {
    return this.panel().getByTestId('chat-message');
  }

  /** Picks an approved template (its option reads "name (CATEGORY)") and fills its variables by label. */
  async sendTemplate(templateOption: string, variables: Record<string, string>) {
    await this.panel().getByRole('button', { name: 'Enviar plantilla' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Enviar plantilla' });
    await dialog.getByLabel('Plantilla').selectOption({ label: templateOption });
    for (const [label, value] of Object.entries(variables)) await dialog.getByLabel(label, { exact: true }).fill(value);
    await dialog.getByRole('button', { name: 'Enviar Plantilla' }).click();
    await expect(dialog).toBeHidden();
  }
}
