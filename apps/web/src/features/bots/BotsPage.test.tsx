import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BotDetail, BotSummary } from '@embudo/contracts/http/bots';
import { installFakeApi, json } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aTenant, aUser, storeSession } from '../../test/session-fixture.ts';

const aBot = (overrides: Partial<BotSummary> = {}): BotSummary => ({
  id: '44444444-4444-4444-8444-444444444444',
  name: 'Agenda',
  type: 'scheduling',
  avatar_icon: 'scheduling',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-02T00:00:00Z',
  ...overrides,
});

function signedIn(handlers: Parameters<typeof installFakeApi>[0]) {
  const user = aUser();
  const tenant = aTenant();
  storeSession(user, tenant);
  return installFakeApi({ 'GET /api/auth/me': () => json(200, { user, tenant }), ...handlers });
}

describe('Bots Studio', () => {
  it('shows a card per bot with a create card, and opens a bot in the editor', async () => {
    signedIn({
      'GET /t/acme/api/bots': () =>
        json(200, [aBot(), aBot({ id: '55555555-5555-4555-8555-555555555555', name: 'Cobros', type: 'billing', avatar_icon: 'billing' })]),
    });
    const app = renderApp('/t/acme/bots');
    const agenda = await screen.findByRole('article', { name: 'Agenda' });
    expect(within(agenda).getByText('Agendamiento')).toBeTruthy();
    expect(within(screen.getByRole('article', { name: 'Cobros' })).getByText('Cobranza')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Crear Nuevo Bot' })).toBeTruthy();
    fireEvent.click(within(agenda).getByRole('link', { name: 'Abrir Agenda' }));
    await waitFor(() => expect(app.pathname()).toBe('/t/acme/bots/44444444-4444-4444-8444-444444444444'));
  });

  it('asks for a name and a type, refuses a blank name, then creates the bot and opens it', async () => {
    const created: BotDetail = {
      ...aBot({ id: '66666666-6666-4666-8666-666666666666', name: 'Cobranza mayo', type: 'billing', avatar_icon: 'billing' }),
      config: { nodes: [], edges: [] },
    };
    const api = signedIn({
      'GET /t/acme/api/bots': () => json(200, []),
      'POST /t/acme/api/bots': () => json(201, created),
      [`GET /t/acme/api/bots/${created.id}`]: () => json(200, created),
    });
    const app = renderApp('/t/acme/bots');
    fireEvent.click(await screen.findByRole('button', { name: 'Crear Nuevo Bot' }));
    const dialog = screen.getByRole('dialog', { name: 'Crear nuevo bot' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Crear Bot' }));
    expect(within(dialog).getByText('El nombre del bot es requerido.')).toBeTruthy();
    expect(api.callsTo('POST', '/t/acme/api/bots')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Nombre del bot'), { target: { value: 'Cobranza mayo' } });
    fireEvent.change(within(dialog).getByLabelText('Tipo de bot'), { target: { value: 'billing' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Crear Bot' }));
    expect(await screen.findByText('¡Bot creado exitosamente!')).toBeTruthy();
    expect(api.callsTo('POST', '/t/acme/api/bots')[0]!.body).toEqual({ name: 'Cobranza mayo', type: 'billing', avatar_icon: 'billing' });
    await waitFor(() => expect(app.pathname()).toBe(`/t/acme/bots/${created.id}`));
  });

  it("shows the server's message, or Fallo al crear el bot.", async () => {
    signedIn({ 'GET /t/acme/api/bots': () => json(200, []), 'POST /t/acme/api/bots': () => new Response('boom', { status: 500 }) });
    renderApp('/t/acme/bots');
    fireEvent.click(await screen.findByRole('button', { name: 'Crear Nuevo Bot' }));
    fireEvent.change(screen.getByLabelText('Nombre del bot'), { target: { value: 'Agenda' } });
    fireEvent.click(screen.getByRole('button', { name: 'Crear Bot' }));
    expect(await screen.findByText('Fallo al crear el bot.')).toBeTruthy();
  });

  it('deletes a bot only after confirmation', async () => {
    const api = signedIn({
      'GET /t/acme/api/bots': () => json(200, [aBot()]),
      [`DELETE /t/acme/api/bots/${aBot().id}`]: () => new Response(null, { status: 204 }),
    });
    renderApp('/t/acme/bots');
    fireEvent.click(await screen.findByRole('button', { name: 'Eliminar Agenda' }));
    const confirm = screen.getByRole('dialog', { name: 'Eliminar bot' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
    expect(api.callsTo('DELETE', `/t/acme/api/bots/${aBot().id}`)).toHaveLength(0);

    api.setHandler('GET /t/acme/api/bots', () => json(200, []));
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar Agenda' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Eliminar bot' })).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Bot eliminado.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Agenda' })).toBeNull());
  });

  it('says when deleting or loading fails', async () => {
    signedIn({ 'GET /t/acme/api/bots': () => json(200, [aBot()]), [`DELETE /t/acme/api/bots/${aBot().id}`]: () => new Response('x', { status: 500 }) });
    renderApp('/t/acme/bots');
    fireEvent.click(await screen.findByRole('button', { name: 'Eliminar Agenda' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Eliminar bot' })).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Fallo al eliminar el bot.')).toBeTruthy();
  });

  it('says Fallo al cargar los bots. when the list fails', async () => {
    signedIn({ 'GET /t/acme/api/bots': () => new Response('boom', { status: 500 }) });
    renderApp('/t/acme/bots');
    await waitFor(() => expect(screen.getAllByText('Fallo al cargar los bots.')).toHaveLength(2));
  });
});
