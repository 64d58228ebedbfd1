import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { installFakeApi, json } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aTenant, aUser, storeSession } from '../../test/session-fixture.ts';
import { CONVERSATION_POLL_MS, SIGN_IN_FOR_SANDBOX } from './SandboxPhonePage.tsx';

const company = { appName: 'sandbox-acme', sourceNumber: '15550001000', label: 'Acme' };
const conversationUrl = 'GET /sandbox/api/conversation?phone=5215512340000';

async function openWithCompany(messages: unknown[] = []) {
  storeSession();
  const api = installFakeApi({
    'GET /api/auth/me': () => json(200, { user: aUser(), tenant: aTenant() }),
    'GET /sandbox/api/app': () => json(200, company),
    [conversationUrl]: () => json(200, { messages }),
    'POST /sandbox/api/send': () => json(201, { id: 'wamid.1' }),
  });
  renderApp('/sandbox');
  expect(await screen.findByRole('heading', { level: 1, name: 'Teléfono de prueba (sandbox)' })).toBeTruthy();
  expect((await screen.findByTestId('sandbox-company')).textContent).toContain('Acme');
  fireEvent.change(screen.getByLabelText('Teléfono del cliente'), { target: { value: '+52 1 5512340000' } });
  fireEvent.change(screen.getByLabelText('Nombre del cliente'), { target: { value: 'Cliente E2E' } });
  return api;
}

