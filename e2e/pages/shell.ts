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

  async logout() {
    await this.openUserMenu();
    await this.page.getByRole('menuitem', { name: 'Cerrar Sesión' }).click();
    await expect(this.page).toHaveURL(/\/login$/);
  }
}
