import { expect, type Page } from '@playwright/test';

export class Shell {
  constructor(private readonly page: Page) {}

  connectionStatus() {
    return this.page.getByTestId('connection-status');
  }

  async expectConnected() {
    await expect(this.connectionStatus()).toHaveAttribute('data-status', 'connected', { timeout: 15_000 });
  }

  async openUserMenu() {
    await this.page.getByTestId('user-menu-button').click();
  }

  /** Opens Mi Consumo and returns the dialog. */
  async openUsage() {
    await this.openUserMenu();
    await this.page.getByRole('menuitem', { name: 'Mi Consumo' }).click();
    return this.page.getByRole('dialog', { name: 'Mi Consumo' });
  }

  async logout() {
    await this.openUserMenu();
    await this.page.getByRole('menuitem', { name: 'Cerrar Sesión' }).click();
    await expect(this.page).toHaveURL(/\/login$/);
  }
}
