import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { installFakeApi, json } from '../test/fake-api.ts';
import { renderApp } from '../test/render-app.tsx';
import { aTenant, aUser, storeSession } from '../test/session-fixture.ts';
import { createQueryClient } from './query-client.ts';

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

  describe('follows the server policy per role', () => {
    const managersOnly = ['/t/acme/bots', '/t/acme/bots/44444444-4444-4444-8444-444444444444', '/t/acme/templates/new', '/t/acme/templates/abc'];

    it.each((['agent', 'viewer'] as const).flatMap((role) => managersOnly.map((path) => [role, path] as const)))(
      '%s: opening %s by URL shows the no-permission page, with the way back to the board, and nothing of the screen loads',
      async (role, path) => {
        const api = signedIn(aUser({ role }));
        const app = renderApp(path);
        expect(await screen.findByRole('heading', { level: 1, name: 'No tienes permiso para ver esta sección' })).toBeTruthy();
        expect(screen.getByText(/^Tu rol de (Agente|Visualizador) no incluye esta sección/)).toBeTruthy();
        expect(screen.getByRole('link', { name: 'Volver al tablero' }).getAttribute('href')).toBe('/t/acme');
        expect(app.pathname()).toBe(path);
        expect(api.calls.filter((call) => /\/api\/(bots|templates)/.test(call.url))).toEqual([]);
      },
    );

    it.each([
      ['/t/acme/bots', 'Bots Studio'],
      ['/t/acme/templates/new', 'Nueva Plantilla'],
    ])('an admin opens %s', async (path, title) => {
      signedIn(aUser({ role: 'admin' }));
      renderApp(path);
      expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
    });

    it.each(
      (['agent', 'viewer'] as const).flatMap(
        (role) =>
          [
            [role, '/t/acme', 'Sales Funnel'],
            [role, '/t/acme/agenda', 'Agenda'],
            [role, '/t/acme/templates', 'Plantillas de Mensajes'],
            [role, '/t/acme/batches', 'Dashboard de Envíos Masivos'],
          ] as const,
      ),
    )('%s: still opens %s ("%s")', async (role, path, title) => {
      signedIn(aUser({ role }));
      renderApp(path);
      expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
    });

    it('the no-permission page leads back to the board', async () => {
      signedIn(aUser({ role: 'agent' }));
      const app = renderApp('/t/acme/bots');
      fireEvent.click(await screen.findByRole('link', { name: 'Volver al tablero' }));
      expect(await screen.findByRole('heading', { level: 1, name: 'Sales Funnel' })).toBeTruthy();
      expect(app.pathname()).toBe('/t/acme');
    });
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

  it('keeps the restored session as it is when the session check finds nothing new, so no screen renders again', async () => {
    // Stored as a previous visit left it, in another key order than the server's answer.
    const { user, tenant } = storeSession();
    installFakeApi({ 'GET /api/auth/me': () => json(200, { tenant: { ...tenant }, user: Object.fromEntries(Object.entries(user).reverse()) }) });
    const writes = vi.spyOn(Storage.prototype, 'setItem');
    const queryClient = createQueryClient();
    renderApp('/t/acme', queryClient);
    await waitFor(() => expect(queryClient.getQueryState(['auth', 'me', 'stored-token'])?.status).toBe('success'));
    await act(async () => undefined);
    expect(writes.mock.calls.filter(([key]) => key === 'auth_user' || key === 'auth_tenant')).toEqual([]);
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
