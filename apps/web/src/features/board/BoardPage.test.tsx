import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aBoard, aCard, aMessage, createEmittingSocket, FUNNEL_ID, installBoardApi } from '../chat/chat-test-fixtures.ts';
import { createQueryClient } from '../../app/query-client.ts';
import { preloadBoard } from './board-preload.ts';
import { boardKey } from './board-queries.ts';
import { seedBoardQueries } from './seed-board-queries.ts';
import { standInSockets } from '../../test/fake-socket.ts';

const socket = standInSockets(createEmittingSocket);

async function openBoard() {
  renderApp('/t/acme');
  await screen.findByRole('heading', { level: 1, name: 'Sales Funnel' }, { timeout: 5000 });
  await screen.findAllByTestId('board-column');
}

const column = (id: string) => screen.getAllByTestId('board-column').find((element) => element.getAttribute('data-column-id') === id)!;
const cardIdsIn = (id: string) =>
  within(column(id))
    .queryAllByTestId('board-card')
    .map((card) => card.getAttribute('data-card-id'));

async function drag(cardId: string, toColumn: string) {
  const data = new Map<string, string>();
  const dataTransfer = {
    setData: (type: string, value: string) => data.set(type, value),
    getData: (type: string) => data.get(type) ?? '',
    get types() {
      return [...data.keys()];
    },
    effectAllowed: 'move',
    dropEffect: 'move',
  };
  const card = screen.getAllByTestId('board-card').find((element) => element.getAttribute('data-card-id') === cardId)!;
  fireEvent.dragStart(card, { dataTransfer });
  fireEvent.dragOver(column(toColumn), { dataTransfer });
  fireEvent.drop(column(toColumn), { dataTransfer });
  // The query cache tells React on the next task.
  await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
}

async function renameCardTo(value: string) {
  fireEvent.click(screen.getByRole('button', { name: 'Opciones del chat' }));
  fireEvent.click(screen.getByRole('menuitem', { name: 'Renombrar' }));
  fireEvent.change(screen.getByLabelText('Nombre del chat'), { target: { value } });
  fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}

