import { expect, type Page } from '@playwright/test';

/** The chat panel beside the board (spec 01 §2 Chat view). */
export class ChatPanel {
  constructor(private readonly page: Page) {}

  get root() {
    return this.page.getByTestId('chat-panel');
  }

  async open(cardTitle: string) {
    await this.page.getByRole('button', { name: `Abrir chat ${cardTitle}` }).click();
    await expect(this.root).toBeVisible();
  }

  windowIndicator() {
    return this.root.getByTestId('window-indicator');
  }

  messages() {
    return this.root.getByTestId('chat-message');
  }

  /** Picks an approved template by its name and fills its variables by label. */
  async sendTemplate(templateOption: string, variables: Record<string, string>) {
    await this.root.getByRole('button', { name: 'Enviar plantilla' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Enviar plantilla' });
    await dialog.getByLabel('Plantilla').selectOption({ label: templateOption });
    for (const [label, value] of Object.entries(variables)) await dialog.getByLabel(label, { exact: true }).fill(value);
    await dialog.getByRole('button', { name: 'Enviar Plantilla' }).click();
    await expect(dialog).toBeHidden();
  }

  get messageBox() {
    return this.root.getByRole('textbox', { name: 'Mensaje' });
  }

  /** Whether the message box's placeholder fits its width on one line (it once wrapped and was clipped). */
  placeholderFits() {
    return this.messageBox.evaluate((box: HTMLTextAreaElement) => {
      const style = getComputedStyle(box);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = style.font;
      const room = box.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      return context.measureText(box.placeholder).width <= room;
    });
  }

  button(name: string) {
    return this.root.getByRole('button', { name, exact: true });
  }

  message(text: string) {
    return this.messages().filter({ hasText: text });
  }

  async send(text: string) {
    await this.messageBox.fill(text);
    await this.messageBox.press('Enter');
    await expect(this.messageBox).toHaveValue('');
  }

  async openTab(name: 'Mensajes' | 'Notas Internas') {
    await this.root.getByRole('tab', { name }).click();
  }
}
