import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SAME_AS_TEMPORARY_PASSWORD } from '@embudo/contracts/http/auth';
import { installFakeApi, json } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aTenant, aUser, storeSession } from '../../test/session-fixture.ts';

async function openForcedChange(extra: Parameters<typeof installFakeApi>[0] = {}) {
  const user = aUser({ force_password_change: true });
  const tenant = aTenant();
  storeSession(user, tenant);
  const api = installFakeApi({ 'GET /api/auth/me': () => json(200, { user, tenant }), ...extra });
  const app = renderApp('/t/acme/force-password-change');
  await screen.findByRole('heading', { name: 'Crea tu nueva contraseña' });
  return { api, app };
}

function attempt(password: string, confirmation: string) {
  fireEvent.change(screen.getByLabelText('Nueva contraseña'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('Confirmar contraseña'), { target: { value: confirmation } });
  fireEvent.click(screen.getByRole('button', { name: 'Guardar contraseña' }));
}

describe('forced password change', () => {
  it('shows the first broken rule, in the order of the spec', async () => {
    const { api } = await openForcedChange();
    for (const [password, confirmation, message] of [
      ['Ab1', 'Ab1', 'La contraseña debe tener al menos 8 caracteres.'],
      ['abcdefg1', 'abcdefg1', 'Debe contener al menos una mayúscula.'],
      ['ABCDEFG1', 'ABCDEFG1', 'Debe contener al menos una minúscula.'],
      ['Abcdefgh', 'Abcdefgh', 'Debe contener al menos un número.'],
      ['Abcdefg1', 'Abcdefg2', 'Las contraseñas no coinciden.'],
    ] as const) {
      attempt(password, confirmation);
      expect(screen.getByRole('alert').textContent).toBe(message);
    }
    expect(api.callsTo('PUT', '/api/auth/change-password')).toHaveLength(0);
  });

  it('stores the new token and user, then opens the board', async () => {
    const { api, app } = await openForcedChange({
      'PUT /api/auth/change-password': () =>
        json(200, { message: 'Contraseña actualizada.', token: 'fresh-token', user: aUser({ force_password_change: false }) }),
    });
    attempt('Secreto123', 'Secreto123');
    expect(await screen.findByRole('heading', { name: 'Sales Funnel' })).toBeTruthy();
    expect(app.pathname()).toBe('/t/acme');
    expect(api.callsTo('PUT', '/api/auth/change-password')[0]?.body).toEqual({ newPassword: 'Secreto123' });
    expect(localStorage.getItem('auth_token')).toBe('fresh-token');
    expect(JSON.parse(localStorage.getItem('auth_user') ?? '{}').force_password_change).toBe(false);
  });

  it("shows the server message, or 'Ocurrió un error inesperado.'", async () => {
    const { api } = await openForcedChange({
      'PUT /api/auth/change-password': () => json(400, { code: 'BAD_REQUEST', message: 'La contraseña no cumple los requisitos' }),
    });
    attempt('Secreto123', 'Secreto123');
    expect(await screen.findByText('La contraseña no cumple los requisitos')).toBeTruthy();
    api.setHandler('PUT /api/auth/change-password', () => new Response('x', { status: 500 }));
    attempt('Secreto123', 'Secreto123');
    expect(await screen.findByText('Ocurrió un error inesperado.')).toBeTruthy();
  });

  it("shows the server's refusal of the temporary password and stays on the page", async () => {
    const { app } = await openForcedChange({
      'PUT /api/auth/change-password': () => json(400, { code: 'BAD_REQUEST', message: SAME_AS_TEMPORARY_PASSWORD }),
    });
    attempt('TempPass1', 'TempPass1');
    expect(await screen.findByText('La nueva contraseña debe ser distinta de la contraseña temporal.')).toBeTruthy();
    expect(app.pathname()).toBe('/t/acme/force-password-change');
    expect(localStorage.getItem('auth_token')).toBe('stored-token');
  });

  it('has a Cerrar Sesión link that signs out', async () => {
    const { app } = await openForcedChange({ 'POST /api/auth/logout': () => new Response(null, { status: 204 }) });
    fireEvent.click(screen.getByRole('link', { name: 'Cerrar Sesión' }));
    await waitFor(() => expect(app.pathname()).toBe('/login'));
    expect(localStorage.getItem('auth_token')).toBeNull();
  });
});
