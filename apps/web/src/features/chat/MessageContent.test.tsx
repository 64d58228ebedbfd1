import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from './chat.api.ts';
import { MessageContent } from './MessageContent.tsx';
import { pendingMessage } from './pending-message.ts';

const sent = (payload: Record<string, unknown> | null): ChatMessage => ({
  ...pendingMessage({ cardId: 'c1', type: 'template', text: 'Hola Ana, tu pedido salió.', tempId: 't1' }),
  id: 'm1',
  timestamp: '2025-01-01T00:00:00.000Z',
  raw_timestamp: 0,
  ack: 1,
  payload,
});

describe('a sent template in the chat', () => {
  it('shows its header, filled body, footer and buttons', () => {
    render(
      <MessageContent
        message={sent({
          template: {
            name: 'aviso',
            header: { type: 'IMAGE', media_url: '/media/t1/a.png' },
            footer: 'Tienda Núñez',
            buttons: [
              { type: 'QUICK_REPLY', text: 'Gracias' },
              { type: 'URL', text: 'Ver', url: 'https://t.example/' },
            ],
          },
        })}
      />,
    );
    const message = screen.getByTestId('template-message');
    expect(within(message).getByRole('img', { name: 'Encabezado de la plantilla' }).getAttribute('src')).toBe('/media/t1/a.png');
    expect(within(message).getByText('Hola Ana, tu pedido salió.')).toBeTruthy();
    expect(within(message).getByText('Tienda Núñez')).toBeTruthy();
    expect(
      within(message)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Gracias', 'Ver']);
  });

  it('shows the body alone while only the optimistic copy exists', () => {
    render(<MessageContent message={sent(null)} />);
    expect(screen.getByTestId('template-message').textContent).toBe('Hola Ana, tu pedido salió.');
  });
});

describe('a voice note in the chat', () => {
  const voiceNote = (transcript: string | null): ChatMessage => ({
    ...pendingMessage({ cardId: 'c1', type: 'audio', text: '', tempId: 't2' }),
    id: 'v1',
    mediaUrl: '/media/t1/nota.ogg',
    timestamp: '2025-01-01T00:00:00.000Z',
    raw_timestamp: 0,
    ack: 3,
    transcript,
  });

  it('shows its transcript under the player once there is one', () => {
    render(<MessageContent message={voiceNote('Quiero agendar una cita el martes')} />);
    expect(screen.getByTestId('audio-player')).toBeTruthy();
    expect(screen.getByTestId('voice-transcript').textContent).toBe('Transcripción: Quiero agendar una cita el martes');
  });

  it('shows the player alone before it is transcribed', () => {
    render(<MessageContent message={voiceNote(null)} />);
    expect(screen.getByTestId('audio-player')).toBeTruthy();
    expect(screen.queryByTestId('voice-transcript')).toBeNull();
  });
});

const fromCustomer = (fields: Partial<ChatMessage>): ChatMessage => ({
  ...pendingMessage({ cardId: 'c1', type: 'text', text: '', tempId: 't3' }),
  id: 'in1',
  sender: 'contact',
  timestamp: '2025-01-01T00:00:00.000Z',
  raw_timestamp: 0,
  ack: 3,
  ...fields,
});

describe('an order in the chat', () => {
  const order = (items: Array<Record<string, unknown>>, text: string | null) =>
    fromCustomer({ type: 'order', text, payload: { order: { catalogId: 'cat-1', items } } });

  it('lists each product with quantity × price, the total and the customer’s note', () => {
    render(
      <MessageContent
        message={order(
          [
            { productId: 'SKU-TENIS-42', quantity: 2, unitPrice: 450, currency: 'MXN' },
            { productId: 'SKU-CALCETA', quantity: 1, unitPrice: 80.5, currency: 'MXN' },
          ],
          'Entregar por la tarde',
        )}
      />,
    );
    const card = screen.getByTestId('message-order');
    expect(card.textContent).toContain('Pedido · 3 productos');
    const rows = within(card).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('SKU-TENIS-42');
    expect(rows[0]!.textContent).toMatch(/2 × 450,00\sMXN/);
    expect(rows[1]!.textContent).toMatch(/1 × 80,50\sMXN/);
    expect(within(card).getByTestId('order-total').textContent).toMatch(/Total980,50\sMXN/);
    expect(within(card).getByText('Entregar por la tarde')).toBeTruthy();
  });

  it('has no total when a price is missing, and does not repeat the server’s "Pedido: N productos"', () => {
    render(
      <MessageContent
        message={order(
          [
            { productId: 'SKU-1', quantity: 1, unitPrice: 10, currency: 'USD' },
            { productId: 'SKU-2', quantity: 1 },
          ],
          'Pedido: 2 productos',
        )}
      />,
    );
    const card = screen.getByTestId('message-order');
    expect(within(card).queryByTestId('order-total')).toBeNull();
    expect(within(card).getAllByRole('listitem')[1]!.textContent).toContain('1 × sin precio');
    expect(card.textContent).not.toContain('Pedido: 2 productos');
  });

  it('is no longer "Unsupported media"', () => {
    render(<MessageContent message={order([{ productId: 'SKU-1', quantity: 1 }], null)} />);
    expect(screen.queryByText('Unsupported media')).toBeNull();
  });
});

describe('a flow answer in the chat', () => {
  it('shows a "Formulario" block with one row per field instead of the plain lines', () => {
    render(
      <MessageContent
        message={fromCustomer({
          text: 'Nombre: Ana\nFecha: 2025-02-03',
          payload: {
            flowReply: {
              name: 'Agendar cita',
              fields: [
                { label: 'Nombre', value: 'Ana' },
                { label: 'Fecha', value: '2025-02-03' },
              ],
            },
          },
        })}
      />,
    );
    const block = screen.getByTestId('message-flow-reply');
    expect(block.textContent).toContain('Formulario · Agendar cita');
    expect(
      within(block)
        .getAllByRole('term')
        .map((term) => term.textContent),
    ).toEqual(['Nombre', 'Fecha']);
    expect(
      within(block)
        .getAllByRole('definition')
        .map((value) => value.textContent),
    ).toEqual(['Ana', '2025-02-03']);
    expect(screen.queryByText(/Nombre: Ana/)).toBeNull();
  });

  it('a plain text stays plain text', () => {
    render(<MessageContent message={fromCustomer({ text: 'Hola' })} />);
    expect(screen.queryByTestId('message-flow-reply')).toBeNull();
    expect(screen.getByText('Hola')).toBeTruthy();
  });
});

describe('a type the chat does not know', () => {
  it('still says "Unsupported media"', () => {
    render(<MessageContent message={fromCustomer({ type: 'unsupported', text: 'Unsupported media' })} />);
    expect(screen.getAllByText('Unsupported media')).toHaveLength(1);
  });
});
