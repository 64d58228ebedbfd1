import type { SessionUser } from '@embudo/contracts/http/auth';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { installFakeApi, json } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aTenant, aUser, storeSession } from '../../test/session-fixture.ts';

const owner = aUser({ id: 'u-owner', name: 'Ana María', email: 'ana@acme.test', role: 'owner', last_login_at: '2026-05-10T15:30:00.000Z' });
const agent = aUser({ id: 'u-agent', name: 'Carlos Ruiz', email: 'carlos@acme.test', role: 'agent', funnel_access: ['f1'] });
const funnels = [
  { id: 'f1', name: 'Ventas', unreadCount: 0 },
  { id: 'f2', name: 'Postventa', unreadCount: 0 },
];

async function openTeam(extra: Parameters<typeof installFakeApi>[0] = {}, me: SessionUser = owner) {
  storeSession(me, aTenant());
  const api = installFakeApi({
    'GET /api/auth/me': () => json(200, { user: me, tenant: aTenant() }),
    'GET /t/acme/api/users': () => json(200, [owner, agent]),
    'GET /t/acme/api/funnels/summary': () => json(200, funnels),
    ...extra,
  });
  renderApp('/t/acme/agenda');
  fireEvent.click(await screen.findByTestId('user-menu-button', {}, { timeout: 5000 }));
  fireEvent.click(screen.getByRole('menuitem', { name: 'Administrar Equipo' }));
  const dialog = await screen.findByRole('dialog', { name: 'Administrar Equipo' });
  return { api, dialog };
}

const row = (email: string) => screen.getAllByTestId('team-row').find((element) => element.getAttribute('data-email') === email)!;

