import { expect, test } from '@playwright/test';
import { inviteMember, registerCompany } from '../fixtures/api.ts';
import { LoginPage } from '../pages/login-page.ts';
import { Shell } from '../pages/shell.ts';

test('an invited user must replace the temporary password before reaching the board', async ({ page, request }) => {
  const owner = await registerCompany(request);
  const email = `nuevo@${owner.tenant.slug}.test`;
  const { tempPassword } = await inviteMember(request, owner, { name: 'Nuevo Agente', email });

  const login = new LoginPage(page);
  await login.goto();
  await login.signIn({ email, password: tempPassword, tenantSlug: owner.tenant.slug });
  await expect(page).toHaveURL(new RegExp(`/t/${owner.tenant.slug}/force-password-change$`));
  await expect(page.getByRole('heading', { name: 'Crea tu nueva contraseña' })).toBeVisible();

  const tries: Array<[string, string, string]> = [
    ['Abc12', 'Abc12', 'La contraseña debe tener al menos 8 caracteres.'],
    ['abcdefg1', 'abcdefg1', 'Debe contener al menos una mayúscula.'],
    ['ABCDEFG1', 'ABCDEFG1', 'Debe contener al menos una minúscula.'],
    ['Abcdefgh', 'Abcdefgh', 'Debe contener al menos un número.'],
    ['Definitiva1', 'Definitiva2', 'Las contraseñas no coinciden.'],
  ];
  for (const [password, confirmation, message] of tries) {
    await page.getByLabel('Nueva contraseña').fill(password);
    await page.getByLabel('Confirmar contraseña').fill(confirmation);
    await page.getByRole('button', { name: 'Guardar contraseña' }).click();
    await expect(page.getByText(message)).toBeVisible();
  }

  // The temporary password itself is refused by the server, and the page says why.
  await page.getByLabel('Nueva contraseña').fill(tempPassword);
  await page.getByLabel('Confirmar contraseña').fill(tempPassword);
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(page.getByText('La nueva contraseña debe ser distinta de la contraseña temporal.')).toBeVisible();
  await expect(page).toHaveURL(/force-password-change$/);

  // Leaving for another page is not possible while the change is pending.
  await page.goto(`/t/${owner.tenant.slug}/agenda`);
  await expect(page).toHaveURL(/force-password-change$/);

  await page.getByLabel('Nueva contraseña').fill('Definitiva1');
  await page.getByLabel('Confirmar contraseña').fill('Definitiva1');
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await login.expectOnBoard(owner.tenant.slug);
  await new Shell(page).expectConnected();
});

test('changing the password in My Account signs the user out, and the new one works', async ({ page, request }) => {
  const owner = await registerCompany(request);
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn({ email: owner.user.email, password: owner.password, tenantSlug: owner.tenant.slug });
  await login.expectOnBoard(owner.tenant.slug);

  const shell = new Shell(page);
  await shell.openUserMenu();
  await page.getByRole('menuitem', { name: 'Mi Perfil' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Email')).toHaveValue(owner.user.email);
  await expect(dialog.getByRole('button', { name: 'Guardar cambios' })).toBeDisabled();
  await dialog.getByLabel('Nombre').fill('Marta Renombrada');
  await dialog.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Nombre actualizado exitosamente.')).toBeVisible();

  await dialog.getByRole('tab', { name: 'Contraseña' }).click();
  await dialog.getByLabel('Nueva contraseña').fill('OtraClave1');
  await dialog.getByLabel('Confirmar contraseña').fill('OtraClave2');
  await dialog.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await expect(page.getByText('Las contraseñas no coinciden.')).toBeVisible();
  await dialog.getByLabel('Confirmar contraseña').fill('OtraClave1');
  await dialog.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await expect(page.getByText('Contraseña actualizada exitosamente. Se cerrará la sesión por seguridad.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });

  await login.signIn({ email: owner.user.email, password: 'OtraClave1', tenantSlug: owner.tenant.slug });
  await login.expectOnBoard(owner.tenant.slug);
});
