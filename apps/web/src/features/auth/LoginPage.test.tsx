import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { installFakeApi, json } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aTenant, aUser } from '../../test/session-fixture.ts';

function fill(values: { email?: string; password?: string; slug?: string }) {
  if (values.email !== undefined) fireEvent.change(screen.getByLabelText('Email'), { target: { value: values.email } });
  if (values.password !== undefined) fireEvent.change(screen.getByLabelText('Contraseña'), { target: { value: values.password } });
  if (values.slug !== undefined) fireEvent.change(screen.getByLabelText('Slug de empresa'), { target: { value: values.slug } });
}

/** The login page loads on demand: its form is there once its code is. */
async function openLogin() {
  const app = renderApp('/login');
  await screen.findByRole('button', { name: 'Iniciar Sesión' });
  return app;
}

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Iniciar Sesión' }));

describe('login page', () => {
  it('shows the required-field messages', async () => {
    installFakeApi({});
    await openLogin();
    submit();
    expect(screen.getByText('Email es requerido')).toBeTruthy();
    expect(screen.getByText('Contraseña es requerida')).toBeTruthy();
    expect(screen.getByText('Slug de empresa es requerido')).toBeTruthy();
  });

  it('checks the email shape and the slug characters', async () => {
    const api = installFakeApi({});
    await openLogin();
    fill({ email: 'ana@', password: 'x', slug: 'mi empresa' });
    submit();
    expect(screen.getByText('Email inválido')).toBeTruthy();
    expect(screen.getByText('Solo letras minúsculas, números y guiones')).toBeTruthy();
    expect(api.calls).toHaveLength(0);
  });

  it('sends the slug trimmed and lowercased, stores the session and opens the board', async () => {
    const api = installFakeApi({
      'POST /api/auth/login': () => json(200, { token: 'new-token', user: aUser(), tenant: aTenant() }),
    });
    const app = await openLogin();
    fill({ email: 'ana@acme.test', password: 'Secreto123', slug: '  ACME ' });
    submit();

    expect(await screen.findByRole('heading', { name: 'Sales Funnel' })).toBeTruthy();
    expect(app.pathname()).toBe('/t/acme');
    expect(api.callsTo('POST', '/api/auth/login')[0]?.body).toEqual({ email: 'ana@acme.test', password: 'Secreto123', tenantSlug: 'acme' });
    expect(localStorage.getItem('auth_token')).toBe('new-token');
    expect(JSON.parse(localStorage.getItem('auth_tenant') ?? '{}').slug).toBe('acme');
  });

  it('shows the server message of a 401 on the form instead of expiring a session', async () => {
    installFakeApi({
      'POST /api/auth/login': () => json(401, { code: 'UNAUTHORIZED', message: 'Email, contraseña o empresa incorrectos.' }),
    });
    const app = await openLogin();
    fill({ email: 'ana@acme.test', password: 'mala', slug: 'acme' });
    submit();

    expect(await screen.findByText('Email, contraseña o empresa incorrectos.')).toBeTruthy();
    expect(screen.queryByText('Session expired. Please log in again.')).toBeNull();
    expect(app.pathname()).toBe('/login');
  });

  it('shows the message of a 429', async () => {
    installFakeApi({ 'POST /api/auth/login': () => json(429, { code: 'TOO_MANY_REQUESTS', message: 'Demasiados intentos. Prueba más tarde.' }) });
    await openLogin();
    fill({ email: 'ana@acme.test', password: 'x', slug: 'acme' });
    submit();
    expect(await screen.findByText('Demasiados intentos. Prueba más tarde.')).toBeTruthy();
  });

  it("falls back to 'Login failed' without a server message", async () => {
    installFakeApi({ 'POST /api/auth/login': () => new Response('down', { status: 503 }) });
    await openLogin();
    fill({ email: 'ana@acme.test', password: 'x', slug: 'acme' });
    submit();
    expect(await screen.findByText('Login failed')).toBeTruthy();
  });

  it('sends a user with a temporary password to the forced change', async () => {
    installFakeApi({
      'POST /api/auth/login': () => json(200, { token: 't', user: aUser({ force_password_change: true }), tenant: aTenant() }),
    });
    const app = await openLogin();
    fill({ email: 'ana@acme.test', password: 'Temporal1', slug: 'acme' });
    submit();
    expect(await screen.findByRole('heading', { name: 'Crea tu nueva contraseña' })).toBeTruthy();
    await waitFor(() => expect(app.pathname()).toBe('/t/acme/force-password-change'));
  });

  it('links to the registration page', async () => {
    installFakeApi({});
    await openLogin();
    expect(screen.getByRole('link', { name: 'Registra tu empresa' }).getAttribute('href')).toBe('/register');
  });
});
