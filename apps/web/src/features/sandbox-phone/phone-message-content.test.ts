import { describe, expect, it } from 'vitest';
import { phoneMessageContent, sameOriginMediaUrl } from './phone-message-content.ts';

const toCustomer = (type: string, body: Record<string, unknown>) => phoneMessageContent({ direction: 'to_customer', type, body });
const fromCustomer = (type: string, body: Record<string, unknown>) => phoneMessageContent({ direction: 'from_customer', type, body });

describe('phoneMessageContent', () => {
  it("reads the business's Gupshup messages", () => {
    expect(toCustomer('text', { type: 'text', text: 'Hola', previewUrl: false })).toEqual({ kind: 'text', text: 'Hola' });
    expect(toCustomer('image', { type: 'image', originalUrl: 'https://cdn.test/a.jpg', caption: 'Foto' })).toEqual({
      kind: 'image',
      url: 'https://cdn.test/a.jpg',
      caption: 'Foto',
    });
    expect(toCustomer('file', { type: 'file', url: 'https://cdn.test/c.pdf', filename: 'cotizacion.pdf' })).toMatchObject({
      kind: 'document',
      fileName: 'cotizacion.pdf',
    });
    expect(toCustomer('audio', { type: 'audio', url: 'https://cdn.test/a.ogg' })).toEqual({ kind: 'audio', url: 'https://cdn.test/a.ogg', voice: false });
  });

  it('reads a template with its params and header media', () => {
    expect(
      toCustomer('template', { template: { id: 'tpl-1', params: ['Ana', 3] }, message: { type: 'image', image: { link: 'https://cdn.test/h.png' } } }),
    ).toEqual({
      kind: 'template',
      templateId: 'tpl-1',
      params: ['Ana', '3'],
      media: { type: 'image', url: 'https://cdn.test/h.png' },
    });
  });

  it('keeps the msgid and postback texts of interactive messages', () => {
    expect(
      toCustomer('quick_reply', {
        type: 'quick_reply',
        msgid: 'qr-1',
        content: { type: 'text', header: '¿Te ayudo?', text: 'Elige', caption: 'Pie' },
        options: [{ type: 'text', title: 'Sí', postbackText: 'si' }, { title: '' }],
      }),
    ).toEqual({
      kind: 'quick_reply',
      msgId: 'qr-1',
      header: '¿Te ayudo?',
      text: 'Elige',
      footer: 'Pie',
      mediaUrl: undefined,
      options: [{ title: 'Sí', description: undefined, postbackText: 'si' }],
    });
    expect(
      toCustomer('list', {
        type: 'list',
        title: 'Menú',
        body: 'Elige un producto',
        msgid: 'list-1',
        globalButtons: [{ type: 'text', title: 'Ver productos' }],
        items: [{ title: 'Todo', options: [{ title: 'Tornillos', description: 'Caja de 100', postbackText: 'p-1' }] }],
      }),
    ).toMatchObject({
      kind: 'list',
      msgId: 'list-1',
      buttonTitle: 'Ver productos',
      sections: [{ title: 'Todo', options: [{ title: 'Tornillos', description: 'Caja de 100', postbackText: 'p-1' }] }],
    });
  });

  it("reads the customer's inbound payloads", () => {
    expect(fromCustomer('text', { text: 'Buenas' })).toEqual({ kind: 'text', text: 'Buenas' });
    expect(fromCustomer('audio', { url: 'https://cdn.test/v.ogg', contentType: 'audio/ogg; codecs=opus' })).toMatchObject({ kind: 'audio', voice: true });
    expect(fromCustomer('file', { url: 'https://cdn.test/f.pdf', contentType: 'application/pdf', name: 'f.pdf' })).toMatchObject({
      kind: 'document',
      fileName: 'f.pdf',
    });
    expect(fromCustomer('location', { latitude: '19.4', longitude: '-99.1', name: 'Zócalo' })).toMatchObject({
      kind: 'location',
      latitude: '19.4',
      name: 'Zócalo',
    });
    expect(fromCustomer('button_reply', { title: 'Sí', id: 'qr-1', reply: 'Sí 1' })).toEqual({ kind: 'reply', title: 'Sí', description: undefined });
  });

  it('names what it cannot show', () => {
    expect(toCustomer('contact', { type: 'contact' })).toEqual({ kind: 'unknown', type: 'contact' });
    expect(toCustomer('image', { type: 'image' })).toEqual({ kind: 'unknown', type: 'image' });
  });
});

describe('sameOriginMediaUrl', () => {
  it("turns the server's own addresses into paths and leaves other hosts alone", () => {
    expect(sameOriginMediaUrl('http://127.0.0.1:3000/sandbox-gupshup/files/abc')).toBe('/sandbox-gupshup/files/abc');
    expect(sameOriginMediaUrl('https://embudo.example.com/media/t1/a.jpg?v=1')).toBe('/media/t1/a.jpg?v=1');
    expect(sameOriginMediaUrl('https://cdn.test/a.jpg')).toBe('https://cdn.test/a.jpg');
  });
});
