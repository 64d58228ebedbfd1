import { expect, type Page } from '@playwright/test';

export class LoginPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto('/login');
  }

  async signIn(credentials: { email: string; password: string; tenantSlug: string }) {
    await this.page.getByLabel('Email').fill(credentials.email);
    await this.page.getByLabel('Contraseña').fill(credentials.password);
    await this.page.getByLabel('Slug de empresa').fill(credentials.tenantSlug);
    await this.page.getByRole('button', { name: /iniciar sesión/i }).click();
  }

  async expectOnBoard(slug: string) {
    await expect(this.page).toHaveURL(new RegExp(`/t/${slug}/?$`));
    await expect(this.page.getByRole('heading', { name: 'Sales Funnel' })).toBeVisible();
  }
}
