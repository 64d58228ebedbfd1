import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PhoneMessageBubble } from './PhoneMessageBubble.tsx';
import type { PhoneMessage } from '@embudo/contracts/http/sandbox-phone';

function aMessage(overrides: Partial<PhoneMessage>): PhoneMessage {
  return {
    id: 'm1',
    direction: 'to_customer',
    type: 'text',
    body: { type: 'text', text: 'Hola' },
    status: 'sent',
    createdAt: '2025-03-01T15:04:00.000Z',
    ...overrides,
  };
}

describe('PhoneMessageBubble', () => {
  it('puts a business text on the left with its delivery ticks', () => {
    render(<PhoneMessageBubble message={aMessage({ status: 'read' })} />);
    const bubble = screen.getByTestId('phone-message');
    expect(bubble.dataset.direction).toBe('to_customer');
    expect(within(bubble).getByText('Hola')).toBeTruthy();
    expect(screen.getByTestId('ticks').getAttribute('data-status')).toBe('read');
    expect(screen.getByRole('img', { name: 'Leído' })).toBeTruthy();
  });

  it.each([
    ['sent', 'Enviado'],
    ['delivered', 'Entregado'],
    ['failed', 'No entregado'],
    ['enqueued', 'Pendiente'],
  ] as const)('labels the %s status "%s"', (status, label) => {
    render(<PhoneMessageBubble message={aMessage({ status })} />);
    expect(screen.getByTestId('ticks').getAttribute('data-status')).toBe(status);
    expect(screen.getByRole('img', { name: label })).toBeTruthy();
  });

  it('shows customer messages on the right with the participant in a group and their own ticks', () => {
    render(
      <PhoneMessageBubble
        message={aMessage({ direction: 'from_customer', status: 'delivered', body: { text: 'Buenas' }, participant: { phone: '5215500000001', name: 'Luis' } })}
      />,
    );
    expect(screen.getByTestId('phone-message').dataset.direction).toBe('from_customer');
    expect(screen.getByText('Luis')).toBeTruthy();
    const ticks = screen.getByRole('img', { name: 'Entregado' });
    expect(ticks.dataset.status).toBe('delivered');
    expect(ticks.getAttribute('class')).toContain('text-slate-400');
  });

  it("turns the customer's ticks blue once the business read the chat", () => {
    const { rerender } = render(<PhoneMessageBubble message={aMessage({ direction: 'from_customer', status: 'delivered', body: { text: 'Buenas' } })} />);
    expect(screen.getByTestId('ticks').getAttribute('class')).not.toContain('text-sky-500');
    rerender(<PhoneMessageBubble message={aMessage({ direction: 'from_customer', status: 'read', body: { text: 'Buenas' } })} />);
    const ticks = screen.getByRole('img', { name: 'Leído' });
    expect(ticks.dataset.status).toBe('read');
    expect(ticks.getAttribute('class')).toContain('text-sky-500');
    // Two checks, as WhatsApp draws read and delivered.
    expect(ticks.querySelectorAll('path')).toHaveLength(2);
  });

  it('renders images with caption, documents as links and audio as a player', () => {
    render(
      <>
        <PhoneMessageBubble
          message={aMessage({ id: 'a', type: 'image', body: { type: 'image', originalUrl: 'https://cdn.test/a.jpg', caption: 'El catálogo' } })}
        />
        <PhoneMessageBubble message={aMessage({ id: 'b', type: 'file', body: { type: 'file', url: 'https://cdn.test/c.pdf', filename: 'cotizacion.pdf' } })} />
        <PhoneMessageBubble message={aMessage({ id: 'c', type: 'audio', body: { type: 'audio', url: 'https://cdn.test/a.ogg' } })} />
      </>,
    );
    expect(screen.getByRole('img', { name: 'El catálogo' }).getAttribute('src')).toBe('https://cdn.test/a.jpg');
    expect(screen.getByText('El catálogo')).toBeTruthy();
    expect(screen.getByRole('link', { name: /cotizacion\.pdf/ }).getAttribute('href')).toBe('https://cdn.test/c.pdf');
    expect(document.querySelector('audio')?.getAttribute('src')).toBe('https://cdn.test/a.ogg');
  });

  it('shows a template by its id and params', () => {
    render(<PhoneMessageBubble message={aMessage({ type: 'template', body: { template: { id: 'bienvenida', params: ['Ana', 'martes'] } } })} />);
    expect(screen.getByText('Plantilla bienvenida')).toBeTruthy();
    expect(screen.getByText('Ana')).toBeTruthy();
    expect(screen.getByText('martes')).toBeTruthy();
  });

  it("shows a template as the customer's WhatsApp renders it, with its buttons to tap or open", () => {
    const onReply = vi.fn();
    const template = {
      name: 'promo',
      header: { type: 'IMAGE' as const, url: 'http://127.0.0.1:3000/media/t1/promo.png' },
      body: 'Hola Ana, tu cupón X1 vence pronto.',
      footer: 'Tienda Núñez',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Lo quiero' },
        { type: 'URL', text: 'Ver tienda', url: 'https://tienda.example/' },
        { type: 'PHONE_NUMBER', text: 'Llamar', phone_number: '+5215512345678' },
      ],
    };
    render(
      <PhoneMessageBubble message={aMessage({ type: 'template', body: { template: { id: 'gs-1', params: ['Ana', 'X1'] } }, template })} onReply={onReply} />,
    );
    const rendered = screen.getByTestId('phone-template');
    expect(within(rendered).getByText('Hola Ana, tu cupón X1 vence pronto.')).toBeTruthy();
    expect(within(rendered).getByText('Tienda Núñez')).toBeTruthy();
    // The server's own media URL is served on this page's origin.
    expect(within(rendered).getByRole('img', { name: 'Encabezado de la plantilla' }).getAttribute('src')).toBe('/media/t1/promo.png');
    const buttons = within(screen.getByRole('group', { name: 'Botones de la plantilla' }));
    expect(buttons.getByRole('link', { name: 'Ver tienda' }).getAttribute('href')).toBe('https://tienda.example/');
    expect(buttons.getByRole('link', { name: 'Llamar' }).getAttribute('href')).toBe('tel:+5215512345678');
    fireEvent.click(buttons.getByRole('button', { name: 'Lo quiero' }));
    expect(onReply).toHaveBeenCalledWith({ kind: 'quick_reply', text: 'Lo quiero' });
  });

  it('answers a quick reply with the tapped button', () => {
    const onReply = vi.fn();
    const body = {
      type: 'quick_reply',
      msgid: 'qr-7',
      content: { type: 'text', text: '¿Agendamos?' },
      options: [
        { type: 'text', title: 'Sí', postbackText: 'agendar-si' },
        { type: 'text', title: 'No', postbackText: 'agendar-no' },
      ],
    };
    render(<PhoneMessageBubble message={aMessage({ type: 'quick_reply', body })} onReply={onReply} />);
    fireEvent.click(screen.getByRole('button', { name: 'No' }));
    expect(onReply).toHaveBeenCalledWith({ kind: 'button_reply', title: 'No', id: 'qr-7', postbackText: 'agendar-no' });
  });

  it('opens a list and answers with the chosen option', () => {
    const onReply = vi.fn();
    const body = {
      type: 'list',
      title: 'Catálogo',
      body: 'Elige un producto',
      msgid: 'list-3',
      globalButtons: [{ type: 'text', title: 'Ver productos' }],
      items: [{ title: 'Ferretería', options: [{ type: 'text', title: 'Tornillos', description: 'Caja de 100', postbackText: 'p-tornillos' }] }],
    };
    render(<PhoneMessageBubble message={aMessage({ type: 'list', body })} onReply={onReply} />);
    expect(screen.queryByRole('button', { name: /Tornillos/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Ver productos' }));
    fireEvent.click(screen.getByRole('button', { name: /Tornillos/ }));
    expect(onReply).toHaveBeenCalledWith({ kind: 'list_reply', title: 'Tornillos', id: 'list-3', postbackText: 'p-tornillos' });
  });
});

describe("the customer's changes on the phone", () => {
  const noop = () => {};
  const ownText = (overrides: Partial<PhoneMessage> = {}) =>
    aMessage({ id: 'wamid.c1', direction: 'from_customer', type: 'text', body: { text: 'Hola' }, status: 'read', ...overrides });
  const openMenu = () => fireEvent.click(screen.getByRole('button', { name: 'Opciones del mensaje' }));

  it("shows the reaction under the bubble, 'Editado' beside the time and 'Mensaje eliminado' in place of the content", () => {
    const { rerender } = render(<PhoneMessageBubble message={aMessage({ body: { type: 'text', text: 'Hola', reaction: '👍' } })} />);
    expect(screen.getByTestId('phone-reaction').textContent).toBe('👍');
    expect(screen.getByLabelText('Tu reacción: 👍')).toBeTruthy();
    rerender(<PhoneMessageBubble message={ownText({ body: { text: 'Hola, buenas', edited: true } })} />);
    expect(screen.getByText('Hola, buenas')).toBeTruthy();
    const edited = screen.getByTestId('phone-message-edited');
    expect(edited.textContent).toBe('Editado');
    expect(edited.nextElementSibling?.tagName).toBe('TIME');
    rerender(<PhoneMessageBubble message={ownText({ body: { text: 'Hola', edited: true, reaction: '❤️', deleted: true } })} onChange={noop} ownMessage />);
    expect(screen.getByTestId('phone-message-deleted').textContent).toBe('Mensaje eliminado');
    expect(screen.queryByText('Hola')).toBeNull();
    expect(screen.queryByTestId('phone-message-edited')).toBeNull();
    expect(screen.queryByTestId('phone-reaction')).toBeNull();
    // A deleted message takes no more changes.
    expect(screen.queryByRole('button', { name: 'Opciones del mensaje' })).toBeNull();
  });

  it("reacts to the business's message with one of six emoji, and offers no edit or delete for it", () => {
    const onChange = vi.fn();
    render(<PhoneMessageBubble message={aMessage({ id: 'g-1' })} onChange={onChange} />);
    openMenu();
    const menu = screen.getByRole('menu', { name: 'Opciones del mensaje' });
    const emoji = within(within(menu).getByRole('group', { name: 'Reaccionar' })).getAllByRole('menuitemradio');
    expect(emoji.map((item) => item.textContent)).toEqual(['👍', '❤️', '😂', '😮', '😢', '🙏']);
    expect(within(menu).queryByRole('menuitem', { name: 'Quitar reacción' })).toBeNull();
    expect(within(menu).queryByRole('menuitem', { name: 'Editar' })).toBeNull();
    expect(within(menu).queryByRole('menuitem', { name: 'Eliminar para todos' })).toBeNull();
    fireEvent.click(screen.getByRole('menuitemradio', { name: 'Reaccionar con 👍' }));
    expect(onChange).toHaveBeenCalledWith({ kind: 'reaction', messageId: 'g-1', emoji: '👍' });
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('takes a reaction back', () => {
    const onChange = vi.fn();
    render(<PhoneMessageBubble message={aMessage({ id: 'g-1', body: { type: 'text', text: 'Hola', reaction: '😂' } })} onChange={onChange} />);
    openMenu();
    expect(screen.getByRole('menuitemradio', { name: 'Reaccionar con 😂' }).getAttribute('aria-checked')).toBe('true');
    fireEvent.click(screen.getByRole('menuitem', { name: 'Quitar reacción' }));
    expect(onChange).toHaveBeenCalledWith({ kind: 'reaction', messageId: 'g-1', emoji: null });
  });

  it('edits its own text in place: Guardar sends the new text, Cancelar leaves it as it was', () => {
    const onChange = vi.fn();
    render(<PhoneMessageBubble message={ownText()} onChange={onChange} ownMessage />);
    openMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Editar' }));
    const editor = screen.getByLabelText('Editar mensaje') as HTMLTextAreaElement;
    expect(editor.value).toBe('Hola');
    expect(screen.getByRole('button', { name: 'Guardar' })).toHaveProperty('disabled', true);
    fireEvent.change(editor, { target: { value: 'Hola de nuevo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByLabelText('Editar mensaje')).toBeNull();
    expect(screen.getByText('Hola')).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();

    openMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Editar' }));
    fireEvent.change(screen.getByLabelText('Editar mensaje'), { target: { value: '  Hola, buenas tardes ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(onChange).toHaveBeenCalledWith({ kind: 'edit', messageId: 'wamid.c1', text: 'Hola, buenas tardes' });
    expect(screen.queryByLabelText('Editar mensaje')).toBeNull();
  });

  it('deletes its own message for everyone; only texts can be edited', () => {
    const onChange = vi.fn();
    render(
      <PhoneMessageBubble
        message={ownText({ type: 'location', body: { latitude: '19.4', longitude: '-99.1', name: 'Bodega' } })}
        onChange={onChange}
        ownMessage
      />,
    );
    openMenu();
    expect(screen.queryByRole('menuitem', { name: 'Editar' })).toBeNull();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Eliminar para todos' }));
    expect(onChange).toHaveBeenCalledWith({ kind: 'delete', messageId: 'wamid.c1' });
  });

  it('closes the menu with Escape or a click elsewhere', () => {
    render(<PhoneMessageBubble message={aMessage({})} onChange={noop} />);
    openMenu();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    openMenu();
    fireEvent.mouseDown(document.body);
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
