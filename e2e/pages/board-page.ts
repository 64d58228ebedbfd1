import { expect, type Locator, type Page } from '@playwright/test';
import { LoginPage } from './login-page.ts';
import { Shell } from './shell.ts';

/** The sales-funnel board (spec 01 §2 Board). */
export class BoardPage {
  constructor(private readonly page: Page) {}

  /** Signs in through the login screen and waits for the board and its live connection. */
  async signIn(credentials: { email: string; password: string; tenantSlug: string }) {
    const login = new LoginPage(this.page);
    await login.goto();
    await login.signIn(credentials);
    await login.expectOnBoard(credentials.tenantSlug);
    await new Shell(this.page).expectConnected();
    await expect(this.page.getByTestId('board-column').first()).toBeVisible();
  }

  column(title: string) {
    return this.page.getByRole('region', { name: title, exact: true });
  }

  card(title: string) {
    return this.page.getByRole('button', { name: `Abrir chat ${title}`, exact: true });
  }

  cardIn(columnTitle: string, cardTitle: string) {
    return this.column(columnTitle).getByRole('button', { name: `Abrir chat ${cardTitle}`, exact: true });
  }

  unreadBadge(cardTitle: string) {
    return this.card(cardTitle).getByTestId('unread-badge');
  }

  async dragCard(cardTitle: string, columnTitle: string) {
    await this.card(cardTitle).dragTo(this.column(columnTitle));
  }

  async cardMenu(cardTitle: string, item: 'Renombrar' | 'Mover a funnel') {
    await this.card(cardTitle).getByRole('button', { name: 'Opciones del chat' }).click();
    await this.page.getByRole('menuitem', { name: item }).click();
  }

  async columnMenu(columnTitle: string, item: string) {
    await this.column(columnTitle).getByRole('button', { name: 'Opciones de la columna' }).click();
    await this.page.getByRole('menuitem', { name: item }).click();
  }

  /**
   * Switches the column's assistant on in "Configurar Bot Gemini" with its instructions, a 1-second quiet window and
   * one knowledge file, saves and closes. `inspect` looks at the dialog before anything changes.
   */
  async switchOnColumnAssistant(
    columnTitle: string,
    settings: { instructions: string; file: { name: string; text: string; purpose: string } },
    inspect?: (dialog: Locator) => Promise<void>,
  ) {
    await this.columnMenu(columnTitle, 'Configurar Bot Gemini');
    const dialog = this.page.getByRole('dialog', { name: 'Configurar Bot Gemini' });
    await inspect?.(dialog);
    await dialog.getByRole('switch', { name: 'Asistente activo' }).check();
    await dialog.getByLabel('Instrucciones del asistente').fill(settings.instructions);
    await dialog.getByLabel('Segundos de espera antes de responder').fill('1');
    await dialog.getByRole('tab', { name: 'Herramientas' }).click();
    const { name, text, purpose } = settings.file;
    await dialog.getByTestId('tool-file-input').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
    await expect(this.toast('Archivo de herramienta subido exitosamente.')).toBeVisible();
    await dialog.getByLabel(`Propósito de ${name}`).fill(purpose);
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect(this.toast('Asistente de columna actualizado.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cerrar' }).click();
    await expect(dialog).toBeHidden();
  }

  funnelSelector() {
    return this.page.getByLabel('Funnel', { exact: true });
  }

  /** The funnels offered, in order (an option may carry its unread count, "Ventas (2)"). */
  async expectFunnels(names: string[]) {
    const escaped = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await expect(this.funnelSelector().locator('option')).toHaveText(names.map((name) => new RegExp(`^${escaped(name)}( \\(\\d+\\))?$`)));
  }

  async selectFunnel(name: string) {
    const selector = this.funnelSelector();
    const option = selector.locator('option', { hasText: name });
    await expect(option).toHaveCount(1);
    // By value (the funnel id): the label also shows the unread count, which changes live.
    await selector.selectOption(String(await option.getAttribute('value')));
  }

  toast(text: string) {
    return this.page.getByText(text, { exact: true });
  }
}
