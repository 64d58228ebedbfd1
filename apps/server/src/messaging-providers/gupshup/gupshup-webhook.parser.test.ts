import { describe, expect, it } from 'vitest';
import { MalformedDelivery } from '../provider.ts';
import { MAX_PROVIDER_ID, parseGupshupWebhook, TRUNCATED_NOTE } from './gupshup-webhook.parser.ts';

const envelope = (type: string, payload: Record<string, unknown>) => ({ app: 'LojaDemo', timestamp: 1718007189549, version: 2, type, payload });
const inbound = (type: string, inner: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  envelope('message', { id: 'wamid.IN1', source: '5511999990000', type, payload: inner, sender: { phone: '5511999990000', name: 'Maria' }, ...extra });

describe('Gupshup v2 inbound messages', () => {
  it('parses text with sender, timestamp in ms and the quoted message context', () => {
    const [event] = parseGupshupWebhook(inbound('text', { text: 'Oi' }, { context: { id: 'wamid.Q', gsId: 'gs-q' } }));
    expect(event).toMatchObject({
      kind: 'message',
      providerMessageId: 'wamid.IN1',
      from: '5511999990000',
      senderName: 'Maria',
      type: 'text',
      text: 'Oi',
      quoted: { whatsappMessageId: 'wamid.Q', providerMessageId: 'gs-q' },
    });
    expect(event?.kind === 'message' && event.timestamp.getTime()).toBe(1718007189549);
  });

  it.each(['image', 'video', 'audio', 'sticker'] as const)('parses %s media with url, content type and caption', (type) => {
    const [event] = parseGupshupWebhook(inbound(type, { url: 'https://filemanager.gupshup.io/x', contentType: 'image/jpeg', caption: 'Foto', urlExpiry: 1 }));
    expect(event).toMatchObject({ type, text: 'Foto', media: { ref: 'https://filemanager.gupshup.io/x', contentType: 'image/jpeg' } });
  });

  it('parses a voice note (audio with opus) and a document (file) with its name, accepting content-type too', () => {
    expect(parseGupshupWebhook(inbound('audio', { url: 'u', contentType: 'audio/ogg; codecs=opus' }))[0]).toMatchObject({
      type: 'audio',
      media: { contentType: 'audio/ogg; codecs=opus' },
    });
    expect(parseGupshupWebhook(inbound('file', { url: 'u', name: 'boleto.pdf', 'content-type': 'application/pdf' }))[0]).toMatchObject({
      type: 'document',
      media: { ref: 'u', fileName: 'boleto.pdf', contentType: 'application/pdf' },
    });
  });

  it('parses a location given as strings, with optional name and address', () => {
    expect(parseGupshupWebhook(inbound('location', { latitude: '19.1453658', longitude: '72.8552172', name: 'Tienda' }))[0]).toMatchObject({
      type: 'location',
      location: { latitude: 19.1453658, longitude: 72.8552172, name: 'Tienda' },
    });
  });

  it('parses both documented button-reply shapes and list replies', () => {
    expect(parseGupshupWebhook(inbound('button_reply', { title: 'Sim', id: 'qr-1', reply: 'Sim 1', postbackText: 'yes' }))[0]).toMatchObject({
      type: 'button_reply',
      text: 'Sim',
      reply: { id: 'qr-1', title: 'Sim', postbackText: 'yes' },
    });
    expect(parseGupshupWebhook(inbound('quick_reply', { text: 'Quero', type: 'button', postbackText: 'want' }))[0]).toMatchObject({
      type: 'button_reply',
      text: 'Quero',
      reply: { title: 'Quero', postbackText: 'want' },
    });
    expect(parseGupshupWebhook(inbound('quick_reply', { title: 'Não', id: 'qr-1', reply: 'Não 2' }))[0]).toMatchObject({ type: 'button_reply', text: 'Não' });
    expect(
      parseGupshupWebhook(inbound('list_reply', { title: 'Novo pedido', id: 'menu', reply: 'Novo pedido 1', postbackText: 'sales_new' }))[0],
    ).toMatchObject({ type: 'list_reply', text: 'Novo pedido', reply: { postbackText: 'sales_new' } });
  });

  it('keeps unknown types as unsupported instead of dropping them', () => {
    const [event] = parseGupshupWebhook(inbound('reaction', { emoji: '👍' }));
    expect(event).toMatchObject({ kind: 'message', type: 'unsupported', providerMessageId: 'wamid.IN1' });
  });

  it('reads the group extension: the chat is the group, the sender is the participant', () => {
    const [event] = parseGupshupWebhook(
      inbound(
        'text',
        { text: 'Hola grupo' },
        { source: '120363000', group: { id: '120363000', name: 'Familia' }, sender: { phone: '5215500000001', name: 'Tío' } },
      ),
    );
    expect(event).toMatchObject({ group: { id: '120363000', name: 'Familia' }, from: '5215500000001', senderName: 'Tío' });
  });
});

describe('Gupshup v2 message events', () => {
  it('reads enqueued and failed with our id in `id`', () => {
    expect(
      parseGupshupWebhook(
        envelope('message-event', { id: 'gs-1', type: 'enqueued', destination: '55', payload: { whatsappMessageId: 'wamid.1', type: 'session' } }),
      )[0],
    ).toEqual({
      kind: 'status',
      status: 'enqueued',
      providerMessageId: 'gs-1',
      whatsappMessageId: 'wamid.1',
      timestamp: new Date(1718007189549),
    });
    expect(
      parseGupshupWebhook(
        envelope('message-event', { id: 'gs-1', type: 'failed', destination: '55', payload: { code: 1002, reason: 'Number Does Not Exists On WhatsApp' } }),
      )[0],
    ).toMatchObject({
      status: 'failed',
      providerMessageId: 'gs-1',
      failure: { code: '1002', kind: 'not_on_whatsapp', reason: 'El cliente no tiene WhatsApp: confirma su número por otra vía' },
    });
  });

  // Gupshup's own reason is English: the code alone decides what people read (gupshup-errors).
  it.each([
    [4005, 'Template paused', { kind: 'template_paused', reason: 'Plantilla pausada por Meta por baja calidad: edítala o usa otra plantilla' }],
    [
      1006,
      'User outside session and not opted in',
      { kind: 'window_closed', reason: 'Ventana de 24 horas cerrada y el cliente no aceptó recibir plantillas: pide su permiso antes de escribirle' },
    ],
    [4001, 'API rate limited', { kind: 'rate_limited', reason: 'Límite de envíos de Gupshup alcanzado: se reintentará' }],
    [131047, 'Re-engagement message', { kind: 'window_closed', reason: 'Ventana de 24 horas cerrada: usa una plantilla' }],
    [9999, 'Something new', { kind: 'other', reason: 'Gupshup rechazó el mensaje (código 9999): vuelve a intentarlo y, si se repite, avisa a soporte' }],
  ])('maps the failed code %s to a reason people can act on, keeping the code', (code, reason, expected) => {
    const [event] = parseGupshupWebhook(envelope('message-event', { id: 'gs-2', type: 'failed', destination: '55', payload: { code, reason } }));
    expect(event).toMatchObject({ failure: { code: String(code), ...expected } });
  });

  it("reads a template-event in Gupshup's fields or Meta's (its payload is unconfirmed)", () => {
    expect(
      parseGupshupWebhook(envelope('template-event', { id: 'tpl-1', elementName: 'promo', languageCode: 'es', status: 'REJECTED', reason: 'Abusive content' })),
    ).toEqual([
      {
        kind: 'template-status',
        providerTemplateId: 'tpl-1',
        name: 'promo',
        languageCode: 'es',
        status: 'REJECTED',
        reason: 'Abusive content',
        timestamp: new Date(1718007189549),
      },
    ]);
    expect(
      parseGupshupWebhook(
        envelope('template-event', { message_template_name: 'promo', message_template_language: 'es', event: 'APPROVED', reason: 'NONE' }),
      )[0],
    ).toMatchObject({ kind: 'template-status', name: 'promo', status: 'APPROVED', reason: null });
    expect(parseGupshupWebhook(envelope('template-event', { status: 'APPROVED' }))).toEqual([]);
  });

  it.each(['sent', 'delivered', 'read'] as const)('reads %s with our id in `gsId` and the WhatsApp id in `id`, ts in seconds', (status) => {
    expect(
      parseGupshupWebhook(envelope('message-event', { id: 'wamid.1', gsId: 'gs-1', type: status, destination: '55', payload: { ts: 1718007199 } }))[0],
    ).toEqual({ kind: 'status', status, providerMessageId: 'gs-1', whatsappMessageId: 'wamid.1', timestamp: new Date(1718007199000) });
  });

  it('reads opt-outs and deletions, and ignores event kinds we do not use', () => {
    expect(parseGupshupWebhook(envelope('user-event', { phone: '5511999990000', type: 'opted-out' }))).toMatchObject([
      { kind: 'marketing-preference', from: '5511999990000', optedOut: true },
    ]);
    expect(parseGupshupWebhook(envelope('user-event', { phone: '55', type: 'sandbox-start' }))).toEqual([]);
    expect(parseGupshupWebhook(envelope('billing-event', {}))).toEqual([]);
    expect(parseGupshupWebhook(envelope('message-event', { id: 'wamid.x', type: 'deleted', destination: '5511999990000' }))).toMatchObject([
      { kind: 'revoke', from: '5511999990000', target: { whatsappMessageId: 'wamid.x' } },
    ]);
  });

  it('calls garbage malformed, naming what is wrong', () => {
    expect(() => parseGupshupWebhook(null)).toThrow(new MalformedDelivery('El cuerpo no es un objeto JSON.'));
    expect(() => parseGupshupWebhook('text')).toThrow(MalformedDelivery);
    expect(() => parseGupshupWebhook({ payload: {} })).toThrow(new MalformedDelivery('El cuerpo no dice su tipo (type) ni es del formato de Meta (object).'));
    expect(() => parseGupshupWebhook({ type: 'message', payload: 'x' })).toThrow(new MalformedDelivery('Un message sin payload.'));
    expect(() => parseGupshupWebhook(envelope('message', { type: 'text' }))).toThrow(new MalformedDelivery('Mensaje sin payload.id.'));
    expect(() => parseGupshupWebhook(envelope('message', { id: 'wamid.1', type: 'text' }))).toThrow(MalformedDelivery);
  });
});

describe('Gupshup v2 deliveries with hostile values', () => {
  const receivedAt = new Date('2030-05-01T10:00:00Z');
  const withEnvelope = (extra: Record<string, unknown>, payload: Record<string, unknown> = {}) => ({ ...inbound('text', { text: 'Hola' }, payload), ...extra });

  it('refuses ids and phones longer than a sane cap, or with NUL bytes, as malformed', () => {
    expect(() => parseGupshupWebhook(withEnvelope({}, { id: 'w'.repeat(MAX_PROVIDER_ID + 1) }))).toThrow(
      new MalformedDelivery(`payload.id demasiado largo (${MAX_PROVIDER_ID + 1} caracteres, máximo ${MAX_PROVIDER_ID}).`),
    );
    expect(() => parseGupshupWebhook(withEnvelope({}, { source: '5'.repeat(1024 * 1024) }))).toThrow(MalformedDelivery);
    expect(() => parseGupshupWebhook(withEnvelope({}, { id: 'wamid.\u0000' }))).toThrow(new MalformedDelivery('payload.id con caracteres no permitidos.'));
    expect(() => parseGupshupWebhook(envelope('message-event', { id: 'wamid.1', gsId: 'g'.repeat(5000), type: 'read', payload: { ts: 1 } }))).toThrow(
      MalformedDelivery,
    );
  });

  it('keeps a text with NUL bytes and lone surrogates, without them, and a sender name the same way', () => {
    const [event] = parseGupshupWebhook(
      inbound('text', { text: 'Ho\u0000la \uD800mundo 😀' }, { sender: { phone: '5511999990000', name: 'Ma\u0000ría\uDC00' } }),
    );
    expect(event).toMatchObject({ type: 'text', text: 'Hola mundo 😀', senderName: 'María' });
  });

  it('cuts a text past 4,096 characters and says so', () => {
    const [event] = parseGupshupWebhook(inbound('text', { text: 'a'.repeat(10_000) }));
    expect(event?.kind === 'message' && event.text).toBe(`${'a'.repeat(4096)}${TRUNCATED_NOTE}`);
  });

  it.each([1e20, -1, 'NaN', 2 ** 63, '1e400', 0, 915148800000])('falls back to the receive time for the timestamp %s', (timestamp) => {
    const [event] = parseGupshupWebhook(withEnvelope({ timestamp }), receivedAt);
    expect(event?.timestamp).toEqual(receivedAt);
  });

  it('keeps a timestamp in range, in seconds or milliseconds', () => {
    expect(parseGupshupWebhook(withEnvelope({ timestamp: 1_900_000_000_000 }), receivedAt)[0]?.timestamp).toEqual(new Date(1_900_000_000_000));
    expect(parseGupshupWebhook(envelope('message-event', { id: 'w', gsId: 'g', type: 'read', payload: { ts: 1e20 } }), receivedAt)[0]?.timestamp).toEqual(
      receivedAt,
    );
  });

  it('keeps an unknown type as unsupported with its raw delivery cleaned for storage', () => {
    const [event] = parseGupshupWebhook(inbound('reaction', { 'em\u0000oji': '👍\uD800' }));
    expect(event).toMatchObject({ type: 'unsupported', raw: { payload: { payload: { emoji: '👍' } } } });
  });
});
