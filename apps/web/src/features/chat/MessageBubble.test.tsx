import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from './chat.api.ts';
import { MessageBubble } from './MessageBubble.tsx';

const aCustomerMessage = (overrides: Partial<ChatMessage> = {}): ChatMessage => ({
  id: 'm1',
  cardId: 'c1',
  sender: 'contact',
  participantName: null,
  text: '¿Tienen envío a Puebla?',
  type: 'text',
  mediaUrl: null,
  mediaMime: null,
  fileName: null,
  timestamp: '2025-01-01T15:30:00.000Z',
  raw_timestamp: Date.parse('2025-01-01T15:30:00.000Z'),
  ack: 3,
  error: null,
  quotedMessageId: null,
  quotedMessageText: null,
  quotedMessageSender: null,
  tempId: null,
  templateId: null,
  payload: null,
  ...overrides,
});

const noop = () => undefined;

describe('reactions under a bubble', () => {
  it('shows one chip per emoji, named by who reacted', () => {
    render(
      <MessageBubble
        message={aCustomerMessage({
          reactions: [
            { emoji: '👍', from: 'contact', name: 'Lucía Pérez' },
            { emoji: '❤️', from: 'user', name: 'Ana' },
          ],
        })}
      />,
    );
    const reactions = screen.getByTestId('message-reactions');
    const chips = within(reactions).getAllByRole('listitem');
    expect(chips.map((chip) => chip.getAttribute('aria-label'))).toEqual(['Reacción 👍 del cliente', 'Reacción ❤️ de Ana']);
    expect(chips.map((chip) => chip.textContent)).toEqual(['👍', '❤️']);
  });

  it('groups the same emoji with a count, naming a group participant', () => {
    render(
      <MessageBubble
        isGroup
        message={aCustomerMessage({
          participantName: 'Pedro',
          reactions: [
            { emoji: '😂', from: 'contact', name: 'Pedro' },
            { emoji: '😂', from: 'user', name: null },
          ],
        })}
      />,
    );
    const chip = screen.getByRole('listitem', { name: '2 reacciones 😂: de Pedro y del equipo' });
    expect(chip.textContent).toBe('😂2');
  });

  it('shows nothing when there are none', () => {
    render(<MessageBubble message={aCustomerMessage({ reactions: [] })} />);
    expect(screen.queryByTestId('message-reactions')).toBeNull();
  });
});

