import { expect, type Locator, type Page } from '@playwright/test';
import { LoginPage } from './login-page.ts';

/** The sandbox phone: a signed-in member plays a WhatsApp customer of their own company. */
export class SandboxPhonePage {
  constructor(private readonly page: Page) {}

  /** Opens the phone in a browser context where the member already signed in to the CRM. */
  async goto() {
    await this.page.goto('/sandbox');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Teléfono de prueba (sandbox)' })).toBeVisible();
    await expect(this.page.getByTestId('sandbox-company')).toBeVisible();
  }

  /** Signs in to the CRM in this page's browser context first, as a person would, then opens the phone. */
  async signInAndGoto(credentials: { email: string; password: string; tenantSlug: string }) {
    const login = new LoginPage(this.page);
    await login.goto();
    await login.signIn(credentials);
    await login.expectOnBoard(credentials.tenantSlug);
    await this.goto();
  }

  /** The company the phone writes to: the signed-in one. */
  company() {
    return this.page.getByTestId('sandbox-company');
  }

  async playCustomer(customer: { phone: string; name: string }) {
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

  /** Opens a bubble's options: react, and edit or delete the customer's own message. */
  async openOptions(message: Locator) {
    await message.getByRole('button', { name: 'Opciones del mensaje' }).click();
    const menu = this.page.getByRole('menu', { name: 'Opciones del mensaje' });
    await expect(menu).toBeVisible();
    return menu;
  }

  async react(message: Locator, emoji: string) {
    await (await this.openOptions(message)).getByRole('menuitemradio', { name: `Reaccionar con ${emoji}` }).click();
    await expect(message.getByTestId('phone-reaction')).toHaveText(emoji);
  }

  async edit(message: Locator, text: string) {
    await (await this.openOptions(message)).getByRole('menuitem', { name: 'Editar' }).click();
    await message.getByLabel('Editar mensaje').fill(text);
    await message.getByRole('button', { name: 'Guardar' }).click();
    await expect(message.getByTestId('phone-message-edited')).toHaveText('Editado');
  }

  async deleteForEveryone(message: Locator) {
    await (await this.openOptions(message)).getByRole('menuitem', { name: 'Eliminar para todos' }).click();
    await expect(message.getByTestId('phone-message-deleted')).toHaveText('Mensaje eliminado');
  }
}
