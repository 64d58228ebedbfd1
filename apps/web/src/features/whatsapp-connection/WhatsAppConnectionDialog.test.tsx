import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { installFakeApi, json } from '../../test/fake-api.ts';
import { createFakeSocket } from '../../test/fake-socket.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aTenant, aUser, storeSession } from '../../test/session-fixture.ts';

vi.mock('socket.io-client', () => ({ io: () => createFakeSocket() }));

const settings = { appName: 'sandbox-acme', sourceNumber: '15550001000', webhookUrl: 'http://localhost:3000/webhooks/gupshup/t/secret', sandbox: true };

async function openConnection(extra: Parameters<typeof installFakeApi>[0] = {}) {
  const user = aUser({ name: 'Ana María' });
  const tenant = aTenant();
  storeSession(user, tenant);
  const api = installFakeApi({ 'GET /api/auth/me': () => json(200, { user, tenant }), ...extra });
  renderApp('/t/acme');
  await screen.findByRole('heading', { name: 'Sales Funnel' });
  fireEvent.click(screen.getByTestId('user-menu-button'));
  fireEvent.click(screen.getByRole('menuitem', { name: 'Conexión WhatsApp' }));
  return api;
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('Conexión WhatsApp dialog', () => {
  it('loads the settings with the webhook URL and saves both fields', async () => {
    const api = await openConnection({
      'GET /t/acme/api/gupshup/settings': () => json(200, settings),
      'PUT /t/acme/api/gupshup/settings': () => json(200, { ...settings, appName: 'MiApp', sourceNumber: '5215500000000' }),
    });
    await waitFor(() => expect(input('Nombre de la app').value).toBe('sandbox-acme'));
    expect(screen.getByTestId('webhook-url').textContent).toBe(settings.webhookUrl);
    fireEvent.change(input('Nombre de la app'), { target: { value: 'MiApp' } });
    fireEvent.change(input('Número de origen'), { target: { value: '5215500000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Configuración de Gupshup guardada.')).toBeTruthy();
    expect(api.callsTo('PUT', '/t/acme/api/gupshup/settings')).toHaveLength(1);
  });

  it('requires both fields before saving', async () => {
    const api = await openConnection({ 'GET /t/acme/api/gupshup/settings': () => json(200, { ...settings, appName: null, sourceNumber: null }) });
    await screen.findByLabelText('Nombre de la app');
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('El nombre de la app es requerido.')).toBeTruthy();
    expect(screen.getByText('El número de origen es requerido.')).toBeTruthy();
    expect(api.callsTo('PUT', '/t/acme/api/gupshup/settings')).toHaveLength(0);
  });

  it('shows the load error message', async () => {
    await openConnection({ 'GET /t/acme/api/gupshup/settings': () => json(500, {}) });
    expect(await screen.findByText('Error al cargar la configuración de Gupshup')).toBeTruthy();
  });
});
