import { expect, type Page } from '@playwright/test';

/** The chat panel beside the board (spec 01 §2 Chat view). */
export class ChatPanel {
  constructor(private readonly page: Page) {}

  get root() {
    return this.page.getByTestId('chat-panel');
  }

  get messageBox() {
    return this.root.getByRole('textbox', { name: 'Mensaje' });
  }

  button(name: string) {
    return this.root.getByRole('button', { name, exact: true });
  }

  message(text: string) {
    return this.root.getByTestId('chat-message').filter({ hasText: text });
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
