import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { json } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aBoard, aCard, aMessage, createEmittingSocket, installBoardApi } from './chat-test-fixtures.ts';
import { MICROPHONE_DENIED } from './ChatComposer.tsx';
import { SUGGEST_FAILED, SUMMARY_ADDED } from './CopilotActions.tsx';
import { standInSockets } from '../../test/fake-socket.ts';

const socket = standInSockets(createEmittingSocket);

async function openChat() {
  renderApp('/t/acme');
  // The first render of a file also loads the app's modules: allow it more than the default second.
  fireEvent.click(await screen.findByRole('button', { name: 'Abrir chat Lucía Pérez' }, { timeout: 5000 }));
  return screen.findByTestId('chat-panel');
}

async function serverEmit(event: string, payload: unknown) {
  await act(async () => {
    socket.current!.serverEmit(event, payload);
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

const approved = {
  id: 't1',
  name: 'recordatorio',
  category: 'UTILITY',
  body_text: 'Hola {{1}}, te esperamos.',
  status: 'APPROVED',
  variables_schema: { 1: { type: 'text', label: 'Variable 1' } },
};

describe('chat footer', () => {
  it("fills the message box from the column's quick replies", async () => {
    const api = installBoardApi(aBoard(), [], {
      'GET /t/acme/api/columns/col1/quick-replies': () => json(200, [{ id: 'q1', columnId: 'col1', title: 'Horario', text: 'Abrimos de 9 a 18 h.' }]),
    });
    await openChat();
    fireEvent.click(screen.getByRole('button', { name: 'Respuestas rápidas' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: /Horario/ }));
    expect((screen.getByRole('textbox', { name: 'Mensaje' }) as HTMLTextAreaElement).value).toBe('Abrimos de 9 a 18 h.');
    expect(api.callsTo('GET', '/t/acme/api/columns/col1/quick-replies')).toHaveLength(1);
  });

  it('quotes the message being answered and sends its id', async () => {
    const api = installBoardApi(aBoard(), [aMessage({ id: '5b0b1a52-7d4e-4c47-9d0e-6f1bb1f6d001', text: '¿Tienen envío?' })], {
      'POST /t/acme/api/message': ({ body }) =>
        json(201, {
          ...aMessage({ id: 'r1', sender: 'user', ack: 0, quotedMessageText: '¿Tienen envío?', quotedMessageSender: 'contact' }),
          ...(body as object),
          kind: undefined,
        }),
    });
    await openChat();
    fireEvent.click(await screen.findByRole('button', { name: 'Responder' }));
    expect(screen.getByTestId('reply-preview').textContent).toContain('¿Tienen envío?');
    const box = screen.getByRole('textbox', { name: 'Mensaje' });
    fireEvent.change(box, { target: { value: 'Sí, a todo el país' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(screen.queryByTestId('reply-preview')).toBeNull();
    const quoted = await screen.findAllByTestId('quoted-preview');
    expect(quoted[0]!.textContent).toContain('¿Tienen envío?');
    expect(api.callsTo('POST', '/t/acme/api/message')[0]!.body).toMatchObject({ quotedMessageId: '5b0b1a52-7d4e-4c47-9d0e-6f1bb1f6d001' });
  });

  it('shows a template at once and removes it when the send fails', async () => {
    let answer!: (response: Response) => void;
    installBoardApi(aBoard(), [], {
      'GET /t/acme/api/templates?status=APPROVED': () => json(200, [approved]),
      'GET /t/acme/api/columns/col1/assigned-templates': () => json(200, { templateIds: [] }),
      'POST /t/acme/api/message/template': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    await openChat();
    fireEvent.click(screen.getByRole('button', { name: 'Enviar plantilla' }));
    const dialog = await screen.findByRole('dialog');
    const picker = await within(dialog).findByLabelText('Plantilla');
    // Options read just the template's name, so a template is picked by the name it was given.
    expect(within(picker).getByRole('option', { name: approved.name }).getAttribute('value')).toBe('t1');
    fireEvent.change(picker, { target: { value: 't1' } });
    expect(within(dialog).getByTestId('template-category').textContent).toBe(`Categoría: ${approved.category}`);
    fireEvent.change(within(dialog).getByLabelText('Variable 1'), { target: { value: 'Lucía' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enviar Plantilla' }));
    const optimistic = await screen.findByTestId('chat-message');
    expect(optimistic.textContent).toContain('Hola Lucía, te esperamos.');
    await waitFor(() => expect(answer).toBeTypeOf('function'));
    await act(async () => answer(json(400, { code: 'BAD_REQUEST', message: 'Plantilla no aprobada.' })));
    expect(await screen.findByText('Plantilla no aprobada.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('chat-message')).toBeNull());
  });

  it('applies the three schedule rules before calling, then confirms', async () => {
    const api = installBoardApi(aBoard(), [], {
      'GET /t/acme/api/templates?status=APPROVED': () => json(200, []),
      'GET /t/acme/api/columns/col1/assigned-templates': () => json(200, { templateIds: [] }),
      'POST /t/acme/api/message/schedule': ({ body }) =>
        json(201, { id: 's1', author: 'Ana', status: 'scheduled', templateId: null, raw_timestamp: Date.now(), ...(body as object) }),
    });
    await openChat();
    fireEvent.click(screen.getByRole('button', { name: 'Programar mensaje' }));
    const dialog = await screen.findByRole('dialog');
    const when = within(dialog).getByLabelText('Fecha y hora');
    const local = (date: Date) => new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
    const submit = () => fireEvent.click(within(dialog).getByRole('button', { name: 'Programar' }));

    fireEvent.change(when, { target: { value: local(new Date(Date.now() - 60_000)) } });
    submit();
    expect(within(dialog).getByRole('alert').textContent).toBe('La fecha y hora deben ser en el futuro.');
    fireEvent.change(when, { target: { value: local(new Date(Date.now() + 30 * 3_600_000)) } });
    fireEvent.change(within(dialog).getByLabelText('Mensaje'), { target: { value: 'Hola' } });
    submit();
    expect(within(dialog).getByRole('alert').textContent).toBe('Debes seleccionar una plantilla para programar fuera de la ventana de 24 horas.');
    fireEvent.change(when, { target: { value: local(new Date(Date.now() + 10 * 60_000)) } });
    fireEvent.change(within(dialog).getByLabelText('Mensaje'), { target: { value: '   ' } });
    submit();
    expect(within(dialog).getByRole('alert').textContent).toBe('El mensaje no puede estar vacío.');
    expect(api.callsTo('POST', '/t/acme/api/message/schedule')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Mensaje'), { target: { value: 'Te llamo en un rato' } });
    submit();
    expect(await screen.findByText('Mensaje programado con éxito.')).toBeTruthy();
    expect(api.callsTo('POST', '/t/acme/api/message/schedule')[0]!.body).toMatchObject({ cardId: 'c1', text: 'Te llamo en un rato' });
    expect((await screen.findByTestId('chat-scheduled')).textContent).toContain('Te llamo en un rato');

    // Once sent, the server says so and the scheduled item leaves the timeline.
    await serverEmit('scheduled:updated', { cardId: 'c1', scheduled: { id: 's1', status: 'sent' } });
    expect(screen.queryByTestId('chat-scheduled')).toBeNull();
  });

  it('says when the schedule call fails', async () => {
    installBoardApi(aBoard(), [], {
      'GET /t/acme/api/templates?status=APPROVED': () => json(200, []),
      'GET /t/acme/api/columns/col1/assigned-templates': () => json(200, { templateIds: [] }),
      'POST /t/acme/api/message/schedule': () => new Response('', { status: 500 }),
    });
    await openChat();
    fireEvent.click(screen.getByRole('button', { name: 'Programar mensaje' }));
    const dialog = await screen.findByRole('dialog');
    const soon = new Date(Date.now() + 10 * 60_000);
    fireEvent.change(within(dialog).getByLabelText('Fecha y hora'), {
      target: { value: new Date(soon.getTime() - soon.getTimezoneOffset() * 60_000).toISOString().slice(0, 19) },
    });
    fireEvent.change(within(dialog).getByLabelText('Mensaje'), { target: { value: 'Hola' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Programar' }));
    expect(await screen.findByText('Error: No se pudo programar el mensaje.')).toBeTruthy();
  });

  it('shows the microphone message when access is denied', async () => {
    installBoardApi(aBoard());
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) } });
    await openChat();
    fireEvent.click(screen.getByRole('button', { name: 'Grabar nota de voz' }));
    expect(await screen.findByText(MICROPHONE_DENIED)).toBeTruthy();
    expect(screen.queryByTestId('voice-recording')).toBeNull();
  });

  it('records a voice note: idle, recording with its seconds, then sent as a file named with a timestamp', async () => {
    const api = installBoardApi(aBoard(), [], {
      'POST /t/acme/api/message/media': () => json(201, aMessage({ id: 'v1', sender: 'user', type: 'audio', mediaUrl: '/media/v.ogg' })),
    });
    class FakeRecorder {
      static isTypeSupported = (type: string) => type === 'audio/webm;codecs=opus';
      state = 'inactive';
      mimeType = 'audio/webm;codecs=opus';
      ondataavailable: ((event: { data: Blob }) => void) | null = null;
      onstop: (() => void) | null = null;
      constructor(readonly stream: { getTracks: () => Array<{ stop: () => void }> }) {}
      start() {
        this.state = 'recording';
      }
      stop() {
        this.state = 'inactive';
        this.ondataavailable?.({ data: new Blob(['opus'], { type: this.mimeType }) });
        this.onstop?.();
      }
    }
    vi.stubGlobal('MediaRecorder', FakeRecorder);
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia: () => Promise.resolve({ getTracks: () => [{ stop: () => undefined }] }) } });
    await openChat();
    fireEvent.click(screen.getByRole('button', { name: 'Grabar nota de voz' }));
    const recording = await screen.findByTestId('voice-recording');
    expect(recording.getAttribute('data-state')).toBe('recording');
    expect(recording.textContent).toBe('Grabando… 0s');
    fireEvent.click(screen.getByRole('button', { name: 'Detener grabación' }));
    await waitFor(() => expect(api.callsTo('POST', '/t/acme/api/message/media')).toHaveLength(1));
    const form = api.callsTo('POST', '/t/acme/api/message/media')[0]!.body as FormData;
    expect((form.get('media') as File).name).toMatch(/^nota-de-voz-\d{13}\.webm$/);
    expect(form.get('cardId')).toBe('c1');
    await waitFor(() => expect(screen.queryByTestId('voice-recording')).toBeNull());
  });
});

describe('notes', () => {
  it('adds an internal note and shows the ones other agents write', async () => {
    const api = installBoardApi(aBoard(), [], {
      'POST /t/acme/api/note': ({ body }) =>
        json(201, { id: 'n1', cardId: 'c1', author: 'Ana María', text: (body as { text: string }).text, raw_timestamp: Date.now() }),
    });
    await openChat();
    fireEvent.click(screen.getByRole('tab', { name: 'Notas Internas' }));
    fireEvent.change(screen.getByLabelText('Nota interna'), { target: { value: 'Pidió factura' } });
    fireEvent.click(screen.getByRole('button', { name: 'Agregar Nota' }));
    expect((await screen.findByTestId('chat-note')).textContent).toContain('Pidió factura');
    expect(api.callsTo('POST', '/t/acme/api/note')[0]!.body).toEqual({ cardId: 'c1', text: 'Pidió factura' });

    await serverEmit('note:new', {
      cardId: 'c1',
      note: { id: 'n1', cardId: 'c1', author: 'Ana María', text: 'Pidió factura', timestamp: new Date().toISOString(), raw_timestamp: Date.now() },
    });
    await serverEmit('note:new', {
      cardId: 'c1',
      note: { id: 'n2', cardId: 'c1', author: 'Pedro', text: 'Ya se la envié', timestamp: new Date().toISOString(), raw_timestamp: Date.now() },
    });
    expect(screen.getAllByTestId('chat-note').map((note) => note.textContent)).toEqual([
      expect.stringContaining('Pidió factura'),
      expect.stringContaining('Pedro'),
    ]);
  });

  it('adds the note on Enter and breaks the line on Shift+Enter, as the composer does', async () => {
    const api = installBoardApi(aBoard(), [], {
      'POST /t/acme/api/note': ({ body }) =>
        json(201, { id: 'n1', cardId: 'c1', author: 'Ana', text: (body as { text: string }).text, raw_timestamp: Date.now() }),
    });
    await openChat();
    fireEvent.click(screen.getByRole('tab', { name: 'Notas Internas' }));
    const box = screen.getByLabelText('Nota interna') as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: 'Primera línea' } });
    // Shift+Enter is left to the browser (a new line) and adds nothing.
    expect(fireEvent.keyDown(box, { key: 'Enter', shiftKey: true })).toBe(true);
    expect(api.callsTo('POST', '/t/acme/api/note')).toHaveLength(0);
    fireEvent.change(box, { target: { value: 'Primera línea\nSegunda' } });
    expect(fireEvent.keyDown(box, { key: 'Enter' })).toBe(false);
    await waitFor(() => expect(api.callsTo('POST', '/t/acme/api/note')).toHaveLength(1));
    expect(api.callsTo('POST', '/t/acme/api/note')[0]!.body).toEqual({ cardId: 'c1', text: 'Primera línea\nSegunda' });
    await waitFor(() => expect(box.value).toBe(''));
  });
});

describe('group chats', () => {
  it('names the participant of each incoming message and shows stored quick-reply options by title', async () => {
    installBoardApi(aBoard([aCard({ isGroup: true })]), [
      aMessage({ id: 'g1', participantName: 'Marta', text: '¿Quién viene?' }),
      aMessage({
        id: 'g2',
        sender: 'ai',
        ack: 3,
        text: 'Elige una opción',
        type: 'interactive',
        payload: { quickReply: { options: [{ title: 'Sí' }, { title: 'No' }] } },
      }),
      aMessage({ id: 'g3', type: 'sticker', mediaUrl: '/media/s.webp' }),
    ]);
    await openChat();
    expect(await screen.findByText('Marta')).toBeTruthy();
    expect(
      within(screen.getByRole('list', { name: 'Opciones' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Sí', 'No']);
    expect(screen.getByRole('img', { name: 'Sticker' }).getAttribute('src')).toBe('/media/s.webp');
  });

  describe('copilot', () => {
    it('drafts a reply into the message box without sending it', async () => {
      const api = installBoardApi(aBoard(), [aMessage({ text: '¿Cuánto cuesta el taladro?' })], {
        'POST /t/acme/api/ai/suggest-reply': () => json(200, { text: 'El taladro cuesta $1,200.' }),
      });
      await openChat();
      fireEvent.click(screen.getByRole('button', { name: 'Sugerir respuesta' }));
      await waitFor(() => expect((screen.getByRole('textbox', { name: 'Mensaje' }) as HTMLTextAreaElement).value).toBe('El taladro cuesta $1,200.'));
      expect(api.callsTo('POST', '/t/acme/api/ai/suggest-reply')[0]!.body).toEqual({ cardId: 'c1' });
      expect(api.callsTo('POST', '/t/acme/api/message')).toHaveLength(0);
    });

    it("shows the server's reason, or its own, when no draft comes back", async () => {
      installBoardApi(aBoard(), [], {
        'POST /t/acme/api/ai/suggest-reply': () => json(503, {}),
      });
      await openChat();
      fireEvent.click(screen.getByRole('button', { name: 'Sugerir respuesta' }));
      expect(await screen.findByText(SUGGEST_FAILED)).toBeTruthy();
      expect((screen.getByRole('textbox', { name: 'Mensaje' }) as HTMLTextAreaElement).value).toBe('');
    });

    it('keeps the summary as an internal note', async () => {
      const note = {
        id: 'n1',
        cardId: 'c1',
        author: 'IA',
        text: 'Resumen: pregunta por el precio del taladro.',
        timestamp: '2025-01-01T10:00:00.000Z',
        raw_timestamp: 1735725600000,
      };
      installBoardApi(aBoard(), [], { 'POST /t/acme/api/ai/summarize': () => json(200, { note }) });
      await openChat();
      fireEvent.click(screen.getByRole('button', { name: 'Resumir conversación' }));
      expect(await screen.findByText(SUMMARY_ADDED)).toBeTruthy();
      fireEvent.click(screen.getByRole('tab', { name: 'Notas Internas' }));
      expect((await screen.findByTestId('chat-note')).textContent).toContain('Resumen: pregunta por el precio del taladro.');
    });
  });
});
