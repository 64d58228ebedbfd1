import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { SECRET_MASK } from '@embudo/contracts/flows/node-secrets';
import type { BotDetail } from '@embudo/contracts/http/bots';
import { installFakeApi, json } from '../../test/fake-api.ts';
import { installReactFlowJsdom } from '../../test/react-flow-jsdom.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aTenant, aUser, storeSession } from '../../test/session-fixture.ts';

beforeAll(installReactFlowJsdom);

// The signed-in shell and the editor (with React Flow) load on demand: the first render may take a while.
const LAZY = { timeout: 5_000 };
const BOT_ID = '44444444-4444-4444-8444-444444444444';
const aBot = (): BotDetail => ({
  id: BOT_ID,
  name: 'Agenda',
  type: 'scheduling',
  avatar_icon: 'scheduling',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  config: {
    nodes: [
      { id: 'trigger-1', type: 'trigger', position: { x: 0, y: 0 }, data: { label: 'Inicio', triggerType: 'on_message_received', columnId: '' } },
      { id: 'sendMessage-1', type: 'sendMessage', position: { x: 0, y: 200 }, data: { label: 'Hola', text: 'Hola, ¿en qué te ayudo?' } },
    ],
    edges: [{ id: 'e1', source: 'trigger-1', target: 'sendMessage-1', sourceHandle: null, targetHandle: null }],
  },
});

function signedIn(handlers: Parameters<typeof installFakeApi>[0]) {
  const user = aUser();
  const tenant = aTenant();
  storeSession(user, tenant);
  return installFakeApi({
    'GET /api/auth/me': () => json(200, { user, tenant }),
    'GET /t/acme/api/columns/all': () => json(200, []),
    'GET /t/acme/api/users': () => json(200, []),
    ...handlers,
  });
}

