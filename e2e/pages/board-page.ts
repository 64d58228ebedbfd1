import { expect, type Page } from '@playwright/test';
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
