import { fireEvent, screen, waitFor, within, act } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aBoard, aCard, aMessage, createEmittingSocket, installBoardApi } from './chat-test-fixtures.ts';
import { standInSockets } from '../../test/fake-socket.ts';

const socket = standInSockets(createEmittingSocket);

async function openChat() {
  renderApp('/t/acme');
  // The first render of a file also loads the app's modules: allow it more than the default second.
  await screen.findByRole('heading', { name: 'Sales Funnel' }, { timeout: 5000 });
  fireEvent.click(await screen.findByRole('button', { name: 'Abrir chat Lucía Pérez' }, { timeout: 5000 }));
  return screen.findByTestId('chat-panel');
}

const messages = () => screen.getAllByTestId('chat-message');

/** Emits a server event and lets the query cache notify React (it batches on the next task). */
async function serverEmit(event: string, payload: unknown) {
  await act(async () => {
    socket.current!.serverEmit(event, payload);
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

describe('chat timeline rendering', () => {
  it('renders each message type, with the fallbacks for a missing URL and an unknown type', async () => {
    installBoardApi(aBoard(), [
      aMessage({ id: 'img', type: 'image', mediaUrl: '/media/foto.jpg', text: 'Mi foto' }),
      aMessage({ id: 'noimg', type: 'video', mediaUrl: null }),
      aMessage({ id: 'aud', type: 'audio', mediaUrl: '/media/nota.ogg' }),
      aMessage({ id: 'doc', type: 'document', mediaUrl: '/media/f.pdf', fileName: 'factura.pdf' }),
      aMessage({ id: 'loc', type: 'location', payload: { location: { latitude: 19.4326, longitude: -99.1332, name: 'Zócalo' } } }),
      aMessage({ id: 'odd', type: 'unsupported' }),
    ]);
    await openChat();
    await waitFor(() => expect(messages()).toHaveLength(6));

    expect(screen.getByRole('img', { name: 'Mi foto' }).getAttribute('src')).toBe('/media/foto.jpg');
    expect(screen.getByText('Media URL no disponible.')).toBeTruthy();
    expect(screen.getByTestId('audio-player').getAttribute('src')).toBe('/media/nota.ogg');
    expect(screen.getByRole('link', { name: /factura\.pdf/ }).getAttribute('href')).toBe('/media/f.pdf');
    expect(screen.getByTestId('location-link').textContent).toContain('Zócalo');
    expect(screen.getByText('Unsupported media')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Ver imagen' }));
    expect(screen.getByRole('img', { name: 'Imagen ampliada' })).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('img', { name: 'Imagen ampliada' })).toBeNull();
    expect(screen.getByTestId('chat-panel')).toBeTruthy();
  });

  it('heads notes and scheduled items with drawn icons, never emoji a machine without an emoji font shows as boxes', async () => {
    const at = Date.now() - 10 * 60_000;
    installBoardApi(aBoard([aCard({ isGroup: true })]), [
      { kind: 'note', id: 'n1', author: 'Ana', text: 'Llamar mañana', timestamp: new Date(at).toISOString(), raw_timestamp: at },
      {
        kind: 'scheduled',
        id: 's1',
        author: 'Ana',
        scheduledFor: new Date(Date.now() + 3_600_000).toISOString(),
        text: 'Recordatorio',
        templateId: null,
        variables: null,
        status: 'scheduled',
        raw_timestamp: at + 1,
      },
    ]);
    const panel = await openChat();
    const note = await within(panel).findByTestId('chat-note');
    const scheduled = within(panel).getByTestId('chat-scheduled');
    expect(note.textContent).toContain('Nota interna · Ana');
    expect(scheduled.textContent).toContain('Programado para');
    for (const header of [note, scheduled]) expect(header.querySelector('svg')).toBeTruthy();
    expect(within(panel).getByRole('img', { name: 'Grupo' }).querySelector('svg')).toBeTruthy();
    expect(panel.textContent).not.toMatch(/[\u{1F300}-\u{1FAFF}]/u);
  });

  it('shows ticks from ack: clock, ✓, ✓✓, blue ✓✓ and a red ! with the error', async () => {
    installBoardApi(aBoard(), [
      aMessage({ id: 'a0', sender: 'user', ack: 0 }),
      aMessage({ id: 'a1', sender: 'user', ack: 1 }),
      aMessage({ id: 'a2', sender: 'user', ack: 2 }),
      aMessage({ id: 'a3', sender: 'ai', ack: 3 }),
      aMessage({ id: 'ae', sender: 'user', ack: -1, error: 'Número no válido' }),
      aMessage({ id: 'in', sender: 'contact', ack: 3 }),
    ]);
    await openChat();
    await waitFor(() => expect(messages()).toHaveLength(6));
    const ticks = screen.getAllByTestId('ack-ticks');
    expect(ticks.map((tick) => tick.getAttribute('aria-label'))).toEqual(['Enviando', 'Enviado', 'Entregado', 'Leído', 'Error: Número no válido']);
    expect(ticks[3]!.getAttribute('class')).toContain('text-sky-500');
    expect(ticks[2]!.getAttribute('class')).not.toContain('text-sky-500');
    expect(ticks[4]!.textContent).toBe('!');
    // Incoming messages carry no ticks.
    expect(within(messages()[5]!).queryByTestId('ack-ticks')).toBeNull();
  });
});

describe('sending', () => {
  it('shows a text at once with a clock, then takes the real id and only-increasing acks', async () => {
    let answer!: (response: Response) => void;
    const api = installBoardApi(aBoard(), [], {
      'POST /t/acme/api/message': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    await openChat();
    const box = screen.getByRole('textbox', { name: 'Mensaje' });

    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(api.callsTo('POST', '/t/acme/api/message')).toHaveLength(0);

    fireEvent.change(box, { target: { value: ' Hola, ¿cómo estás? ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    const sent = await screen.findByTestId('chat-message');
    expect(sent.getAttribute('data-ack')).toBe('0');
    expect(sent.getAttribute('data-sender')).toBe('user');
    expect(sent.textContent).toContain('Hola, ¿cómo estás?');
    await waitFor(() => expect(answer).toBeTypeOf('function'));
    expect(api.callsTo('POST', '/t/acme/api/message')[0]!.body).toEqual({
      cardId: 'c1',
      text: 'Hola, ¿cómo estás?',
      tempId: 'temp-uuid-1',
      quotedMessageId: null,
    });

    await act(async () =>
      answer(json(201, { ...aMessage({ id: 'real-1', sender: 'user', ack: 0, text: 'Hola, ¿cómo estás?', tempId: 'temp-uuid-1' }), kind: undefined })),
    );
    await waitFor(() => expect(screen.getByTestId('chat-message').getAttribute('data-message-id')).toBe('real-1'));

    await serverEmit('message_status_updated', { cardId: 'c1', messageId: 'real-1', tempId: 'temp-uuid-1', ack: 2 });
    expect(screen.getByTestId('chat-message').getAttribute('data-ack')).toBe('2');
    await serverEmit('message_status_updated', { cardId: 'c1', messageId: 'real-1', tempId: 'temp-uuid-1', ack: 1 });
    expect(screen.getByTestId('chat-message').getAttribute('data-ack')).toBe('2');
    await serverEmit('message_status_updated', { cardId: 'c1', messageId: 'real-1', tempId: 'temp-uuid-1', ack: 3 });
    expect(screen.getAllByTestId('chat-message')).toHaveLength(1);
    expect(screen.getByTestId('chat-message').getAttribute('data-ack')).toBe('3');
  });

  it('replaces the temporary message by tempId when the status arrives before the answer', async () => {
    installBoardApi(aBoard(), [], { 'POST /t/acme/api/message': () => new Promise<Response>(() => undefined) });
    await openChat();
    const box = screen.getByRole('textbox', { name: 'Mensaje' });
    fireEvent.change(box, { target: { value: 'Hola' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await screen.findByTestId('chat-message');
    await serverEmit('message_status_updated', { cardId: 'c1', messageId: 'real-9', tempId: 'temp-uuid-1', ack: 1 });
    expect(screen.getByTestId('chat-message').getAttribute('data-message-id')).toBe('real-9');
    expect(screen.getByTestId('chat-message').getAttribute('data-ack')).toBe('1');
  });

  it("shows the provider's reason on a message that failed after it was sent", async () => {
    installBoardApi(aBoard(), [], {
      'POST /t/acme/api/message': () => json(201, aMessage({ id: 'real-5', sender: 'user', ack: 0, text: 'Hola', tempId: 'temp-uuid-1' })),
    });
    await openChat();
    const box = screen.getByRole('textbox', { name: 'Mensaje' });
    fireEvent.change(box, { target: { value: 'Hola' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(screen.getByTestId('chat-message').getAttribute('data-message-id')).toBe('real-5'));
    expect(screen.queryByTestId('message-error')).toBeNull();
    // A rate limit first: the message waits for its retry and says so, then fails with the provider's reason and code.
    await serverEmit('message_status_updated', {
      cardId: 'c1',
      messageId: 'real-5',
      ack: 0,
      error: 'Límite de envíos alcanzado: se reintentará',
      errorCode: '130429',
    });
    expect(screen.getByTestId('message-retrying').textContent).toBe('Límite de envíos alcanzado: se reintentará');
    await serverEmit('message_status_updated', {
      cardId: 'c1',
      messageId: 'real-5',
      tempId: 'temp-uuid-1',
      ack: -1,
      error: 'El cliente no tiene WhatsApp',
      errorCode: '131026',
    });
    expect(screen.getByTestId('chat-message').getAttribute('data-ack')).toBe('-1');
    expect(screen.getByTestId('message-error').textContent).toBe('No enviado: El cliente no tiene WhatsApp (código 131026)');
    expect(screen.queryByTestId('message-retrying')).toBeNull();
  });

  it('drops the waiting note once a rate-limited message goes', async () => {
    installBoardApi(aBoard(), [
      aMessage({ id: 'm-7', sender: 'user', ack: 0, text: 'Hola', error: 'Límite de envíos alcanzado: se reintentará', errorCode: '130429' }),
    ]);
    await openChat();
    expect((await screen.findByTestId('message-retrying')).textContent).toBe('Límite de envíos alcanzado: se reintentará');
    await serverEmit('message_status_updated', { cardId: 'c1', messageId: 'm-7', ack: 1 });
    expect(screen.queryByTestId('message-retrying')).toBeNull();
    expect(screen.queryByTestId('message-error')).toBeNull();
  });

  it('adds new messages from the server and merges a late media URL', async () => {
    installBoardApi(aBoard(), []);
    await openChat();
    await screen.findByText('Aún no hay mensajes.');
    await serverEmit('message:new', { cardId: 'c1', message: aMessage({ id: 'in-1', type: 'image', mediaUrl: null, text: null }) });
    expect(screen.getByText('Media URL no disponible.')).toBeTruthy();
    await serverEmit('message:new', { cardId: 'c1', message: { id: 'in-1', mediaUrl: '/media/late.jpg', updated: true } });
    expect(screen.queryByText('Media URL no disponible.')).toBeNull();
    expect(screen.getByRole('img', { name: 'Imagen' }).getAttribute('src')).toBe('/media/late.jpg');
    await serverEmit('message:new', { cardId: 'other', message: aMessage({ id: 'x' }) });
    expect(screen.getAllByTestId('chat-message')).toHaveLength(1);
  });

  it('with the window closed disables text, files and voice and says why', async () => {
    installBoardApi(aBoard([aCard({ contactLastMessageAt: new Date(Date.now() - 25 * 3_600_000).toISOString() })]));
    await openChat();
    expect(screen.getByTestId('window-indicator').textContent).toBe('Ventana cerrada');
    expect((screen.getByRole('textbox', { name: 'Mensaje' }) as HTMLTextAreaElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Adjuntar archivo' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Grabar nota de voz' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('La ventana de 24 horas está cerrada. Envía una plantilla para reiniciar la conversación.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Enviar plantilla' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('loads the older page when the timeline is scrolled to its top', async () => {
    const api = installBoardApi(aBoard(), [], {
      'GET /t/acme/api/cards/c1/messages?limit=50': () => json(200, { items: [aMessage({ id: 'new-1', text: 'Mensaje reciente' })], nextCursor: 'cursor-1' }),
      'GET /t/acme/api/cards/c1/messages?limit=50&cursor=cursor-1': () =>
        json(200, { items: [aMessage({ id: 'old-1', text: 'Mensaje antiguo', raw_timestamp: 1 })], nextCursor: null }),
    });
    await openChat();
    await screen.findByText('Mensaje reciente');
    fireEvent.scroll(screen.getByTestId('chat-timeline'));
    expect(await screen.findByText('Mensaje antiguo')).toBeTruthy();
    expect(messages().map((message) => message.getAttribute('data-message-id'))).toEqual(['old-1', 'new-1']);
    fireEvent.scroll(screen.getByTestId('chat-timeline'));
    expect(api.callsTo('GET', '/t/acme/api/cards/c1/messages?limit=50&cursor=cursor-1')).toHaveLength(1);
  });

  it('stays at the newest message while images load, unless the person scrolled up', async () => {
    installBoardApi(aBoard(), [
      aMessage({ id: 'img1', type: 'image', mediaUrl: '/media/1.jpg', text: 'Foto 1' }),
      aMessage({ id: 'img2', type: 'image', mediaUrl: '/media/2.jpg', text: 'Foto 2' }),
      aMessage({ id: 'last', text: 'Último mensaje' }),
    ]);
    await openChat();
    await screen.findByText('Último mensaje');
    // jsdom lays nothing out: the timeline is told how tall it is as each image arrives.
    const timeline = screen.getByTestId('chat-timeline');
    let contentHeight = 900;
    Object.defineProperty(timeline, 'scrollHeight', { configurable: true, get: () => contentHeight });
    Object.defineProperty(timeline, 'clientHeight', { configurable: true, get: () => 400 });
    contentHeight = 1400;
    fireEvent.load(screen.getByRole('img', { name: 'Foto 1' }));
    expect(timeline.scrollTop).toBe(1400);

    timeline.scrollTop = 300;
    fireEvent.scroll(timeline);
    contentHeight = 1900;
    fireEvent.load(screen.getByRole('img', { name: 'Foto 2' }));
    expect(timeline.scrollTop).toBe(300);
  });

  it('marks an unread chat read on opening, and shows the window countdown', async () => {
    const api = installBoardApi(aBoard([aCard({ unreadCount: 3 })]));
    await openChat();
    await waitFor(() => expect(api.callsTo('POST', '/t/acme/api/cards/c1/mark-read')).toHaveLength(1));
    expect(screen.queryByTestId('unread-badge')).toBeNull();
    expect(screen.getByTestId('window-indicator').textContent).toMatch(/^Ventana: 2[23]h \d+m restantes$/);
  });
});

describe('reactions, edits, deletions, orders, flows and ads (issue 43)', () => {
  it('shows each of them in the timeline, and WhatsApp’s own notices as notes', async () => {
    const at = Date.now() - 5 * 60_000;
    installBoardApi(aBoard(), [
      aMessage({ id: 'ad', text: 'Hola, vi su anuncio', payload: { referral: { headline: 'Zapatos 2x1', sourceType: 'ad', sourceUrl: 'https://fb.me/a1' } } }),
      aMessage({ id: 'rx', sender: 'user', text: 'Con gusto', reactions: [{ emoji: '👍', from: 'contact', name: null }] }),
      aMessage({ id: 'ed', text: 'Mejor talla 27', editedAt: new Date(at).toISOString() }),
      aMessage({ id: 'del', text: null, deletedAt: new Date(at).toISOString() }),
      aMessage({
        id: 'ord',
        type: 'order',
        text: 'Pedido: 1 producto',
        payload: { order: { items: [{ productId: 'SKU-1', quantity: 1, unitPrice: 100, currency: 'MXN' }] } },
      }),
      aMessage({ id: 'flow', text: 'Talla: 27', payload: { flowReply: { fields: [{ label: 'Talla', value: '27' }] } } }),
      { kind: 'note', id: 'sys', author: 'WhatsApp', text: 'El cliente cambió su número.', timestamp: new Date(at).toISOString(), raw_timestamp: at },
    ]);
    const panel = await openChat();
    await waitFor(() => expect(messages()).toHaveLength(6));
    const byId = (id: string) => messages().find((message) => message.getAttribute('data-message-id') === id)!;

    expect(within(byId('ad')).getByTestId('message-referral').textContent).toContain('Llegó desde un anuncio');
    expect(within(byId('rx')).getByRole('listitem', { name: 'Reacción 👍 del cliente' })).toBeTruthy();
    expect(within(byId('ed')).getByTestId('message-edited').textContent).toBe('Editado');
    expect(within(byId('del')).getByTestId('message-deleted').textContent).toBe('Mensaje eliminado');
    expect(within(byId('del')).queryByRole('button', { name: 'Responder' })).toBeNull();
    expect(within(byId('ord')).getByTestId('message-order').textContent).toContain('SKU-1');
    expect(within(byId('flow')).getByTestId('message-flow-reply').textContent).toContain('Formulario');
    expect(within(panel).getByTestId('chat-note').textContent).toContain('Nota interna · WhatsApp');
    expect(within(panel).getByTestId('chat-note').textContent).toContain('El cliente cambió su número.');
  });

  it('shows the ad the customer came from and their marketing choice under the title', async () => {
    installBoardApi(aBoard(), [], {
      'GET /t/acme/api/cards/c1/messages?limit=50': () =>
        json(200, {
          items: [aMessage({ id: 'm1' })],
          nextCursor: null,
          context: {
            adReferral: { headline: 'Zapatos 2x1', body: 'Solo hoy', sourceUrl: 'https://fb.me/a1', sourceType: 'ad' },
            marketingOptedOutAt: '2025-01-02T10:00:00.000Z',
          },
        }),
    });
    const panel = await openChat();
    const ad = await within(panel).findByTestId('chat-ad-referral');
    expect(ad.textContent).toBe('Anuncio: Zapatos 2x1');
    const link = within(ad).getByRole('link', { name: 'Anuncio: Zapatos 2x1' });
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(link.getAttribute('target')).toBe('_blank');
    const optOut = within(panel).getByTestId('chat-marketing-opt-out');
    expect(optOut.textContent).toBe('No recibe marketing');
    expect(optOut.getAttribute('title')).toContain('los envíos masivos de plantillas de marketing lo omiten');
    // The header keeps what it had.
    expect(within(panel).getByTestId('chat-title').textContent).toBe('Lucía Pérez');
    expect(within(panel).getByTestId('window-indicator')).toBeTruthy();
    expect(within(panel).getByRole('switch').textContent).toBe('AI Inactiva');
  });

  it('shows no badge for a chat without an ad or an opt-out', async () => {
    installBoardApi(aBoard(), [], {
      'GET /t/acme/api/cards/c1/messages?limit=50': () =>
        json(200, { items: [aMessage({ id: 'm1', text: 'Hola' })], nextCursor: null, context: { adReferral: null, marketingOptedOutAt: null } }),
    });
    const panel = await openChat();
    await within(panel).findByText('Hola');
    expect(within(panel).queryByTestId('chat-ad-referral')).toBeNull();
    expect(within(panel).queryByTestId('chat-marketing-opt-out')).toBeNull();
  });

  it('puts a reacted, edited, then deleted message in its place from message:updated', async () => {
    const first = aMessage({ id: 'm1', text: 'Primero' });
    const second = aMessage({ id: 'm2', text: 'Quiero dos pares' });
    const third = aMessage({ id: 'm3', sender: 'user', text: 'Claro' });
    installBoardApi(aBoard(), [first, second, third]);
    await openChat();
    await screen.findByText('Quiero dos pares');
    const order = () => messages().map((message) => message.getAttribute('data-message-id'));
    const { kind: _kind, ...asSent } = second as Extract<typeof second, { kind: 'message' }>;

    await serverEmit('message:updated', { cardId: 'c1', message: { ...asSent, reactions: [{ emoji: '❤️', from: 'user', name: 'Ana' }] } });
    expect(order()).toEqual(['m1', 'm2', 'm3']);
    expect(within(messages()[1]!).getByRole('listitem', { name: 'Reacción ❤️ de Ana' })).toBeTruthy();

    await serverEmit('message:updated', {
      cardId: 'c1',
      message: { ...asSent, text: 'Quiero tres pares', editedAt: new Date().toISOString(), reactions: [{ emoji: '❤️', from: 'user', name: 'Ana' }] },
    });
    expect(order()).toEqual(['m1', 'm2', 'm3']);
    expect(screen.queryByText('Quiero dos pares')).toBeNull();
    expect(within(messages()[1]!).getByText('Quiero tres pares')).toBeTruthy();
    expect(within(messages()[1]!).getByTestId('message-edited')).toBeTruthy();

    await serverEmit('message:updated', {
      cardId: 'c1',
      message: { ...asSent, text: null, payload: null, deletedAt: new Date().toISOString(), reactions: [] },
    });
    expect(order()).toEqual(['m1', 'm2', 'm3']);
    expect(screen.queryByText('Quiero tres pares')).toBeNull();
    expect(within(messages()[1]!).getByTestId('message-deleted')).toBeTruthy();
    expect(within(messages()[1]!).queryByTestId('message-reactions')).toBeNull();

    // Another chat's update, or one of a message not loaded, adds nothing.
    await serverEmit('message:updated', { cardId: 'other', message: { ...asSent, text: 'Ajeno' } });
    await serverEmit('message:updated', { cardId: 'c1', message: { ...asSent, id: 'not-loaded', text: 'Viejo' } });
    expect(order()).toEqual(['m1', 'm2', 'm3']);
    expect(screen.queryByText('Ajeno')).toBeNull();
    expect(screen.queryByText('Viejo')).toBeNull();
  });
});

describe('the member reacting under a message', () => {
  it('shows the reaction the server answers, and says why when the provider cannot send reactions', async () => {
    const message = aMessage({ id: 'm-react', sender: 'contact', text: '¿Tienen envío?' });
    let refuse = false;
    installBoardApi(aBoard(), [message], {
      'POST /t/acme/api/messages/m-react/reaction': () =>
        refuse
          ? json(400, { code: 'BAD_REQUEST', message: 'Tu conexión de WhatsApp no permite enviar reacciones (la API de Meta sí las permite).' })
          : json(200, { ...message, kind: undefined, reactions: [{ emoji: '👍', from: 'user', name: 'Ana' }] }),
    });
    await openChat();
    const bubble = await screen.findByText('¿Tienen envío?');
    const holder = bubble.closest('[data-testid="chat-message"]') as HTMLElement;
    fireEvent.click(within(holder).getByRole('button', { name: 'Reaccionar' }));
    fireEvent.click(within(holder).getByRole('button', { name: 'Reaccionar con 👍' }));
    expect(await within(holder).findByTestId('message-reactions')).toBeTruthy();

    refuse = true;
    fireEvent.click(within(holder).getByRole('button', { name: 'Reaccionar' }));
    fireEvent.click(within(holder).getByRole('button', { name: 'Reaccionar con ❤️' }));
    expect(await screen.findByText('Tu conexión de WhatsApp no permite enviar reacciones (la API de Meta sí las permite).')).toBeTruthy();
  });
});