describe('an edited or deleted message', () => {
  it('says "Editado" beside the time and shows the new text', () => {
    render(<MessageBubble message={aCustomerMessage({ text: 'Texto corregido', editedAt: '2025-01-01T15:32:00.000Z' })} />);
    expect(screen.getByText('Texto corregido')).toBeTruthy();
    const edited = screen.getByTestId('message-edited');
    expect(edited.textContent).toBe('Editado');
    // It sits in the time's row, before the time.
    expect(edited.nextElementSibling?.textContent).toMatch(/\d{2}:\d{2}/);
  });

  it('a message never edited has no mark', () => {
    render(<MessageBubble message={aCustomerMessage({ editedAt: null })} />);
    expect(screen.queryByTestId('message-edited')).toBeNull();
  });

  it('shows "Mensaje eliminado" with an icon in place of its content, and cannot be answered', () => {
    render(
      <MessageBubble
        onReply={noop}
        message={aCustomerMessage({
          type: 'image',
          text: null,
          mediaUrl: null,
          quotedMessageId: 'm0',
          quotedMessageText: 'Hola',
          quotedMessageSender: 'user',
          deletedAt: '2025-01-01T15:35:00.000Z',
        })}
      />,
    );
    const deleted = screen.getByTestId('message-deleted');
    expect(deleted.textContent).toBe('Mensaje eliminado');
    expect(deleted.className).toContain('italic');
    expect(deleted.className).toContain('text-slate-600');
    expect(deleted.querySelector('svg')).toBeTruthy();
    expect(screen.queryByText('Media URL no disponible.')).toBeNull();
    expect(screen.queryByTestId('quoted-preview')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Responder' })).toBeNull();
  });

  it('keeps the reply button on a message that is not deleted', () => {
    render(<MessageBubble onReply={noop} message={aCustomerMessage()} />);
    expect(screen.getByRole('button', { name: 'Responder' })).toBeTruthy();
  });
});

describe('a message from an ad', () => {
  const referral = {
    headline: 'Zapatos al 2x1',
    body: 'Solo este fin de semana',
    sourceUrl: 'https://fb.me/anuncio-123',
    sourceId: '123',
    sourceType: 'ad',
    clickId: 'abc',
  };

  it('says it came from an ad above its text, with the headline and a safe link to the ad', () => {
    render(<MessageBubble message={aCustomerMessage({ text: 'Quiero info', payload: { referral } })} />);
    const block = screen.getByTestId('message-referral');
    expect(block.textContent).toContain('Llegó desde un anuncio');
    expect(block.textContent).toContain('Zapatos al 2x1');
    const link = within(block).getByRole('link', { name: 'Ver anuncio' });
    expect(link.getAttribute('href')).toBe('https://fb.me/anuncio-123');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    // Above the customer's words.
    expect(block.compareDocumentPosition(screen.getByText('Quiero info')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('says "desde una publicación" for a post, and links nothing that is not http(s)', () => {
    render(
      <MessageBubble
        message={aCustomerMessage({ payload: { referral: { headline: 'Nuestra tienda', sourceType: 'post', sourceUrl: 'javascript:alert(1)' } } })}
      />,
    );
    const block = screen.getByTestId('message-referral');
    expect(block.textContent).toContain('Llegó desde una publicación');
    expect(within(block).queryByRole('link')).toBeNull();
  });

  it('shows no block on a message without a referral', () => {
    render(<MessageBubble message={aCustomerMessage()} />);
    expect(screen.queryByTestId('message-referral')).toBeNull();
  });
});

describe('the member reacting', () => {
  it('offers the quick reactions and taking one back, and none on a deleted message or without the right to write', () => {
    const picked: Array<string | null> = [];
    const { rerender } = render(<MessageBubble message={aCustomerMessage()} onReact={(_message, emoji) => picked.push(emoji)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Reaccionar' }));
    const picker = screen.getByRole('group', { name: 'Elige una reacción' });
    fireEvent.click(within(picker).getByRole('button', { name: 'Reaccionar con 👍' }));
    expect(screen.queryByRole('group', { name: 'Elige una reacción' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Reaccionar' }));
    fireEvent.click(screen.getByRole('button', { name: 'Quitar mi reacción' }));
    expect(picked).toEqual(['👍', null]);

    rerender(<MessageBubble message={aCustomerMessage({ deletedAt: '2025-01-01T15:31:00.000Z' })} onReact={noop} />);
    expect(screen.queryByRole('button', { name: 'Reaccionar' })).toBeNull();
    rerender(<MessageBubble message={aCustomerMessage()} />);
    expect(screen.queryByRole('button', { name: 'Reaccionar' })).toBeNull();
  });
});

describe('a refused send', () => {
  it('names the provider code once, whether or not the reason already names it', () => {
    const refused = (error: string) => aCustomerMessage({ sender: 'user', ack: -1, error, errorCode: '131999' });
    const { rerender } = render(<MessageBubble message={refused('WhatsApp rechazó el mensaje (código 131999): vuelve a intentarlo')} />);
    expect(screen.getByTestId('message-error').textContent!.match(/131999/g)).toHaveLength(1);
    rerender(<MessageBubble message={refused('El cliente no tiene WhatsApp')} />);
    expect(screen.getByTestId('message-error').textContent).toBe('No enviado: El cliente no tiene WhatsApp (código 131999)');
  });
});
