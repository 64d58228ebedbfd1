import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { installFakeApi, json } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aTenant, aUser } from '../../test/session-fixture.ts';
import { SLUG_CHECK_DELAY_MS } from './use-slug-availability.ts';

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const slugState = () => screen.getByTestId('slug-status').getAttribute('data-state');
const submitButton = () => screen.getByRole('button', { name: 'Crear cuenta' }) as HTMLButtonElement;
const waitForSlugState = (state: string) => waitFor(() => expect(slugState()).toBe(state), { timeout: 2000 });

/** The registration page loads on demand: its form is there once its code is. */
async function openRegister() {
  const app = renderApp('/register');
  await screen.findByRole('button', { name: 'Crear cuenta' });
  return app;
}

function availability(taken: string[] = []) {
  return installFakeApi({
    'POST /api/auth/register': ({ body }) => {
      const payload = body as { companySlug: string; userName: string; userEmail: string; companyName: string };
      return json(201, {
        token: 'fresh-token',
        user: aUser({ name: payload.userName, email: payload.userEmail }),
        tenant: aTenant({ slug: payload.companySlug, name: payload.companyName }),
      });
    },
    ...Object.fromEntries(
      ['ferreteria-nunez', 'acme', 'mi-tienda', 'ferreteria'].map((slug) => [
        `GET /api/tenants/check-slug/${slug}`,
        () => json(200, { available: !taken.includes(slug) }),
      ]),
    ),
  });
}

describe('register page', () => {
  it('names each field by its own label only, so a lookup by "Contraseña" finds the password field alone', async () => {
    availability();
    await openRegister();
    const password = await screen.findByLabelText('Contraseña');
    expect(screen.getAllByLabelText(/contraseña/i)).toEqual([password]);
    expect(screen.getAllByLabelText(/email/i)).toHaveLength(1);
  });

  it('derives the slug from the company name and checks it once typing stops', async () => {
    const api = availability();
    await openRegister();
    type('Nombre de empresa', 'Ferretería Núñez');
    expect(field('Slug de empresa').value).toBe('ferreteria-nunez');
    expect(slugState()).toBe('checking');
    expect(submitButton().disabled).toBe(true);

    await waitForSlugState('available');
    expect(screen.getByText('Disponible')).toBeTruthy();
    expect(api.callsTo('GET', '/api/tenants/check-slug/ferreteria-nunez')).toHaveLength(1);
    // Nothing was checked for the intermediate values.
    expect(api.calls.filter((call) => call.url.startsWith('/api/tenants/check-slug/'))).toHaveLength(1);
    expect(submitButton().disabled).toBe(false);
  });

  it('stops deriving once the slug is edited by hand', async () => {
    availability();
    await openRegister();
    type('Nombre de empresa', 'Ferretería');
    type('Slug de empresa', 'Mi-Tienda');
    expect(field('Slug de empresa').value).toBe('mi-tienda');
    type('Nombre de empresa', 'Ferretería Núñez');
    expect(field('Slug de empresa').value).toBe('mi-tienda');
    await waitForSlugState('available');
  });

  it('shows a taken slug and keeps submit disabled', async () => {
    availability(['acme']);
    await openRegister();
    type('Slug de empresa', 'acme');
    await waitForSlugState('taken');
    expect(screen.getByText('Este identificador ya está en uso')).toBeTruthy();
    expect(submitButton().disabled).toBe(true);
  });

  it('does not check a slug shorter than 3 characters or with invalid characters', async () => {
    const api = availability();
    await openRegister();
    vi.useFakeTimers();
    type('Slug de empresa', 'ab');
    fireEvent.blur(field('Slug de empresa'));
    expect(slugState()).toBe('idle');
    expect(screen.getByText('Mínimo 3 caracteres')).toBeTruthy();

    type('Slug de empresa', 'mi tienda');
    expect(slugState()).toBe('idle');
    expect(screen.getByText('Solo letras minúsculas, números y guiones')).toBeTruthy();

    type('Slug de empresa', '');
    expect(screen.getByText('Slug de empresa es requerido')).toBeTruthy();
    // Let every debounce delay run out before asserting nothing was asked.
    act(() => {
      vi.advanceTimersByTime(SLUG_CHECK_DELAY_MS * 2);
    });
    expect(api.calls).toHaveLength(0);
    vi.useRealTimers();
  });

  it('shows the field messages when a field is left', async () => {
    availability();
    await openRegister();
    for (const label of ['Nombre de empresa', 'Tu nombre', 'Email', 'Contraseña']) fireEvent.blur(field(label));
    expect(screen.getByText('Nombre de empresa es requerido')).toBeTruthy();
    expect(screen.getByText('Tu nombre es requerido')).toBeTruthy();
    expect(screen.getByText('Email es requerido')).toBeTruthy();
    expect(screen.getByText('Contraseña es requerida')).toBeTruthy();

    type('Email', 'no-es-email');
    expect(screen.getByText('Email inválido')).toBeTruthy();
    type('Contraseña', 'corta');
    expect(screen.getByText('La contraseña no cumple los requisitos')).toBeTruthy();
  });

  it('shows the password rules live', async () => {
    availability();
    await openRegister();
    type('Contraseña', 'secreto');
    const met = () =>
      screen
        .getAllByRole('listitem')
        .filter((item) => item.getAttribute('data-met') === 'true')
        .map((item) => item.getAttribute('data-rule'));
    expect(met()).toEqual(['lower']);
    type('Contraseña', 'Secreto123');
    expect(met()).toEqual(['length', 'upper', 'lower', 'digit']);
  });

  it('registers with the browser time zone and opens the new board', async () => {
    const api = availability();
    const app = await openRegister();
    type('Nombre de empresa', 'Ferretería Núñez');
    type('Tu nombre', 'Marta Núñez');
    type('Email', 'marta@ferreteria.test');
    type('Contraseña', 'Secreto123');
    await waitForSlugState('available');
    fireEvent.click(submitButton());

    expect(await screen.findByRole('heading', { name: 'Sales Funnel' })).toBeTruthy();
    expect(app.pathname()).toBe('/t/ferreteria-nunez');
    expect(api.callsTo('POST', '/api/auth/register')[0]?.body).toEqual({
      companyName: 'Ferretería Núñez',
      companySlug: 'ferreteria-nunez',
      userName: 'Marta Núñez',
      userEmail: 'marta@ferreteria.test',
      userPassword: 'Secreto123',
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    expect(localStorage.getItem('auth_token')).toBe('fresh-token');
  });

  it("shows the server's refusal, or 'Registration failed' without a message", async () => {
    const api = availability();
    api.setHandler('POST /api/auth/register', () => json(409, { code: 'CONFLICT', message: 'Este identificador ya está en uso' }));
    await openRegister();
    type('Nombre de empresa', 'Acme');
    type('Tu nombre', 'Ana');
    type('Email', 'ana@acme.test');
    type('Contraseña', 'Secreto123');
    await waitForSlugState('available');
    fireEvent.click(submitButton());
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Este identificador ya está en uso');

    api.setHandler('POST /api/auth/register', () => new Response('', { status: 500 }));
    fireEvent.click(submitButton());
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Registration failed'));
  });
});
