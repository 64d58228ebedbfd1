import { expect, test } from '@playwright/test';
import { registerCompany } from '../fixtures/api.ts';
import { cardIdOnceApplied, tenantApi } from '../fixtures/tenant-api.ts';
import { SandboxPhonePage } from '../pages/sandbox-phone-page.ts';
import { Shell } from '../pages/shell.ts';

test('a customer writes from the sandbox phone, the company answers and the phone shows it read', async ({ page, request }) => {
  const owner = await registerCompany(request);
  const tenant = tenantApi(request, owner);
  const customer = { phone: '5215512340000', name: 'Cliente E2E' };

  // Without a session the phone asks to sign in to the CRM first, and links to it.
  await page.goto('/sandbox');
  await expect(page.getByTestId('sandbox-sign-in')).toContainText('Inicia sesión en Embudo en este navegador para usar el teléfono de prueba de tu empresa.');
  await expect(page.getByLabel('Teléfono del cliente')).toHaveCount(0);
  await page.getByRole('link', { name: 'Iniciar sesión' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // Signed in to the CRM in the same browser, the phone writes to that company only.
  const phone = new SandboxPhonePage(page);
  await phone.signInAndGoto({ email: owner.user.email, password: owner.password, tenantSlug: owner.tenant.slug });
  await expect(phone.company()).toContainText('Ferretería Núñez');
  await phone.playCustomer(customer);
  await phone.sendText('Hola, ¿tienen taladros?');
  await expect(phone.messages('from_customer').filter({ hasText: 'Hola, ¿tienen taladros?' })).toHaveCount(1);

  // The message travelled the real webhook path into the tenant.
  await expect.poll(async () => (await tenant.usage()).receivedCount, { timeout: 15_000 }).toBe(1);

  // The board shows the customer's chat as a card; the company answers on it.
  const cardId = await cardIdOnceApplied(async () => Promise.all((await tenant.funnels()).map((funnel) => tenant.board(funnel.id))), customer, {
    timeout: 15_000,
  });

  const answer = await tenant.sendText({ cardId, text: 'Hola desde la empresa', tempId: 'e2e-1' });
  expect(answer.status(), await answer.text()).toBe(201);

  const reply = phone.businessMessage('Hola desde la empresa');
  await expect(reply).toHaveCount(1, { timeout: 15_000 });
  await expect(reply.getByTestId('ticks')).toHaveAttribute('data-status', 'read', { timeout: 15_000 });
  await expect.poll(async () => (await tenant.usage()).sentCount, { timeout: 15_000 }).toBe(1);

  // The owner, signed in in this same browser, reads the month's counts in Mi Consumo.
  await page.goto(`/t/${owner.tenant.slug}`);
  const usage = await new Shell(page).openUsage();
  await expect(usage.getByText('Mensajes enviados').locator('..')).toContainText('1');
  await expect(usage.getByText('Mensajes recibidos').locator('..')).toContainText('1');
  await expect(usage.getByText('Plantillas de marketing').locator('..')).toContainText('0');
  // Other journeys of the run may have set prices: only the four-decimal format is this journey's to check.
  await expect(usage.getByText(/^\$\d+\.\d{4}$/)).toBeVisible();
});
