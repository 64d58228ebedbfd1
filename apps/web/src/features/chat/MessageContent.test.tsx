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
