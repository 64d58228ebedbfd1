import { expect, type Page } from '@playwright/test';

/** The public sandbox phone: a person plays a company's WhatsApp customer. */
export class SandboxPhonePage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto('/sandbox');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Teléfono de prueba (sandbox)' })).toBeVisible();
  }

  async playCustomer(customer: { appName: string; phone: string; name: string }) {
    const company = this.page.getByLabel('Empresa');
    await expect(company.locator(`option[value="${customer.appName}"]`)).toHaveCount(1);
    await company.selectOption(customer.appName);
    await this.page.getByLabel('Teléfono del cliente').fill(customer.phone);
    await this.page.getByLabel('Nombre del cliente').fill(customer.name);
  }

  async sendText(text: string) {
    await this.page.getByLabel('Mensaje', { exact: true }).fill(text);
    await this.page.getByRole('button', { name: 'Enviar', exact: true }).click();
    await expect(this.page.getByLabel('Mensaje', { exact: true })).toHaveValue('');
  }

  messages(direction?: 'to_customer' | 'from_customer') {
    const all = this.page.getByTestId('phone-message');
    return direction ? all.and(this.page.locator(`[data-direction="${direction}"]`)) : all;
  }

  businessMessage(text: string) {
    return this.messages('to_customer').filter({ hasText: text });
  }

  /** One of the customer's own messages; its ticks turn read once the business opened the chat. */
  customerMessage(text: string) {
    return this.messages('from_customer').filter({ hasText: text });
  }

  /** Taps a reply button under the business's latest message that offers it. */
  async pressReply(title: string) {
    await this.messages('to_customer').getByRole('button', { name: title, exact: true }).last().click();
  }
}
