import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { installFakeApi, json } from '../../test/fake-api.ts';
import { storeSession } from '../../test/session-fixture.ts';
import { PlaygroundModal } from './PlaygroundModal.tsx';

const config = { nodes: [], edges: [] };
const SESSION = '33333333-3333-4333-8333-333333333333';

function renderPlayground() {
  storeSession();
  return render(<PlaygroundModal botId="b1" config={() => config} onClose={() => undefined} />);
}
const input = () => screen.getByPlaceholderText('Escribe un mensaje...') as HTMLInputElement;
const type = (text: string) => fireEvent.change(input(), { target: { value: text } });
const send = () => fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));

describe('PlaygroundModal', () => {
  it('sends the unsaved config, shows the typing indicator and blocks the input while waiting, then reuses the session', async () => {
    let answer: (response: Response) => void = () => undefined;
    const api = installFakeApi({
      'POST /t/acme/api/bots/b1/simulate': () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    renderPlayground();
    type('   ');
    expect((screen.getByRole('button', { name: 'Enviar' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.submit(input().closest('form')!);
    expect(api.calls).toHaveLength(0);

    type('Hola');
    send();
    expect(await screen.findByRole('status', { name: 'El bot está escribiendo' })).toBeTruthy();
    expect(input().disabled).toBe(true);
    expect(api.calls[0]!.body).toEqual({ message: 'Hola', sessionId: null, botConfig: config });
    answer(json(200, { sessionId: SESSION, reply: '¿Qué necesitas?', replies: ['¿Qué necesitas?'], options: [{ id: 'a', label: 'Citas', value: 'citas' }] }));
    expect(await screen.findByText('¿Qué necesitas?')).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'El bot está escribiendo' })).toBeNull();
    expect(input().disabled).toBe(false);

    api.setHandler('POST /t/acme/api/bots/b1/simulate', () => json(200, { sessionId: SESSION, reply: 'Perfecto.', replies: ['Perfecto.'], options: [] }));
    fireEvent.click(screen.getByRole('button', { name: 'Citas' }));
    expect(await screen.findByText('Perfecto.')).toBeTruthy();
    expect(api.calls[1]!.body).toMatchObject({ message: 'Citas', sessionId: SESSION });
  });

  it('shows each message and note of a reply in its own bubble, in the order the flow ran them', async () => {
    const replies = ['[Webhook POST https://crm.example.com → 200]', '[✉ E-mail enviado a ventas@example.com]', 'Gracias, ya te atiendo.'];
    installFakeApi({ 'POST /t/acme/api/bots/b1/simulate': () => json(200, { sessionId: SESSION, reply: replies.join('\n\n'), replies, options: [] }) });
    renderPlayground();
    type('Hola');
    send();
    await screen.findByText('Gracias, ya te atiendo.');
    expect(screen.getAllByTestId('playground-bot-message').map((bubble) => bubble.textContent)).toEqual(replies);
  });

  it('shows a failure as a bot message prefixed [ERROR]', async () => {
    installFakeApi({
      'POST /t/acme/api/bots/b1/simulate': () => json(400, { code: 'BAD_REQUEST', message: 'Solo puede haber un nodo disparador por flujo.' }),
    });
    renderPlayground();
    type('Hola');
    send();
    expect(await screen.findByText('[ERROR] Solo puede haber un nodo disparador por flujo.')).toBeTruthy();
  });

  it('resets: deletes the session on the server, only logs a failure, and clears the chat', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const api = installFakeApi({
      'POST /t/acme/api/bots/b1/simulate': () => json(200, { sessionId: SESSION, reply: 'Hola, soy el bot.', replies: ['Hola, soy el bot.'], options: [] }),
      [`DELETE /t/acme/api/bots/simulation/${SESSION}`]: () => json(500, { code: 'INTERNAL', message: 'Error interno del servidor.' }),
    });
    renderPlayground();
    type('Hola');
    send();
    expect(await screen.findByText('Hola, soy el bot.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reiniciar Conversación' }));
    await waitFor(() => expect(api.callsTo('DELETE', `/t/acme/api/bots/simulation/${SESSION}`)).toHaveLength(1));
    expect(screen.queryByText('Hola, soy el bot.')).toBeNull();
    await waitFor(() => expect(warn).toHaveBeenCalled());
    // The next message starts a new session.
    type('Otra vez');
    send();
    await waitFor(() => expect(api.callsTo('POST', '/t/acme/api/bots/b1/simulate')).toHaveLength(2));
    expect(api.calls.at(-1)!.body).toMatchObject({ sessionId: null });
    warn.mockRestore();
  });
});