describe('board', () => {
  it('shows columns, cards and the unread counters', async () => {
    installBoardApi(
      aBoard([
        aCard({ unreadCount: 2 }),
        aCard({ id: 'g1', title: 'Familia', isGroup: true, unreadCount: 1, columnId: 'col2' }),
        aCard({ id: 'c3', title: 'Pedro' }),
      ]),
    );
    await openBoard();
    expect(cardIdsIn('col1')).toEqual(['c1', 'c3']);
    expect(cardIdsIn('col2')).toEqual(['g1']);
    expect(screen.getByTestId('counter-individual').textContent).toBe('1');
    expect(screen.getByTestId('counter-group').textContent).toBe('1');
    expect(screen.getByTestId('counter-contacts').textContent).toBe('3');
    expect(within(column('col2')).getByTestId('group-icon')).toBeTruthy();
    expect(within(column('col1')).getByTestId('unread-badge').textContent).toBe('2');
  });

  it('opened on the board, the app reads the funnels and the board in one call before the page renders', async () => {
    const api = installBoardApi(aBoard([aCard()]));
    // As board.html then main.tsx do.
    preloadBoard('/t/acme');
    expect(api.callsTo('GET', '/t/acme/api/funnels/shown-board')).toHaveLength(1);
    const queryClient = createQueryClient();
    await seedBoardQueries(queryClient);
    expect(queryClient.getQueryData(boardKey(FUNNEL_ID))).toBeDefined();

    renderApp('/t/acme', queryClient);
    await screen.findAllByTestId('board-card');
    expect(cardIdsIn('col1')).toEqual(['c1']);
    expect(api.callsTo('GET', '/t/acme/api/funnels/shown-board')).toHaveLength(1);
    expect(api.callsTo('GET', '/t/acme/api/funnels/summary')).toHaveLength(0);
    expect(api.callsTo('GET', `/t/acme/api/funnels/${FUNNEL_ID}/board`)).toHaveLength(0);
  });

  it('keeps a card rename only when the trimmed name is non-empty and changed', async () => {
    const api = installBoardApi(aBoard(), [], { 'PUT /t/acme/api/cards/c1': ({ body }) => json(200, aCard({ title: (body as { title: string }).title })) });
    await openBoard();
    await renameCardTo('  Lucía Pérez  ');
    expect(api.callsTo('PUT', '/t/acme/api/cards/c1')).toHaveLength(0);

    await renameCardTo('  Lucía P. ');
    expect(await screen.findByText('Nombre del chat actualizado.')).toBeTruthy();
    expect(api.callsTo('PUT', '/t/acme/api/cards/c1')[0]!.body).toEqual({ title: 'Lucía P.' });
    expect(screen.getByTestId('card-title').textContent).toContain('Lucía P.');
  });

  it('says so when the chosen funnel has no column to move the chat to', async () => {
    const api = installBoardApi(aBoard(), [], { 'GET /t/acme/api/funnels/f2/columns': () => json(200, []) });
    await openBoard();
    fireEvent.click(screen.getByRole('button', { name: 'Opciones del chat' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Mover a funnel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mover a funnel' });
    fireEvent.change(within(dialog).getByLabelText('Funnel de destino'), { target: { value: 'f2' } });
    expect(await within(dialog).findByText('Este funnel no tiene columnas. Crea una antes de mover chats a él.')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Mover Chat' }) as HTMLButtonElement).disabled).toBe(true);
    expect(api.callsTo('POST', '/t/acme/api/card/move')).toHaveLength(0);
  });

  it('moves a dragged card at once and puts it back when the server refuses', async () => {
    let answer!: (response: Response) => void;
    const api = installBoardApi(aBoard(), [], { 'POST /t/acme/api/card/move': () => new Promise<Response>((resolve) => (answer = resolve)) });
    await openBoard();
    await drag('c1', 'col2');
    expect(cardIdsIn('col2')).toEqual(['c1']);
    await waitFor(() => expect(answer).toBeTypeOf('function'));
    expect(api.callsTo('POST', '/t/acme/api/card/move')[0]!.body).toEqual({ cardId: 'c1', targetColumnId: 'col2' });
    await act(async () => answer(json(500, {})));
    expect(await screen.findByText('Error al mover el chat.')).toBeTruthy();
    expect(cardIdsIn('col1')).toEqual(['c1']);
    expect(cardIdsIn('col2')).toEqual([]);
  });

  it("shows the server's reason when it refuses a drag", async () => {
    installBoardApi(aBoard(), [], { 'POST /t/acme/api/card/move': () => json(409, { code: 'CONFLICT', message: 'La columna de destino ya no existe.' }) });
    await openBoard();
    await drag('c1', 'col2');
    expect(await screen.findByText('La columna de destino ya no existe.')).toBeTruthy();
    expect(screen.queryByText('Error al mover el chat.')).toBeNull();
    expect(cardIdsIn('col1')).toEqual(['c1']);
  });

  it("follows other agents' changes from card_updated", async () => {
    installBoardApi(aBoard());
    await openBoard();
    await act(async () => {
      socket.current!.serverEmit('card_updated', { ...aCard(), columnId: 'col2', title: 'Lucía (VIP)', unreadCount: 4 });
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(cardIdsIn('col2')).toEqual(['c1']);
    expect(within(column('col2')).getByTestId('unread-badge').textContent).toBe('4');
    expect(screen.getByTestId('card-title').textContent).toContain('Lucía (VIP)');
  });

  it('counts a new customer message on a closed card, not on the open one, which is read at once', async () => {
    const api = installBoardApi(aBoard([aCard(), aCard({ id: 'c2', title: 'Pedro', unreadCount: 1 })]));
    await openBoard();
    fireEvent.click(screen.getByRole('button', { name: 'Abrir chat Lucía Pérez' }));
    await screen.findByTestId('chat-panel');
    const badge = (cardId: string) =>
      within(screen.getAllByTestId('board-card').find((card) => card.getAttribute('data-card-id') === cardId)!).queryByTestId('unread-badge')?.textContent ??
      null;

    // As the server sends a customer's message: message:new, then card_updated with the card's new count.
    await act(async () => {
      socket.current!.serverEmit('message:new', { cardId: 'c2', message: aMessage({ id: 'm1', cardId: 'c2', text: 'Hola' }) });
      socket.current!.serverEmit('card_updated', aCard({ id: 'c2', title: 'Pedro', unreadCount: 2 }));
      socket.current!.serverEmit('message:new', { cardId: 'c1', message: aMessage({ id: 'm2', text: 'Sigo aquí' }) });
      socket.current!.serverEmit('card_updated', aCard({ unreadCount: 1 }));
      socket.current!.serverEmit('message:new', { cardId: 'c2', message: { id: 'm1', mediaUrl: '/media/x.jpg', updated: true } });
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(badge('c2')).toBe('2');
    // The server's own count for the open card does not show while it is being read.
    expect(badge('c1')).toBeNull();
    await waitFor(() => expect(api.callsTo('POST', '/t/acme/api/cards/c1/mark-read')).toHaveLength(1));
    // The funnel's unread total follows the closed card's new message, without reading the summary again.
    expect(screen.getByRole('option', { name: 'Ventas (1)' })).toBeTruthy();
    expect(api.callsTo('GET', '/t/acme/api/funnels/summary')).toHaveLength(1);
  });

  it('inserts a new chat from card_updated and patches a moved card from board_updated, reading neither again', async () => {
    const api = installBoardApi(aBoard());
    await openBoard();
    await act(async () => {
      socket.current!.serverEmit('card_updated', { ...aCard({ id: 'nuevo', title: 'Nuevo', columnId: 'col2', unreadCount: 1 }), created: true });
      socket.current!.serverEmit('board_updated', { funnelId: 'f1', card: aCard({ columnId: 'col2' }) });
      socket.current!.serverEmit('board_updated', { funnelId: 'f2' });
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(cardIdsIn('col2')).toEqual(['c1', 'nuevo']);
    expect(cardIdsIn('col1')).toEqual([]);
    expect(screen.getByRole('option', { name: 'Ventas (1)' })).toBeTruthy();
    expect(api.callsTo('GET', '/t/acme/api/funnels/f1/board')).toHaveLength(1);
    expect(api.callsTo('GET', '/t/acme/api/funnels/summary')).toHaveLength(1);
  });

  it('reads the board again, at most once a second, on board_updated without a card', async () => {
    const api = installBoardApi(aBoard());
    await openBoard();
    const loads = () => api.callsTo('GET', '/t/acme/api/funnels/f1/board').length;
    await act(async () => {
      for (let i = 0; i < 5; i++) socket.current!.serverEmit('board_updated', { funnelId: 'f1' });
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    await waitFor(() => expect(loads()).toBe(2));
    // The four during the first second are folded into one more read at its end.
    await waitFor(() => expect(loads()).toBe(3), { timeout: 3000 });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(loads()).toBe(3);
  });

  it('keeps the requests of a bulk send bounded: 80 new chats and their statuses cost no board or summary read', async () => {
    const api = installBoardApi(aBoard());
    await openBoard();
    const reads = () => api.callsTo('GET', '/t/acme/api/funnels/f1/board').length + api.callsTo('GET', '/t/acme/api/funnels/summary').length;
    const before = reads();
    const rows = 80;
    await act(async () => {
      for (let row = 0; row < rows; row++) {
        const cardId = `bulk-${row}`;
        const message = aMessage({ id: `sent-${row}`, cardId, sender: 'user', type: 'template', ack: 0 });
        socket.current!.serverEmit('message:new', { cardId, message });
        socket.current!.serverEmit('card_updated', { ...aCard({ id: cardId, title: `Cliente ${row}`, phone: `52155${row}` }), created: true });
        for (const ack of [1, 2, 3]) socket.current!.serverEmit('message_status_updated', { cardId, messageId: `sent-${row}`, tempId: null, ack });
        socket.current!.serverEmit('batch_updated', { batchId: 'b1' });
      }
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(cardIdsIn('col1')).toHaveLength(rows + 1);
    expect(screen.getByTestId('counter-contacts').textContent).toBe(String(rows + 1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reads() - before).toBe(0);
  });

  it('after the first join, and after each reconnection, reads the board, the funnels and the open chat again, once each', async () => {
    const api = installBoardApi(aBoard());
    await openBoard();
    fireEvent.click(screen.getByRole('button', { name: 'Abrir chat Lucía Pérez' }));
    await screen.findByTestId('chat-panel');
    const counts = () => ({
      board: api.callsTo('GET', '/t/acme/api/funnels/f1/board').length,
      funnels: api.callsTo('GET', '/t/acme/api/funnels/summary').length,
      chat: api.callsTo('GET', '/t/acme/api/cards/c1/messages?limit=50').length,
    });
    await waitFor(() => expect(counts().chat).toBe(1));
    const emit = (event: string, payload: unknown) => act(async () => socket.current!.serverEmit(event, payload));
    const once = async (join: () => Promise<void>) => {
      const before = counts();
      const after = { board: before.board + 1, funnels: before.funnels + 1, chat: before.chat + 1 };
      await join();
      await waitFor(() => expect(counts()).toEqual(after));
      // The reloads are throttled to one a second: a second one would come within it.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(counts()).toEqual(after);
    };
    // Read while the socket was still joining: what was published until the join is read.
    await once(() => emit('joined', { tenantSlug: 'acme' }));
    await once(async () => {
      await emit('disconnect', 'transport close');
      await emit('joined', { tenantSlug: 'acme' });
    });
  });

  it('says "Sin chats" in an empty column and "Sin resultados" when its search matches nothing', async () => {
    installBoardApi(aBoard());
    await openBoard();
    expect(within(column('col2')).getByTestId('card-list-empty').textContent).toBe('Sin chats');
    expect(within(column('col1')).queryByTestId('card-list-empty')).toBeNull();
    fireEvent.change(screen.getByLabelText('Buscar chat en Nuevos'), { target: { value: 'nadie se llama así' } });
    expect(within(column('col1')).getByTestId('card-list-empty').textContent).toBe('Sin resultados');
    fireEvent.change(screen.getByLabelText('Buscar chat en Nuevos'), { target: { value: 'lucía' } });
    expect(within(column('col1')).queryByTestId('card-list-empty')).toBeNull();
  });

  it('reads the rest of a long column page by page, counting every chat from the start', async () => {
    const board = aBoard([aCard(), aCard({ id: 'c2', title: 'Bruno', phone: '5215500000002' })]);
    board.columns[0] = { ...board.columns[0]!, cardCount: 120, nextCursor: 'page-2' };
    board.counters = { ...board.counters, totalContacts: 120 };
    const api = installBoardApi(board, [], {
      'GET /t/acme/api/columns/col1/cards?cursor=page-2': () =>
        json(200, { cards: [aCard({ id: 'c2' }), aCard({ id: 'c3', title: 'Carla' })], total: 120, nextCursor: null }),
    });
    await openBoard();
    expect(within(column('col1')).getByLabelText('120 chats')).toBeTruthy();
    expect(screen.getByTestId('counter-contacts').textContent).toBe('120');
    // The button follows the list's first pass, a frame after the first cards.
    fireEvent.click(await within(column('col1')).findByRole('button', { name: 'Cargar más chats' }));
    await waitFor(() => expect(cardIdsIn('col1')).toEqual(['c1', 'c2', 'c3']));
    expect(within(column('col1')).queryByRole('button', { name: 'Cargar más chats' })).toBeNull();
    expect(api.callsTo('GET', '/t/acme/api/columns/col1/cards?cursor=page-2')).toHaveLength(1);
  });

  it('searches a long column whole on the server, and opens a chat found beyond the first page', async () => {
    const board = aBoard([aCard()]);
    board.columns[0] = { ...board.columns[0]!, cardCount: 300, nextCursor: 'page-2' };
    const api = installBoardApi(board, [], {
      'GET /t/acme/api/columns/col1/cards?search=zoe': () =>
        json(200, { cards: [aCard({ id: 'c99', title: 'Zoe', lastActivityAt: '2024-01-01T00:00:00.000Z' })], total: 1, nextCursor: null }),
      'GET /t/acme/api/cards/c99/messages?limit=50': () => json(200, { items: [], nextCursor: null }),
    });
    await openBoard();
    fireEvent.change(screen.getByLabelText('Buscar chat en Nuevos'), { target: { value: 'zoe' } });
    await waitFor(() => expect(cardIdsIn('col1')).toEqual(['c99']));
    expect(api.callsTo('GET', '/t/acme/api/columns/col1/cards?search=zoe')).toHaveLength(1);
    fireEvent.click(within(column('col1')).getByText('Zoe'));
    await screen.findByRole('heading', { name: 'Zoe' });
    // Back to the whole board: the chat opened stays listed at its place by activity, after the newer ones.
    fireEvent.change(screen.getByLabelText('Buscar chat en Nuevos'), { target: { value: '' } });
    await waitFor(() => expect(cardIdsIn('col1')).toEqual(['c1', 'c99']));
  });

  it('remembers the sound toggle', async () => {
    installBoardApi(aBoard());
    await openBoard();
    const toggle = screen.getByRole('switch', { name: 'Sonido de notificaciones' });
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(localStorage.getItem('board_sound_enabled')).toBe('false');
  });

  it('shows the fallback when the funnels cannot be loaded', async () => {
    installBoardApi(aBoard(), [], { 'GET /t/acme/api/funnels/summary': () => new Response('', { status: 500 }) });
    renderApp('/t/acme');
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getAllByText('No se pudieron cargar los funnels.').length).toBeGreaterThan(0);
    expect(screen.getByRole('heading', { level: 1, name: 'Sales Funnel' })).toBeTruthy();
  });
});
