import { expect, test } from '@playwright/test';
import { DEMO, STRONG_PASSWORD, uniqueCompany } from '../fixtures/api.ts';
import { LoginPage } from '../pages/login-page.ts';
import { Shell } from '../pages/shell.ts';

test('a company registers (auto slug), reaches a connected board, logs out and back in', async ({ page }) => {
  const company = uniqueCompany();
  await page.goto('/register');

  // The demo tenant holds the slug "demo": typing it shows the taken message and blocks submit.
  await page.getByLabel('Slug de empresa').fill('demo');
  await expect(page.getByTestId('slug-status')).toHaveAttribute('data-state', 'taken');
  await expect(page.getByText('Este identificador ya está en uso')).toBeVisible();

  // Until edited by hand the slug follows the company name; after a manual edit it does not.
  await page.reload();
  await page.getByLabel('Nombre de empresa').fill(company.name);
  await expect(page.getByLabel('Slug de empresa')).toHaveValue(company.slug);
  await expect(page.getByTestId('slug-status')).toHaveAttribute('data-state', 'available');

  await page.getByLabel('Tu nombre').fill('Marta Núñez');
  await page.getByLabel('Email').fill(`marta@${company.slug}.test`);
  await page.getByLabel('Contraseña').fill('debil');
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(page.getByText('La contraseña no cumple los requisitos')).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);
  await page.getByLabel('Contraseña').fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Crear cuenta' }).click();

  const login = new LoginPage(page);
  const shell = new Shell(page);
  await login.expectOnBoard(company.slug);
  await shell.expectConnected();
  await expect(page.getByTestId('user-menu-button')).toContainText('MN');

  await shell.logout();
  await login.signIn({ email: `marta@${company.slug}.test`, password: 'Incorrecta1', tenantSlug: company.slug });
  await expect(page.getByText('Email, contraseña o empresa incorrectos.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('Contraseña').fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
  await login.expectOnBoard(company.slug);
  await shell.expectConnected();
});

test('the login form validates like the spec says', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
  await expect(page.getByText('Email es requerido')).toBeVisible();
  await expect(page.getByText('Contraseña es requerida')).toBeVisible();
  await expect(page.getByText('Slug de empresa es requerido')).toBeVisible();
  await page.getByLabel('Email').fill('no-es-email');
  await page.getByLabel('Slug de empresa').fill('mal slug!');
  await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
  await expect(page.getByText('Email inválido')).toBeVisible();
  await expect(page.getByText('Solo letras minúsculas, números y guiones')).toBeVisible();
});

test('the printed demo sign-in opens the shell with a green connection status', async ({ page }) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(DEMO);
  await login.expectOnBoard(DEMO.tenantSlug);
  await new Shell(page).expectConnected();
  for (const link of ['Sales Funnel', 'Agenda', 'Plantillas', 'Envíos']) {
    await expect(page.getByRole('navigation').getByRole('link', { name: link, exact: true })).toBeVisible();
  }
  await page.getByRole('navigation').getByRole('link', { name: 'Agenda', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Agenda' })).toBeVisible();
});