describe('Administrar Equipo', () => {
  it('lists members with role, status switch, last access or Nunca, and the owner row locked', async () => {
    await openTeam();
    await screen.findByText('carlos@acme.test');
    const header = screen.getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(header).toEqual(['Usuario', 'Rol', 'Estado', 'Último Acceso', 'Acciones']);
    expect(within(row('carlos@acme.test')).getByText('Agente')).toBeTruthy();
    expect(within(row('carlos@acme.test')).getByText('Nunca')).toBeTruthy();
    expect(within(row('ana@acme.test')).getByText('Propietario')).toBeTruthy();
    expect(within(row('ana@acme.test')).queryByText('Nunca')).toBeNull();
    const ownerSwitch = within(row('ana@acme.test')).getByRole('switch') as HTMLButtonElement;
    expect(ownerSwitch.disabled).toBe(true);
    expect(ownerSwitch.title).toBe('El propietario no puede desactivarse a sí mismo.');
    expect((within(row('ana@acme.test')).getByRole('button', { name: 'Resetear contraseña de Ana María' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Cerrar' })).toBeTruthy();
  });

  it('invites an agent with one funnel and shows the temporary password once', async () => {
    const invited = aUser({ id: 'u-new', name: 'Lía Gómez', email: 'lia@acme.test', role: 'agent', funnel_access: ['f2'], force_password_change: true });
    const { api } = await openTeam({ 'POST /t/acme/api/users/invite': () => json(201, { user: invited, tempPassword: 'Temp-9xQ2-ab' }) });
    fireEvent.click(screen.getByRole('button', { name: '+ Invitar Usuario' }));
    expect(await screen.findByRole('dialog', { name: 'Invitar Usuario' })).toBeTruthy();
    expect((screen.getByLabelText('Rol') as HTMLSelectElement).value).toBe('agent');
    expect([...(screen.getByLabelText('Rol') as HTMLSelectElement).options].map((option) => option.textContent)).toEqual([
      'Agente',
      'Administrador',
      'Visualizador',
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Invitar Usuario' }));
    expect(await screen.findByText('El nombre es requerido.')).toBeTruthy();
    expect(screen.getByText('El email es requerido.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'no-es-email' } });
    expect(await screen.findByText('Email inválido')).toBeTruthy();
    expect(api.callsTo('POST', '/t/acme/api/users/invite')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Nombre'), { target: { value: ' Lía Gómez ' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'Lia@Acme.test' } });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Postventa' }));
    fireEvent.click(screen.getByRole('button', { name: 'Invitar Usuario' }));
    expect(await screen.findByText('Usuario invitado exitosamente.')).toBeTruthy();
    expect(api.callsTo('POST', '/t/acme/api/users/invite')[0]!.body).toEqual({
      name: 'Lía Gómez',
      email: 'lia@acme.test',
      role: 'agent',
      is_active: true,
      funnelIds: ['f2'],
    });
    expect(screen.getByRole('dialog', { name: 'Administrar Equipo' })).toBeTruthy();
    expect(screen.getByTestId('temp-password').textContent).toBe('Temp-9xQ2-ab');
    expect(screen.getByText('Contraseña temporal para lia@acme.test')).toBeTruthy();
    expect(row('lia@acme.test')).toBeTruthy();
  });

  it('gives admins every funnel: the checkboxes are ticked, disabled and explained', async () => {
    await openTeam();
    fireEvent.click(screen.getByRole('button', { name: '+ Invitar Usuario' }));
    await screen.findByRole('checkbox', { name: 'Ventas' });
    fireEvent.change(screen.getByLabelText('Rol'), { target: { value: 'admin' } });
    expect(screen.getByText('Los administradores y propietarios tienen acceso a todos los funnels.')).toBeTruthy();
    for (const name of ['Ventas', 'Postventa']) {
      const box = screen.getByRole('checkbox', { name }) as HTMLInputElement;
      expect(box.disabled && box.checked).toBe(true);
    }
    expect(screen.getByTestId('funnel-access-list').className).toContain('max-h-[250px]');
  });

  it('edits a member with the email locked, and goes back to the list', async () => {
    const { api } = await openTeam({
      'PUT /t/acme/api/users/u-agent': ({ body }) => json(200, { ...agent, ...(body as object), funnel_access: ['f1', 'f2'] }),
    });
    await screen.findByText('carlos@acme.test');
    fireEvent.click(screen.getByRole('button', { name: 'Editar Carlos Ruiz' }));
    expect(await screen.findByRole('dialog', { name: 'Editar Usuario' })).toBeTruthy();
    const email = screen.getByLabelText('Email') as HTMLInputElement;
    expect(email.readOnly).toBe(true);
    expect(screen.getByText('El email no se puede cambiar.')).toBeTruthy();
    expect(((await screen.findByRole('checkbox', { name: 'Ventas' })) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Postventa' }));
    fireEvent.change(screen.getByLabelText('Rol'), { target: { value: 'viewer' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
    expect(await screen.findByText('Usuario actualizado exitosamente.')).toBeTruthy();
    expect(api.callsTo('PUT', '/t/acme/api/users/u-agent')[0]!.body).toEqual({
      name: 'Carlos Ruiz',
      email: 'carlos@acme.test',
      role: 'viewer',
      funnelIds: ['f1', 'f2'],
    });
    expect(within(row('carlos@acme.test')).getByText('Visualizador')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Editar Carlos Ruiz' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Volver a la Lista' }));
    expect(await screen.findByRole('dialog', { name: 'Administrar Equipo' })).toBeTruthy();
  });

  it('does not let the owner edit their own row (the name is changed in Mi Perfil)', async () => {
    await openTeam();
    await screen.findByText('ana@acme.test');
    const edit = within(row('ana@acme.test')).getByRole('button', { name: 'Editar Ana María' }) as HTMLButtonElement;
    expect(edit.disabled).toBe(true);
    expect(edit.title).toBe('El propietario no puede editar su propia fila del equipo: cambia tu nombre en Mi Perfil.');
    fireEvent.click(edit);
    expect(screen.queryByRole('form', { name: 'Editar Usuario' })).toBeNull();
    expect((within(row('carlos@acme.test')).getByRole('button', { name: 'Editar Carlos Ruiz' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("an admin cannot open the owner's row", async () => {
    const admin = aUser({ id: 'u-admin', name: 'Berta Admin', email: 'berta@acme.test', role: 'admin' });
    await openTeam({ 'GET /t/acme/api/users': () => json(200, [owner, admin, agent]) }, admin);
    await screen.findByText('ana@acme.test');
    expect((screen.getByRole('button', { name: 'Editar Ana María' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(row('berta@acme.test')).getByRole('switch') as HTMLButtonElement).disabled).toBe(true);
  });

  it('switches a member off and says so; shows the fallback when that fails', async () => {
    let fail = false;
    const { api } = await openTeam({
      'PUT /t/acme/api/users/u-agent': () => (fail ? json(500, {}) : json(200, { ...agent, is_active: false })),
    });
    await screen.findByText('carlos@acme.test');
    fireEvent.click(screen.getByRole('switch', { name: 'Estado de Carlos Ruiz' }));
    expect(await screen.findByText('Estado de Carlos Ruiz actualizado.')).toBeTruthy();
    expect(api.callsTo('PUT', '/t/acme/api/users/u-agent')[0]!.body).toEqual({ is_active: false });
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Estado de Carlos Ruiz' }).getAttribute('aria-checked')).toBe('false'));
    fail = true;
    fireEvent.click(screen.getByRole('switch', { name: 'Estado de Carlos Ruiz' }));
    expect(await screen.findByText('Error al actualizar el estado.')).toBeTruthy();
  });

  it('resets a password after confirming and shows the new temporary one', async () => {
    const { api } = await openTeam({ 'POST /t/acme/api/users/u-agent/reset-password': () => json(200, { tempPassword: 'Nueva-77aa' }) });
    await screen.findByText('carlos@acme.test');
    fireEvent.click(screen.getByRole('button', { name: 'Resetear contraseña de Carlos Ruiz' }));
    expect(api.callsTo('POST', '/t/acme/api/users/u-agent/reset-password')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Resetear' }));
    expect(await screen.findByText('Contraseña reseteada para carlos@acme.test.')).toBeTruthy();
    expect(screen.getByTestId('temp-password').textContent).toBe('Nueva-77aa');
  });

  it('shows the server message on a refused save, and the spec fallbacks otherwise', async () => {
    let answer = json(403, { code: 'FORBIDDEN', message: 'Tu plan Básico (Starter) permite hasta 2 miembros activos.' });
    await openTeam({ 'POST /t/acme/api/users/invite': () => answer, 'POST /t/acme/api/users/u-agent/reset-password': () => json(500, {}) });
    fireEvent.click(screen.getByRole('button', { name: '+ Invitar Usuario' }));
    fireEvent.change(await screen.findByLabelText('Nombre'), { target: { value: 'Tercera' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'tercera@acme.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Invitar Usuario' }));
    expect(await screen.findByText('Tu plan Básico (Starter) permite hasta 2 miembros activos.')).toBeTruthy();
    answer = new Response('', { status: 500 });
    fireEvent.click(screen.getByRole('button', { name: 'Invitar Usuario' }));
    expect(await screen.findByText('Error al guardar el usuario.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Volver a la Lista' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Resetear contraseña de Carlos Ruiz' }));
    fireEvent.click(screen.getByRole('button', { name: 'Resetear' }));
    expect(await screen.findByText('Error al resetear la contraseña.')).toBeTruthy();
  });

  it('shows the list fallback when the users cannot be loaded', async () => {
    await openTeam({ 'GET /t/acme/api/users': () => new Response('', { status: 500 }) });
    expect((await screen.findAllByText('Error al cargar la lista de usuarios.')).length).toBeGreaterThan(0);
  });
});
