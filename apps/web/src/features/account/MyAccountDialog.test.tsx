import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { installFakeApi, json } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aTenant, aUser, storeSession } from '../../test/session-fixture.ts';

async function openAccount(extra: Parameters<typeof installFakeApi>[0] = {}, menuItem = 'Mi Perfil') {
  const user = aUser({ name: 'Ana María' });
  const tenant = aTenant();
  storeSession(user, tenant);
  const api = installFakeApi({ 'GET /api/auth/me': () => json(200, { user, tenant }), ...extra });
  const app = renderApp('/t/acme');
  await screen.findByRole('heading', { name: 'Sales Funnel' });
  fireEvent.click(screen.getByTestId('user-menu-button'));
  fireEvent.click(screen.getByRole('menuitem', { name: menuItem }));
  // The dialog's code loads when it is first opened.
  await screen.findByRole('dialog', { name: 'Mi Cuenta' });
  return { api, app, user };
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('Mi Perfil tab', () => {
  it.each(['Mi Perfil', 'Configuración'])('opens from %s with the name editable and the email read-only', async (item) => {
    await openAccount({}, item);
    expect(screen.getByRole('dialog', { name: 'Mi Cuenta' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Mi Perfil' }).getAttribute('aria-selected')).toBe('true');
    expect(input('Nombre').value).toBe('Ana María');
    expect(input('Email').readOnly).toBe(true);
    expect(input('Email').value).toBe('ana@acme.test');
  });

  it('disables save while the name is unchanged or blank', async () => {
    await openAccount();
    expect(button('Guardar cambios').disabled).toBe(true);
    fireEvent.change(input('Nombre'), { target: { value: '   ' } });
    expect(button('Guardar cambios').disabled).toBe(true);
    fireEvent.change(input('Nombre'), { target: { value: ' Ana María ' } });
    expect(button('Guardar cambios').disabled).toBe(true);
    fireEvent.change(input('Nombre'), { target: { value: 'Ana M. López' } });
    expect(button('Guardar cambios').disabled).toBe(false);
  });

  it('sends only the name, stores the answer and confirms', async () => {
    const { api, user } = await openAccount({
      [`PUT /t/acme/api/users/${aUser().id}`]: ({ body }) => json(200, aUser({ name: (body as { name: string }).name })),
    });
    fireEvent.change(input('Nombre'), { target: { value: '  Ana López ' } });
    fireEvent.click(button('Guardar cambios'));

    expect(await screen.findByText('Nombre actualizado exitosamente.')).toBeTruthy();
    expect(api.callsTo('PUT', `/t/acme/api/users/${user.id}`)[0]?.body).toEqual({ name: 'Ana López' });
    expect(JSON.parse(localStorage.getItem('auth_user') ?? '{}').name).toBe('Ana López');
    expect(screen.getByTestId('user-menu-button').textContent).toContain('AL');
  });

  it('shows the server message or the fallback on failure', async () => {
    const { api, user } = await openAccount({
      [`PUT /t/acme/api/users/${aUser().id}`]: () => json(400, { code: 'BAD_REQUEST', message: 'El nombre es demasiado largo.' }),
    });
    fireEvent.change(input('Nombre'), { target: { value: 'Otro' } });
    fireEvent.click(button('Guardar cambios'));
    expect(await screen.findByText('El nombre es demasiado largo.')).toBeTruthy();

    api.setHandler(`PUT /t/acme/api/users/${user.id}`, () => new Response('', { status: 502 }));
    fireEvent.click(button('Guardar cambios'));
    expect(await screen.findByText('Error al actualizar el nombre.')).toBeTruthy();
  });
});

describe('Contraseña tab', () => {
  function openPasswordTab() {
    fireEvent.click(screen.getByRole('tab', { name: 'Contraseña' }));
  }

  it('needs a new password and a matching confirmation', async () => {
    const { api } = await openAccount();
    openPasswordTab();
    expect(button('Cambiar contraseña').disabled).toBe(true);
    fireEvent.change(input('Nueva contraseña'), { target: { value: 'abc' } });
    fireEvent.change(input('Confirmar contraseña'), { target: { value: 'abd' } });
    fireEvent.click(button('Cambiar contraseña'));
    expect(screen.getByText('Las contraseñas no coinciden.')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/auth/change-password')).toHaveLength(0);
  });

  it('changes it, keeps the fresh token, closes and signs out 2 seconds later', async () => {
    const { api, app } = await openAccount({
      'PUT /api/auth/change-password': () => json(200, { message: 'ok', token: 'fresh-token', user: aUser() }),
      'POST /api/auth/logout': () => new Response(null, { status: 204 }),
    });
    openPasswordTab();
    // No length rule applies here (spec 01 §5).
    fireEvent.change(input('Nueva contraseña'), { target: { value: 'abc' } });
    fireEvent.change(input('Confirmar contraseña'), { target: { value: 'abc' } });
    const clickedAt = Date.now();
    fireEvent.click(button('Cambiar contraseña'));

    expect(await screen.findByText('Contraseña actualizada exitosamente. Se cerrará la sesión por seguridad.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.callsTo('PUT', '/api/auth/change-password')[0]?.body).toEqual({ newPassword: 'abc' });
    expect(localStorage.getItem('auth_token')).toBe('fresh-token');
    expect(app.pathname()).toBe('/t/acme');

    await waitFor(() => expect(app.pathname()).toBe('/login'), { timeout: 4000 });
    expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(1900);
    expect(api.callsTo('POST', '/api/auth/logout')[0]?.headers.authorization).toBe('Bearer fresh-token');
    expect(localStorage.getItem('auth_token')).toBeNull();
  });

  it('shows the fallback when the change fails without a message', async () => {
    await openAccount({ 'PUT /api/auth/change-password': () => new Response('', { status: 500 }) });
    openPasswordTab();
    fireEvent.change(input('Nueva contraseña'), { target: { value: 'abc' } });
    fireEvent.change(input('Confirmar contraseña'), { target: { value: 'abc' } });
    fireEvent.click(button('Cambiar contraseña'));
    expect(await screen.findByText('Error al cambiar la contraseña.')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
