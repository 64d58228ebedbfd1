import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Role } from '@embudo/contracts/http/auth';
import { installFakeApi, json } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aTenant, aUser, storeSession } from '../../test/session-fixture.ts';

const everyoneItems = ['Mi Consumo', 'Mi Perfil', 'Configuración', 'Cerrar Sesión'];
const managerItems = ['Bots Studio', 'Administrar Equipo', 'Plantillas', 'Configurar Bot Auto', 'Conexión WhatsApp'];

async function openShell(role: Role = 'owner', extra: Parameters<typeof installFakeApi>[0] = {}, name = 'Ana María') {
  const user = aUser({ role, name });
  const tenant = aTenant();
  storeSession(user, tenant);
  const api = installFakeApi({ 'GET /api/auth/me': () => json(200, { user, tenant }), ...extra });
  const app = renderApp('/t/acme');
  await screen.findByRole('heading', { name: 'Sales Funnel' });
  return { api, app, user };
}

function openMenu() {
  fireEvent.click(screen.getByTestId('user-menu-button'));
  return screen.getByRole('menu');
}

const menuItemNames = () => screen.getAllByRole('menuitem').map((item) => item.textContent);

describe('application shell', () => {
  it('has the navigation, a disabled Facturación, the search box and the connection status', async () => {
    await openShell();
    const nav = screen.getByRole('navigation', { name: 'Principal' });
    for (const [name, href] of [
      ['Sales Funnel', '/t/acme'],
      ['Agenda', '/t/acme/agenda'],
      ['Plantillas', '/t/acme/templates'],
      ['Envíos', '/t/acme/batches'],
    ]) {
      expect(within(nav).getByRole('link', { name }).getAttribute('href')).toBe(href);
    }
    expect((within(nav).getByRole('button', { name: 'Facturación' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByPlaceholderText('Buscar...')).toBeTruthy();
    const status = screen.getByTestId('connection-status');
    expect(status.getAttribute('data-status')).toBe('connecting');
    expect(status.textContent).toContain('Conectando...');
  });

  it('shows the initials of the user in the avatar', async () => {
    await openShell('owner', {}, 'Demo');
    expect(screen.getByTestId('user-menu-button').textContent).toContain('DE');
  });

  it.each<[Role, string[]]>([
    ['owner', [...everyoneItems.slice(0, 3), ...managerItems, 'Cerrar Sesión']],
    ['admin', [...everyoneItems.slice(0, 3), ...managerItems, 'Cerrar Sesión']],
    ['agent', everyoneItems],
    ['viewer', everyoneItems],
  ])('shows %s the right menu items', async (role, items) => {
    await openShell(role);
    openMenu();
    expect(menuItemNames()).toEqual(items);
  });

  it('navigates to Bots Studio and Plantillas from the menu', async () => {
    const { app } = await openShell();
    openMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Bots Studio' }));
    expect(await screen.findByRole('heading', { name: 'Bots Studio' })).toBeTruthy();
    expect(app.pathname()).toBe('/t/acme/bots');
    openMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Plantillas' }));
    expect(await screen.findByRole('heading', { name: 'Plantillas de Mensajes' })).toBeTruthy();
  });

  it('closes the menu with Escape', async () => {
    await openShell();
    openMenu();
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('keeps a single modal open', async () => {
    await openShell();
    openMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Administrar Equipo' }));
    expect(await screen.findByRole('dialog', { name: 'Administrar Equipo' })).toBeTruthy();
    openMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Mi Perfil' }));
    expect(await screen.findByRole('dialog', { name: 'Mi Cuenta' })).toBeTruthy();
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
  });

  it('signs out through the server and lands on /login', async () => {
    const { api, app } = await openShell('owner', { 'POST /api/auth/logout': () => new Response(null, { status: 204 }) });
    openMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Cerrar Sesión' }));
    expect(await screen.findByRole('heading', { name: 'Iniciar Sesión' })).toBeTruthy();
    expect(app.pathname()).toBe('/login');
    expect(api.callsTo('POST', '/api/auth/logout')[0]?.headers.authorization).toBe('Bearer stored-token');
    expect(localStorage.getItem('auth_token')).toBeNull();
    expect(localStorage.getItem('auth_user')).toBeNull();
    expect(localStorage.getItem('auth_tenant')).toBeNull();
  });

  it('still signs out locally when the server call fails, only warning about it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { app } = await openShell('owner', { 'POST /api/auth/logout': () => json(500, { message: 'boom' }) });
    openMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Cerrar Sesión' }));
    await waitFor(() => expect(app.pathname()).toBe('/login'));
    expect(warn).toHaveBeenCalledOnce();
    expect(localStorage.getItem('auth_token')).toBeNull();
    warn.mockRestore();
  });
});

describe('Mi Consumo', () => {
  it('shows the month figures, the cost with 4 decimals', async () => {
    await openShell('agent', {
      'GET /t/acme/api/usage': () =>
        json(200, {
          usage: {
            totalCost: 1.5,
            sentCount: 1200,
            receivedCount: 7,
            marketingTemplateCount: 3,
            utilityTemplateCount: 2,
            aiAnswerCount: 4,
            aiTokenCount: 12500,
          },
        }),
    });
    openMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Mi Consumo' }));
    expect(await screen.findByText('$1.5000')).toBeTruthy();
    expect(screen.getByText('Mensajes enviados').nextSibling?.textContent).toBe((1200).toLocaleString('es'));
    expect(screen.getByText('Mensajes recibidos').nextSibling?.textContent).toBe('7');
    expect(screen.getByText('Respuestas de IA').nextSibling?.textContent).toBe('4');
    expect(screen.getByText('Tokens de IA').nextSibling?.textContent).toBe((12500).toLocaleString('es'));
  });

  it('says failed sends are not billed, and how many this month', async () => {
    await openShell('agent', {
      'GET /t/acme/api/usage': () =>
        json(200, { totalCost: 0.02, sentCount: 0, receivedCount: 0, marketingTemplateCount: 0, utilityTemplateCount: 1, failedUnbilledCount: 2 }),
    });
    openMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Mi Consumo' }));
    expect((await screen.findByTestId('usage-billing-rule')).textContent).toBe(
      'Solo se cobra lo que WhatsApp aceptó: los envíos que fallan no se cobran. Este mes: 2 envíos fallidos sin cobrar.',
    );
  });

  it("says 'Error al cargar el consumo' when the call fails", async () => {
    await openShell('agent');
    openMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Mi Consumo' }));
    expect(await screen.findByText('Error al cargar el consumo')).toBeTruthy();
  });

  it('says when there is no usage this month', async () => {
    await openShell('agent', { 'GET /t/acme/api/usage': () => json(200, {}) });
    openMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Mi Consumo' }));
    expect(await screen.findByText('No se encontraron datos de consumo para el mes actual.')).toBeTruthy();
  });
});
