import type { SessionTenant } from '@embudo/contracts/http/auth';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { installFakeApi, json } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aTenant, aUser, storeSession } from '../../test/session-fixture.ts';

const columns = [
  { id: 'c-nuevos', title: 'Nuevos', funnelId: 'f1', funnelName: 'Ventas' },
  { id: 'c-ventas', title: 'Ventas', funnelId: 'f1', funnelName: 'Ventas' },
  { id: 'c-soporte', title: 'Soporte', funnelId: 'f2', funnelName: 'Postventa' },
];
const disabled = { enabled: false, message: '', triggerColumnId: null, menuColumnIds: [] };

async function openBotDialog(extra: Parameters<typeof installFakeApi>[0] = {}, tenant: Partial<SessionTenant> = { subscription_plan: 'professional' }) {
  const user = aUser();
  storeSession(user, aTenant(tenant));
  const api = installFakeApi({
    'GET /api/auth/me': () => json(200, { user, tenant: aTenant(tenant) }),
    'GET /t/acme/api/bot-settings': () => json(200, disabled),
    'GET /t/acme/api/columns/all': () => json(200, columns),
    ...extra,
  });
  renderApp('/t/acme/agenda');
  fireEvent.click(await screen.findByTestId('user-menu-button', {}, { timeout: 5000 }));
  fireEvent.click(screen.getByRole('menuitem', { name: 'Configurar Bot Auto' }));
  await screen.findByRole('dialog', { name: 'Configurar Bot Auto' });
  return api;
}

const saveButton = () => screen.getByRole('button', { name: 'Guardar' }) as HTMLButtonElement;

describe('Configurar Bot Auto', () => {
  it('groups the menu columns by funnel, and saves only once enabled with message, waiting room and a menu column', async () => {
    const api = await openBotDialog({ 'PUT /t/acme/api/bot-settings': ({ body }) => json(200, body) });
    const menu = await screen.findByRole('group', { name: 'Columnas del menú' });
    expect(menu.className).toContain('max-h-[150px]');
    expect(within(menu).getByText('Postventa')).toBeTruthy();
    expect(saveButton().disabled).toBe(false);

    fireEvent.click(screen.getByRole('switch', { name: 'Activar bot automático' }));
    expect(saveButton().disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Mensaje de bienvenida'), { target: { value: '¡Hola! ¿Con quién hablas?' } });
    fireEvent.click(within(screen.getByRole('radiogroup', { name: 'Columna de espera' })).getByRole('radio', { name: 'Nuevos' }));
    expect(saveButton().disabled).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Nuevos' }) as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Ventas' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Soporte' }));
    expect(saveButton().disabled).toBe(false);
    fireEvent.change(screen.getByLabelText('Mensaje de bienvenida'), { target: { value: '   ' } });
    expect(saveButton().disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Mensaje de bienvenida'), { target: { value: '¡Hola! ¿Con quién hablas?' } });

    fireEvent.click(saveButton());
    expect(await screen.findByText('Configuración del bot guardada.')).toBeTruthy();
    expect(api.callsTo('PUT', '/t/acme/api/bot-settings')[0]!.body).toEqual({
      enabled: true,
      message: '¡Hola! ¿Con quién hablas?',
      triggerColumnId: 'c-nuevos',
      menuColumnIds: ['c-ventas', 'c-soporte'],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('lists the waiting-room columns under their funnel, as the menu columns are', async () => {
    await openBotDialog();
    const waitingRoom = await screen.findByRole('radiogroup', { name: 'Columna de espera' });
    expect(waitingRoom.className).toContain('max-h-[150px]');
    const postventa = within(waitingRoom).getByRole('group', { name: 'Postventa' });
    expect(within(postventa).getByText('Postventa')).toBeTruthy();
    expect(
      within(postventa)
        .getAllByRole('radio')
        .map((radio) => radio.parentElement!.textContent),
    ).toEqual(['Soporte']);
    expect(within(within(waitingRoom).getByRole('group', { name: 'Ventas' })).getAllByRole('radio')).toHaveLength(2);
  });

  it('shows the saved settings', async () => {
    await openBotDialog({
      'GET /t/acme/api/bot-settings': () => json(200, { enabled: true, message: 'Hola', triggerColumnId: 'c-nuevos', menuColumnIds: ['c-soporte'] }),
    });
    const message = (await screen.findByLabelText('Mensaje de bienvenida')) as HTMLTextAreaElement;
    // The field can be on screen a moment before the saved settings fill it.
    await waitFor(() => expect(message.value).toBe('Hola'));
    expect(screen.getByRole('switch', { name: 'Activar bot automático' }).getAttribute('aria-checked')).toBe('true');
    expect((within(screen.getByRole('radiogroup', { name: 'Columna de espera' })).getByRole('radio', { name: 'Nuevos' }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect((screen.getByRole('checkbox', { name: 'Soporte' }) as HTMLInputElement).checked).toBe(true);
  });

  it('shows the load and save fallbacks', async () => {
    await openBotDialog({ 'GET /t/acme/api/bot-settings': () => new Response('', { status: 500 }) });
    expect((await screen.findAllByText('Error al cargar la configuración')).length).toBeGreaterThan(0);
    expect(saveButton().disabled).toBe(true);
  });

  it('says so when saving fails', async () => {
    await openBotDialog({ 'PUT /t/acme/api/bot-settings': () => new Response('', { status: 500 }) });
    await screen.findByLabelText('Mensaje de bienvenida');
    fireEvent.click(saveButton());
    expect(await screen.findByText('No se pudo guardar la configuración')).toBeTruthy();
  });

  it('on Starter the switch explains that the plan does not include the bot', async () => {
    await openBotDialog({}, { subscription_plan: 'basic' });
    await screen.findByLabelText('Mensaje de bienvenida');
    expect((screen.getByRole('switch', { name: 'Activar bot automático' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('plan-note').textContent).toBe('El bot de automatización es una función del plan Pro. Tu plan Básico (Starter) no lo incluye.');
  });
});
