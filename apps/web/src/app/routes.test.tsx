import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { installFakeApi, json } from '../test/fake-api.ts';
import { createFakeSocket } from '../test/fake-socket.ts';
import { renderApp } from '../test/render-app.tsx';
import { aTenant, aUser, storeSession } from '../test/session-fixture.ts';

vi.mock('socket.io-client', () => ({ io: () => createFakeSocket() }));

function signedIn(user = aUser(), tenant = aTenant()) {
  storeSession(user, tenant);
  return installFakeApi({ 'GET /api/auth/me': () => json(200, { user, tenant }) });
}

describe('routes', () => {
  it.each([
    ['/t/acme', 'Sales Funnel'],
    ['/t/acme/agenda', 'Agenda'],
    ['/t/acme/templates', 'Plantillas de Mensajes'],
    ['/t/acme/templates/new', 'Nueva Plantilla'],
    ['/t/acme/templates/abc', 'Editar Plantilla'],
    ['/t/acme/batches', 'Dashboard de Envíos Masivos'],
    ['/t/acme/bots', 'Bots Studio'],
  ])('%s shows "%s" to a signed-in user', async (path, title) => {
    signedIn();
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
  });

  it('sends a visitor without a session from /t to /login', async () => {
    installFakeApi({});
    const app = renderApp('/t/acme/agenda');
    expect(await screen.findByRole('heading', { name: 'Iniciar Sesión' })).toBeTruthy();
    expect(app.pathname()).toBe('/login');
  });

  it("replaces another tenant's slug with the session's own", async () => {
    signedIn();
    const app = renderApp('/t/otra-empresa/agenda');
    expect(await screen.findByRole('heading', { name: 'Agenda' })).toBeTruthy();
    expect(app.pathname()).toBe('/t/acme/agenda');
  });

  it('keeps a user with a temporary password on the forced change', async () => {
    signedIn(aUser({ force_password_change: true }));
    const app = renderApp('/t/acme/templates');
    expect(await screen.findByRole('heading', { name: 'Crea tu nueva contraseña' })).toBeTruthy();
    expect(app.pathname()).toBe('/t/acme/force-password-change');
  });

  it('sends a user without a temporary password from the forced change to the board', async () => {
    signedIn();
    const app = renderApp('/t/acme/force-password-change');
    expect(await screen.findByRole('heading', { name: 'Sales Funnel' })).toBeTruthy();
    expect(app.pathname()).toBe('/t/acme');
  });

  it.each(['/no/existe', '/t/acme/no-existe', '/t'])('redirects the unknown path %s to the landing page', async (path) => {
    signedIn();
    const app = renderApp(path);
    expect(await screen.findByTestId('language-toggle')).toBeTruthy();
    expect(app.pathname()).toBe('/');
  });

  it('sends a signed-out visitor from admin pages to the admin login', async () => {
    installFakeApi({});
    const app = renderApp('/admin/tenants');
    expect(await screen.findByRole('heading', { name: 'Admin Login' })).toBeTruthy();
    expect(app.pathname()).toBe('/admin/login');
  });

  it('validates a restored session and signs out when the server no longer knows it', async () => {
    storeSession();
    const api = installFakeApi({ 'GET /api/auth/me': () => json(401, { code: 'UNAUTHORIZED', message: 'Sesión inválida' }) });
    const app = renderApp('/t/acme');
    await waitFor(() => expect(app.pathname()).toBe('/login'));
    expect(api.callsTo('GET', '/api/auth/me')[0]?.headers.authorization).toBe('Bearer stored-token');
    expect(localStorage.getItem('auth_token')).toBeNull();
    expect(await screen.findByText('Session expired. Please log in again.')).toBeTruthy();
  });

  it('refreshes the stored user from the session check', async () => {
    const tenant = aTenant();
    storeSession(aUser({ name: 'Nombre Viejo' }), tenant);
    installFakeApi({ 'GET /api/auth/me': () => json(200, { user: aUser({ name: 'Nombre Nuevo' }), tenant }) });
    renderApp('/t/acme');
    await waitFor(() => expect(JSON.parse(localStorage.getItem('auth_user') ?? '{}').name).toBe('Nombre Nuevo'));
  });

  it('sends the user to the forced change when the server demands it', async () => {
    const user = aUser();
    const tenant = aTenant();
    storeSession(user, tenant);
    installFakeApi({
      'GET /api/auth/me': () => json(200, { user, tenant }),
      'GET /t/acme/api/usage': () => json(403, { code: 'PASSWORD_CHANGE_REQUIRED', message: 'Debes cambiar tu contraseña.' }),
    });
    const app = renderApp('/t/acme');
    await screen.findByRole('heading', { name: 'Sales Funnel' });
    const { apiRequest } = await import('../shared/api-client/api-client.ts');
    await apiRequest('/api/usage').catch(() => undefined);
    await waitFor(() => expect(app.pathname()).toBe('/t/acme/force-password-change'));
  });
});
