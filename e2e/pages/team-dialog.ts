import { expect, type Page } from '@playwright/test';
import { Shell } from './shell.ts';

/** Administrar Equipo, opened from the user menu. */
export class TeamDialog {
  constructor(private readonly page: Page) {}

  dialog(name = 'Administrar Equipo') {
    return this.page.getByRole('dialog', { name });
  }

  async open() {
    await new Shell(this.page).openUserMenu();
    await this.page.getByRole('menuitem', { name: 'Administrar Equipo' }).click();
    await expect(this.dialog()).toBeVisible();
  }

  /** Invites a member from the form and answers the temporary password the list then shows once. */
  async invite(member: { name: string; email: string; role?: 'Agente' | 'Administrador' | 'Visualizador'; funnels: string[] }) {
    await this.dialog().getByRole('button', { name: '+ Invitar Usuario' }).click();
    const form = this.dialog('Invitar Usuario');
    await form.getByLabel('Nombre').fill(member.name);
    await form.getByLabel('Email').fill(member.email);
    if (member.role) await form.getByLabel('Rol').selectOption({ label: member.role });
    for (const funnel of member.funnels) await form.getByRole('checkbox', { name: funnel }).check();
    await form.getByRole('button', { name: 'Invitar Usuario', exact: true }).click();
    await expect(this.page.getByText('Usuario invitado exitosamente.')).toBeVisible();
    await expect(this.dialog().getByText(`Contraseña temporal para ${member.email.toLowerCase()}`)).toBeVisible();
    return (await this.dialog().getByTestId('temp-password').textContent())!.trim();
  }

  row(email: string) {
    return this.dialog().locator(`[data-testid="team-row"][data-email="${email.toLowerCase()}"]`);
  }
}