describe('SandboxPhonePage', () => {
  it('asks to sign in, with a link to the sign-in page, and calls nothing without a session', async () => {
    const api = installFakeApi({});
    renderApp('/sandbox');
    expect((await screen.findByTestId('sandbox-sign-in')).textContent).toContain(SIGN_IN_FOR_SANDBOX);
    expect(screen.getByRole('link', { name: 'Iniciar sesión' }).getAttribute('href')).toBe('/login');
    expect(screen.queryByLabelText('Teléfono del cliente')).toBeNull();
    expect(api.calls).toEqual([]);
  });

  it("sends with the session's token what the customer types, as that customer of the signed-in company", async () => {
    const api = await openWithCompany();
    expect(await screen.findByText(/Aún no hay mensajes/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Mensaje'), { target: { value: 'Hola, ¿tienen taladros?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(api.callsTo('POST', '/sandbox/api/send')).toHaveLength(1));
    expect(api.callsTo('POST', '/sandbox/api/send')[0]?.headers.authorization).toBe('Bearer stored-token');
    expect(api.callsTo('POST', '/sandbox/api/send')[0]?.body).toEqual({
      phone: '5215512340000',
      name: 'Cliente E2E',
      message: { kind: 'text', text: 'Hola, ¿tienen taladros?' },
    });
    await waitFor(() => expect((screen.getByLabelText('Mensaje') as HTMLInputElement).value).toBe(''));
  });

  it('shows the conversation and answers a quick reply', async () => {
    const api = await openWithCompany([
      { id: 'c1', direction: 'from_customer', type: 'text', body: { text: 'Hola' }, status: 'sent', createdAt: '2025-03-01T15:00:00.000Z' },
      {
        id: 'b1',
        direction: 'to_customer',
        type: 'quick_reply',
        status: 'delivered',
        createdAt: '2025-03-01T15:01:00.000Z',
        body: {
          type: 'quick_reply',
          msgid: 'qr-1',
          content: { type: 'text', text: '¿Te llamamos?' },
          options: [{ type: 'text', title: 'Sí, llámenme', postbackText: 'llamar' }],
        },
      },
    ]);
    const bubbles = await screen.findAllByTestId('phone-message');
    expect(bubbles.map((bubble) => bubble.dataset.direction)).toEqual(['from_customer', 'to_customer']);
    expect(within(bubbles[1]!).getByTestId('ticks').getAttribute('data-status')).toBe('delivered');
    fireEvent.click(screen.getByRole('button', { name: 'Sí, llámenme' }));
    await waitFor(() => expect(api.callsTo('POST', '/sandbox/api/send')).toHaveLength(1));
    expect((api.callsTo('POST', '/sandbox/api/send')[0]?.body as { message: unknown }).message).toEqual({
      kind: 'button_reply',
      title: 'Sí, llámenme',
      id: 'qr-1',
      postbackText: 'llamar',
    });
  });

  it("shows the customer's message read once the business opens the chat, on the next poll", async () => {
    const customerMessage = { id: 'c1', direction: 'from_customer', type: 'text', body: { text: 'Hola' }, createdAt: '2025-03-01T15:00:00.000Z' };
    const api = await openWithCompany([{ ...customerMessage, status: 'delivered' }]);
    const bubble = await screen.findByTestId('phone-message');
    expect(within(bubble).getByRole('img', { name: 'Entregado' })).toBeTruthy();
    api.setHandler(conversationUrl, () => json(200, { messages: [{ ...customerMessage, status: 'read' }] }));
    const read = await within(bubble).findByRole('img', { name: 'Leído' }, { timeout: CONVERSATION_POLL_MS * 3 });
    expect(read.dataset.status).toBe('read');
  });

  it("shows the server's message when a send is refused", async () => {
    const api = await openWithCompany();
    api.setHandler('POST /sandbox/api/send', () => json(400, { message: 'Escribe un mensaje.' }));
    fireEvent.change(screen.getByLabelText('Mensaje'), { target: { value: 'Hola' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByText('Escribe un mensaje.')).toBeTruthy();
    expect((screen.getByLabelText('Mensaje') as HTMLInputElement).value).toBe('Hola');
  });

  it("shows the agent's reply with the message it quotes, the customer's or the business's", async () => {
    await openWithCompany([
      { id: 'wamid.c1', direction: 'from_customer', type: 'text', body: { text: '¿Tienen taladros?' }, status: 'read', createdAt: '2025-03-01T15:00:00.000Z' },
      {
        id: 'g-1',
        whatsappId: 'wamid.b1',
        direction: 'to_customer',
        type: 'text',
        status: 'read',
        createdAt: '2025-03-01T15:01:00.000Z',
        body: { type: 'text', text: 'Sí, varios modelos', context: { msgId: 'wamid.c1' } },
      },
      {
        id: 'g-2',
        direction: 'to_customer',
        type: 'text',
        status: 'delivered',
        createdAt: '2025-03-01T15:02:00.000Z',
        body: { type: 'text', text: 'Este es el más vendido', context: { msgId: 'wamid.b1' } },
      },
    ]);
    const bubbles = await screen.findAllByTestId('phone-message');
    expect(within(bubbles[0]!).queryByTestId('phone-quote')).toBeNull();
    expect(within(bubbles[1]!).getByTestId('phone-quote').textContent).toBe('Tú¿Tienen taladros?');
    expect(within(bubbles[2]!).getByTestId('phone-quote').textContent).toBe('AcmeSí, varios modelos');
  });

  it('writes from a group under the group id', async () => {
    const api = await openWithCompany();
    api.setHandler('GET /sandbox/api/conversation?phone=120363000000', () => json(200, { messages: [] }));
    fireEvent.click(screen.getByRole('switch', { name: 'Escribir desde un grupo' }));
    fireEvent.change(screen.getByLabelText('ID del grupo'), { target: { value: '120363000000' } });
    fireEvent.change(screen.getByLabelText('Nombre del grupo'), { target: { value: 'Obra Norte' } });
    expect(await screen.findByTestId('phone-chat-title')).toHaveProperty('textContent', 'Obra Norte');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar ubicación' }));
    await waitFor(() => expect(api.callsTo('POST', '/sandbox/api/send')).toHaveLength(1));
    expect(api.callsTo('POST', '/sandbox/api/send')[0]?.body).toMatchObject({
      phone: '5215512340000',
      group: { id: '120363000000', name: 'Obra Norte' },
      message: { kind: 'location' },
    });
  });

  it("sends the customer's reaction as that customer, and shows the server's refusal of a change", async () => {
    const api = await openWithCompany([
      { id: 'g-1', direction: 'to_customer', type: 'text', body: { type: 'text', text: 'Buenas' }, status: 'read', createdAt: '2025-03-01T15:00:00.000Z' },
      { id: 'wamid.c1', direction: 'from_customer', type: 'text', body: { text: 'Hola' }, status: 'read', createdAt: '2025-03-01T15:01:00.000Z' },
    ]);
    api.setHandler('POST /sandbox/api/change', () => json(200, { message: {} }));
    const bubbles = await screen.findAllByTestId('phone-message');
    fireEvent.click(within(bubbles[0]!).getByRole('button', { name: 'Opciones del mensaje' }));
    expect(screen.queryByRole('menuitem', { name: 'Eliminar para todos' })).toBeNull();
    fireEvent.click(screen.getByRole('menuitemradio', { name: 'Reaccionar con 👍' }));
    await waitFor(() => expect(api.callsTo('POST', '/sandbox/api/change')).toHaveLength(1));
    expect(api.callsTo('POST', '/sandbox/api/change')[0]?.body).toEqual({
      phone: '5215512340000',
      name: 'Cliente E2E',
      change: { kind: 'reaction', messageId: 'g-1', emoji: '👍' },
    });

    api.setHandler('POST /sandbox/api/change', () => json(400, { message: 'Solo puedes editar o eliminar tus propios mensajes.' }));
    fireEvent.click(within(bubbles[1]!).getByRole('button', { name: 'Opciones del mensaje' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Eliminar para todos' }));
    expect(await screen.findByText('Solo puedes editar o eliminar tus propios mensajes.')).toBeTruthy();
    expect(api.callsTo('POST', '/sandbox/api/change')[1]?.body).toMatchObject({ change: { kind: 'delete', messageId: 'wamid.c1' } });
  });
});
