import { expect, test } from '@playwright/test';
import { activeMember, registerCompany } from '../fixtures/api.ts';
import { LoginPage } from '../pages/login-page.ts';
import { Shell } from '../pages/shell.ts';

const NO_PERMISSION = 'No tienes permiso para ver esta sección';

test('an agent opening owner-only screens by URL sees the no-permission page and goes back to the board', async ({ page, request }) => {
  const owner = await registerCompany(request);
  const slug = owner.tenant.slug;
  const agent = await activeMember(request, owner, { name: 'Laura Agente', email: `laura@${slug}.test`, role: 'agent' });

  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(agent);
  await login.expectOnBoard(slug);

  // Neither menu entry is offered...
  const shell = new Shell(page);
  await shell.openUserMenu();
  await expect(page.getByRole('menuitem', { name: 'Mi Consumo' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Bots Studio' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'Plantillas' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // ...and typing the addresses shows the same clear page instead of the screens.
  for (const path of [`/t/${slug}/bots`, `/t/${slug}/templates/new`]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: NO_PERMISSION })).toBeVisible();
    await expect(page.getByText('Tu rol de Agente no incluye esta sección.', { exact: false })).toBeVisible();
    // Nothing to fill in and only learn on save: no Guardar Flujo, Playground or Guardar y Enviar a Revisión.
    await expect(page.getByRole('button', { name: /Guardar|Playground/ })).toHaveCount(0);
  }

  await page.getByRole('link', { name: 'Volver al tablero' }).click();
  await login.expectOnBoard(slug);
});