describe('bot editor', () => {
  it('says Cargando Editor de Bot... while loading, then shows the name, the node count and the nodes', async () => {
    let answer!: (response: Response) => void;
    signedIn({
      [`GET /t/acme/api/bots/${BOT_ID}`]: () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    renderApp(`/t/acme/bots/${BOT_ID}`);
    expect(await screen.findByText('Cargando Editor de Bot...', {}, LAZY)).toBeTruthy();
    // The loading text shows before the request leaves: answer only once it has.
    await waitFor(() => expect(answer).toBeTypeOf('function'), LAZY);
    answer(json(200, aBot()));
    expect(((await screen.findByLabelText('Nombre del bot', {}, LAZY)) as HTMLInputElement).value).toBe('Agenda');
    expect(screen.getByTestId('node-count').textContent).toBe('2 nodos');
    expect(screen.getByTestId('flow-node-trigger')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Volver a Bots Studio' }).getAttribute('href')).toBe('/t/acme/bots');
  });

  it('says Failed to load bot data when the bot cannot be loaded', async () => {
    signedIn({ [`GET /t/acme/api/bots/${BOT_ID}`]: () => new Response('boom', { status: 500 }) });
    renderApp(`/t/acme/bots/${BOT_ID}`);
    await waitFor(() => expect(screen.getAllByText('Failed to load bot data')).toHaveLength(2), LAZY);
  });

  it('deleting a node removes its edges from what is saved; Guardando... while saving, then the success message', async () => {
    let answer!: (response: Response) => void;
    const api = signedIn({
      [`GET /t/acme/api/bots/${BOT_ID}`]: () => json(200, aBot()),
      [`PUT /t/acme/api/bots/${BOT_ID}`]: () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    renderApp(`/t/acme/bots/${BOT_ID}`);
    fireEvent.change(await screen.findByLabelText('Nombre del bot', {}, LAZY), { target: { value: 'Agenda 2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar nodo Hola' }));
    await waitFor(() => expect(screen.getByTestId('node-count').textContent).toBe('1 nodo'));

    fireEvent.click(screen.getByRole('button', { name: 'Guardar Flujo' }));
    expect(await screen.findByRole('button', { name: 'Guardando...' })).toBeTruthy();
    await waitFor(() => expect(answer).toBeTypeOf('function'));
    const body = api.callsTo('PUT', `/t/acme/api/bots/${BOT_ID}`)[0]!.body as { name: string; config: { nodes: { id: string }[]; edges: unknown[] } };
    expect(body.name).toBe('Agenda 2');
    expect(body.config.nodes.map((node) => node.id)).toEqual(['trigger-1']);
    expect(body.config.edges).toEqual([]);
    answer(json(200, { ...aBot(), name: 'Agenda 2' }));
    expect(await screen.findByText('Bot guardado exitosamente!')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Guardar Flujo' })).toBeTruthy();
  });

  it('marks unsaved changes beside Guardar Flujo and has the browser ask before leaving, until they are saved', async () => {
    signedIn({
      [`GET /t/acme/api/bots/${BOT_ID}`]: () => json(200, aBot()),
      [`PUT /t/acme/api/bots/${BOT_ID}`]: () => json(200, aBot()),
    });
    renderApp(`/t/acme/bots/${BOT_ID}`);
    const leaving = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    await screen.findByTestId('flow-node-trigger', {}, LAZY);
    expect(screen.queryByTestId('unsaved-mark')).toBeNull();
    expect(leaving()).toBe(false);

    fireEvent.click(screen.getByTestId('palette-timer'));
    expect((await screen.findByTestId('unsaved-mark')).textContent).toBe('Cambios sin guardar');
    expect(leaving()).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Guardar Flujo' }));
    expect(await screen.findByText('Bot guardado exitosamente!')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('unsaved-mark')).toBeNull());
    expect(leaving()).toBe(false);

    // Changing the name back and forth leaves nothing to save.
    const name = screen.getByLabelText('Nombre del bot');
    fireEvent.change(name, { target: { value: 'Agenda nueva' } });
    expect(screen.getByTestId('unsaved-mark')).toBeTruthy();
    fireEvent.change(name, { target: { value: 'Agenda' } });
    expect(screen.queryByTestId('unsaved-mark')).toBeNull();
  });

  it('refuses a second trigger from the palette, adds other nodes with their defaults, and shows the JSON', async () => {
    signedIn({ [`GET /t/acme/api/bots/${BOT_ID}`]: () => json(200, aBot()) });
    renderApp(`/t/acme/bots/${BOT_ID}`);
    fireEvent.click(await screen.findByTestId('palette-trigger', {}, LAZY));
    expect(await screen.findByText('Solo puede haber un nodo disparador por flujo.')).toBeTruthy();
    expect(screen.getAllByTestId('flow-node-trigger')).toHaveLength(1);

    fireEvent.click(screen.getByTestId('palette-timer'));
    await waitFor(() => expect(screen.getByTestId('node-count').textContent).toBe('3 nodos'));
    fireEvent.click(screen.getByRole('button', { name: 'Ver JSON' }));
    const shown = JSON.parse(screen.getByTestId('flow-json').textContent!) as { nodes: { type: string; data: unknown }[]; edges: unknown[] };
    expect(shown.nodes.find((node) => node.type === 'timer')!.data).toEqual({ label: 'Temporizador', duration: 5, unit: 'minutes' });
    expect(shown.edges).toHaveLength(1);
  });

  it("shows the server's message when saving fails", async () => {
    signedIn({
      [`GET /t/acme/api/bots/${BOT_ID}`]: () => json(200, aBot()),
      [`PUT /t/acme/api/bots/${BOT_ID}`]: () => json(400, { code: 'BAD_REQUEST', message: 'El nombre del bot es requerido.' }),
    });
    renderApp(`/t/acme/bots/${BOT_ID}`);
    fireEvent.change(await screen.findByLabelText('Nombre del bot', {}, LAZY), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar Flujo' }));
    expect(await screen.findByText('El nombre del bot es requerido.')).toBeTruthy();
  });

  it('keeps a stored access token masked: saved back unchanged, or emptied with Cambiar to type a new one', async () => {
    const withImage = aBot();
    withImage.config.nodes.push({
      id: 'sendImage-1',
      type: 'sendImage',
      position: { x: 0, y: 400 },
      data: { label: 'Catálogo', imageUrl: 'https://cdn.acme.test/catalogo.png', authToken: `${SECRET_MASK}3210`, errorMessage: 'Sin imagen.' },
    });
    const api = signedIn({
      [`GET /t/acme/api/bots/${BOT_ID}`]: () => json(200, withImage),
      [`PUT /t/acme/api/bots/${BOT_ID}`]: () => json(200, withImage),
    });
    renderApp(`/t/acme/bots/${BOT_ID}`);
    const token = (await screen.findByLabelText('Token de acceso (opcional)', {}, LAZY)) as HTMLInputElement;
    expect(token.value).toBe(`${SECRET_MASK}3210`);
    expect(token.readOnly).toBe(true);
    expect(screen.getByText('Guardado cifrado: no se vuelve a mostrar.')).toBeTruthy();
    const savedToken = (index: number) =>
      (api.callsTo('PUT', `/t/acme/api/bots/${BOT_ID}`)[index]!.body as BotDetail).config.nodes.find((node) => node.id === 'sendImage-1')!.data.authToken;
    fireEvent.click(screen.getByRole('button', { name: 'Guardar Flujo' }));
    await waitFor(() => expect(savedToken(0)).toBe(`${SECRET_MASK}3210`));

    fireEvent.click(screen.getByRole('button', { name: 'Cambiar' }));
    const emptied = screen.getByLabelText('Token de acceso (opcional)') as HTMLInputElement;
    expect(emptied.value).toBe('');
    expect(emptied.type).toBe('password');
    fireEvent.change(emptied, { target: { value: 'token-nuevo' } });
    await screen.findByRole('button', { name: 'Guardar Flujo' });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar Flujo' }));
    await waitFor(() => expect(savedToken(1)).toBe('token-nuevo'));
  });
});
