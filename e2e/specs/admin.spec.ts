import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { inviteMember, OPERATOR, registerCompany, type ApiSession } from '../fixtures/api.ts';
import { phoneConversation } from '../fixtures/tenant-api.ts';
import { LoginPage } from '../pages/login-page.ts';
import { Shell } from '../pages/shell.ts';

async function tryInvite(request: APIRequestContext, owner: ApiSession, member: { name: string; email: string }) {
  return request.post(`/t/${owner.tenant.slug}/api/users/invite`, {
    headers: { authorization: `Bearer ${owner.token}` },
    data: { ...member, role: 'agent', is_active: true, funnelIds: [] },
  });
}

async function signInAs(request: APIRequestContext, tenantSlug: string, email: string, password: string) {
  const response = await request.post('/api/auth/login', { data: { email, password, tenantSlug } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

const meStatus = async (request: APIRequestContext, token: string) =>
  (await request.get('/api/auth/me', { headers: { authorization: `Bearer ${token}` } })).status();

async function adminToken(page: Page) {
  const token = await page.evaluate(() => localStorage.getItem('admin_auth_token'));
  expect(token).toBeTruthy();
  return token as string;
}

test('the operator signs in, reads the figures, changes a plan, deactivates a user, approves a template and saves pricing', async ({
  page,
  request,
  browser,
}) => {
  const owner = await registerCompany(request);
  const companyName = (await (await request.get('/api/auth/me', { headers: { authorization: `Bearer ${owner.token}` } })).json()) as {
    tenant: { name: string };
  };
  // The company submits a template the sandbox provider rejects (its body says "rechazar"); until it is approved it
  // cannot be sent. The operator's approval overrides the provider's review, at the sandbox provider too.
  const ownerHeaders = { authorization: `Bearer ${owner.token}` };
  const submitted = await request.post(`/t/${owner.tenant.slug}/api/templates`, {
    headers: ownerHeaders,
    data: { name: 'gracias_compra', body_text: 'Hola {{1}}, gracias por tu compra. Responde BAJA para rechazar avisos.' },
  });
  expect(submitted.status(), await submitted.text()).toBe(201);
  const template = (await submitted.json()) as { id: string };
  const startConversation = (phoneNumber = '5215511112222') =>
    request.post(`/t/${owner.tenant.slug}/api/initiate-conversation`, {
      headers: ownerHeaders,
      data: { templateId: template.id, phoneNumber, variables: { 1: 'Eva' } },
    });
  expect((await startConversation()).status()).toBe(400);
  const first = await inviteMember(request, owner, { name: 'Lucía Pérez', email: `lucia@${owner.tenant.slug}.test` });
  // The basic plan allows 2 members: the owner and Lucía.
  expect((await tryInvite(request, owner, { name: 'Pablo Ruiz', email: `pablo@${owner.tenant.slug}.test` })).status()).toBe(403);

  // Sign-in: wrong password first, then the configured operator.
  await page.goto('/admin/login');
  await page.getByLabel('Email').fill(OPERATOR.email);
  await page.getByLabel('Contraseña').fill('Incorrecta1');
  await page.getByRole('button', { name: 'Mostrar contraseña' }).click();
  await expect(page.getByLabel('Contraseña')).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page.getByText('Login failed.')).toBeVisible();
  await page.getByLabel('Contraseña').fill(OPERATOR.password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();

  // Dashboard: the cards show the server's figures.
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const token = await adminToken(page);
  const stats = (await (await request.get('/api/admin/stats', { headers: { authorization: `Bearer ${token}` } })).json()) as Record<string, number>;
  expect(stats.totalTenants).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('stat-tenants-value')).toHaveText(String(stats.totalTenants));
  await expect(page.getByTestId('stat-users-value')).toHaveText(String(stats.totalUsers));
  await expect(page.getByTestId('stat-templates-value')).toHaveText(String(stats.totalTemplates));
  await expect(page.getByRole('link', { name: 'Salir (Administrador)' })).toBeVisible();

  // Tenants: the company's card, its plan changed to Profesional.
  await page.getByRole('navigation', { name: 'Administración' }).getByRole('link', { name: 'Tenants' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tenants' })).toBeVisible();
  const card = page.getByRole('article', { name: companyName.tenant.name });
  await expect(card.getByText(owner.tenant.slug, { exact: true })).toBeVisible();
  await expect(card.getByTestId('tenant-user-count')).toHaveText('2 usuarios');
  await expect(card.getByTestId('tenant-cost')).toHaveText(/^\$\d+\.\d{4}$/);
  await expect(card.getByRole('switch', { name: 'Usuario activo: Marta Núñez' })).toBeDisabled();
  await card.getByLabel('Plan').selectOption({ label: 'Profesional' });
  await card.getByRole('button', { name: 'Guardar plan' }).click();
  await expect(page.getByText('Plan actualizado!')).toBeVisible();

  // The tenant's member limit follows the new plan.
  await inviteMember(request, owner, { name: 'Pablo Ruiz', email: `pablo@${owner.tenant.slug}.test` });
  await inviteMember(request, owner, { name: 'Rosa Díaz', email: `rosa@${owner.tenant.slug}.test` });

  // Deactivating a user ends that user's open session.
  const luciaToken = await signInAs(request, owner.tenant.slug, first.user.email, first.tempPassword);
  expect(await meStatus(request, luciaToken)).toBe(200);
  await page.reload();
  await expect(card.getByTestId('tenant-user-count')).toHaveText('4 usuarios');
  await expect(card.getByLabel('Plan')).toHaveValue('professional');
  const lucia = card.getByRole('switch', { name: 'Usuario activo: Lucía Pérez' });
  await expect(lucia).toHaveAttribute('aria-checked', 'true');
  await lucia.click();
  await expect(lucia).toHaveAttribute('aria-checked', 'false');
  await expect(lucia).toBeEnabled();
  expect(await meStatus(request, luciaToken)).toBe(401);

  // Templates: the operator approves the company's template, and the company can then send it.
  await page.getByRole('navigation', { name: 'Administración' }).getByRole('link', { name: 'Templates' }).click();
  const row = page.getByTestId(`template-${template.id}`);
  await expect(row).toContainText(companyName.tenant.name);
  await expect(row).toContainText('Hola {{1}}, gracias por tu compra. Responde BAJA para rechazar avisos.');
  // The provider's review reaches the company by webhook (template-event) about 1.5 s after submission.
  await expect(row.getByTestId('template-status')).toHaveText('Rechazada');
  await row.getByRole('button', { name: 'Aprobar gracias_compra' }).click();
  await expect(page.getByText('Plantilla aprobada.')).toBeVisible();
  await expect(row.getByTestId('template-status')).toHaveText('Aprobada');
  await expect(row.getByRole('button', { name: 'Aprobar gracias_compra' })).toHaveCount(0);
  const started = await startConversation();
  expect(started.status(), await started.text()).toBe(201);
  await expect
    .poll(
      async () => {
        const [first] = (await phoneConversation(request, owner, { phone: '5215511112222' })) as Array<{ template?: { body: string } }>;
        return first?.template?.body;
      },
      { timeout: 15_000 },
    )
    .toBe('Hola Eva, gracias por tu compra. Responde BAJA para rechazar avisos.');

  // Settings: pricing saved, an emptied field counting as 0.
  await page.getByRole('navigation', { name: 'Administración' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await page.getByLabel('Precio por mensaje enviado').fill('0.0125');
  await page.getByLabel('Precio por mensaje recibido').fill('');
  await page.getByLabel('Precio por plantilla de marketing').fill('0.05');
  await page.getByLabel('Precio por plantilla de utilidad').fill('0.02');
  await page.getByLabel('Precio por 1.000 tokens de IA').fill('0.003');
  await page.getByRole('button', { name: 'Guardar precios' }).click();
  await expect(page.getByText('Pricing settings saved!')).toBeVisible();
  await expect(page.getByLabel('Precio por mensaje recibido')).toHaveValue('0');
  const pricing = await (await request.get('/api/admin/settings/pricing', { headers: { authorization: `Bearer ${token}` } })).json();
  expect(pricing).toEqual({
    price_per_sent_message: 0.0125,
    price_per_received_message: 0,
    price_template_marketing: 0.05,
    price_template_utility: 0.02,
    price_per_1000_ai_tokens: 0.003,
  });

  // The company's next utility template is priced at the new price, and its owner sees it in Mi Consumo.
  const usageCost = async () =>
    ((await (await request.get(`/t/${owner.tenant.slug}/api/usage`, { headers: ownerHeaders })).json()) as { totalCost: number }).totalCost;
  expect(await usageCost()).toBe(0);
  expect((await startConversation('5215511113333')).status()).toBe(201);
  await expect.poll(usageCost, { timeout: 15_000 }).toBeCloseTo(0.02, 6);
  const ownerPage = await (await browser.newContext()).newPage();
  const login = new LoginPage(ownerPage);
  await login.goto();
  await login.signIn({ email: owner.user.email, password: owner.password, tenantSlug: owner.tenant.slug });
  await login.expectOnBoard(owner.tenant.slug);
  const usage = await new Shell(ownerPage).openUsage();
  await expect(usage.getByText('$0.0200')).toBeVisible();
  await expect(usage.getByText('Plantillas de utilidad').locator('..')).toContainText('2');

  // Unknown admin paths go to the dashboard while signed in, to the login after logging out.
  await page.goto('/admin/no-existe');
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.getByRole('link', { name: 'Salir (Administrador)' }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.goto('/admin/tenants');
  await expect(page).toHaveURL(/\/admin\/login$/);
});
