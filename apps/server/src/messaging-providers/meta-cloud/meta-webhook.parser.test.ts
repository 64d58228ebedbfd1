import { describe, expect, it } from 'vitest';
import { MalformedDelivery } from '../provider.ts';
import { MAX_PROVIDER_ID, TRUNCATED_NOTE } from '../delivery-values.ts';
import { parseMetaWebhook } from './meta-webhook.parser.ts';

const NUMBER = '109876543210987';
const messagesChange = (value: Record<string, unknown>, phoneNumberId = NUMBER) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '204567890123456',
      changes: [
        {
          field: 'messages',
          value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '5511888880000', phone_number_id: phoneNumberId }, ...value },
        },
      ],
    },
  ],
});
const inbound = (message: Record<string, unknown>, name = 'Maria') =>
  messagesChange({
    contacts: [{ profile: { name }, wa_id: '5511999990000' }],
    messages: [{ from: '5511999990000', id: 'wamid.IN1', timestamp: '1718007189', ...message }],
  });
const parse = (body: unknown) => parseMetaWebhook(body, new Date('2030-05-01T10:00:00Z'), NUMBER);

describe('Meta inbound messages (meta-cloud.md §3.4)', () => {
  it('reads a text with the profile name, the timestamp in seconds and the quoted message', () => {
    const [event] = parse(inbound({ type: 'text', text: { body: 'Oi' }, context: { from: '5511888880000', id: 'wamid.Q' } }));
    expect(event).toEqual({
      kind: 'message',
      providerMessageId: 'wamid.IN1',
      from: '5511999990000',
      senderName: 'Maria',
      type: 'text',
      text: 'Oi',
      timestamp: new Date(1718007189000),
      quoted: { whatsappMessageId: 'wamid.Q', providerMessageId: 'wamid.Q' },
      raw: expect.any(Object) as unknown,
    });
  });

  it.each(['image', 'video', 'audio', 'sticker'] as const)('reads %s as a media id with its type and caption', (type) => {
    const [event] = parse(inbound({ type, [type]: { id: '1013859600285441', mime_type: 'image/jpeg', sha256: 'x', caption: 'Foto' } }));
    expect(event).toMatchObject({ type, text: 'Foto', media: { ref: '1013859600285441', contentType: 'image/jpeg' } });
  });

  it('reads a document with its file name, a location, contacts and a voice note', () => {
    expect(parse(inbound({ type: 'document', document: { id: '77', mime_type: 'application/pdf', filename: 'boleto.pdf' } }))[0]).toMatchObject({
      type: 'document',
      media: { ref: '77', contentType: 'application/pdf', fileName: 'boleto.pdf' },
    });
    expect(parse(inbound({ type: 'location', location: { latitude: -23.5, longitude: -46.6, name: 'Loja' } }))[0]).toMatchObject({
      type: 'location',
      location: { latitude: -23.5, longitude: -46.6, name: 'Loja' },
    });
    expect(parse(inbound({ type: 'contacts', contacts: [{ name: { formatted_name: 'Suporte' }, phones: [{ phone: '+5511888880000' }] }] }))[0]).toMatchObject({
      type: 'contact',
      text: 'Suporte +5511888880000',
    });
    expect(parse(inbound({ type: 'audio', audio: { id: '88', mime_type: 'audio/ogg; codecs=opus', voice: true } }))[0]).toMatchObject({
      type: 'audio',
      media: { ref: '88', contentType: 'audio/ogg; codecs=opus' },
    });
  });

  it('reads taps: a template quick-reply button, a reply button and a list row (their ids are our postbacks)', () => {
    expect(parse(inbound({ type: 'button', button: { payload: 'confirm_1042', text: 'Sim' } }))[0]).toMatchObject({
      type: 'button_reply',
      text: 'Sim',
      reply: { title: 'Sim', postbackText: 'confirm_1042' },
    });
    expect(parse(inbound({ type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: '1', title: 'Ventas' } } }))[0]).toMatchObject({
      type: 'button_reply',
      text: 'Ventas',
      reply: { id: '1', title: 'Ventas', postbackText: '1' },
    });
    expect(
      parse(inbound({ type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'sales_new', title: 'Novo pedido', description: 'x' } } }))[0],
    ).toMatchObject({ type: 'list_reply', text: 'Novo pedido', reply: { postbackText: 'sales_new' } });
  });

  it('reads reactions as changes of the message they name, keeps unknown types as unsupported, and leaves out other numbers of the same app', () => {
    expect(parse(inbound({ type: 'reaction', reaction: { message_id: 'wamid.X', emoji: '👍' } }))[0]).toMatchObject({
      kind: 'reaction',
      target: { whatsappMessageId: 'wamid.X' },
      emoji: '👍',
    });
    expect(parse(inbound({ type: 'reaction', reaction: { message_id: 'wamid.X' } }))[0]).toMatchObject({ kind: 'reaction', emoji: null });
    expect(parse(inbound({ type: 'unsupported', errors: [{ code: 131051 }] }))[0]).toMatchObject({ type: 'unsupported' });
    const other = messagesChange({ messages: [{ from: '55', id: 'wamid.OTHER', timestamp: '1', type: 'text', text: { body: 'x' } }] }, '999');
    expect(parse(other)).toEqual([]);
  });
});

describe('Meta statuses (§3.5)', () => {
  const status = (value: Record<string, unknown>) =>
    messagesChange({ statuses: [{ id: 'wamid.OUT1', timestamp: '1718007199', recipient_id: '55', ...value }] });

  it.each(['sent', 'delivered', 'read'] as const)('reads %s with the wamid as our id', (state) => {
    expect(parse(status({ status: state }))).toEqual([
      { kind: 'status', status: state, providerMessageId: 'wamid.OUT1', whatsappMessageId: 'wamid.OUT1', timestamp: new Date(1718007199000) },
    ]);
  });

  it('reads a played voice note as read, and a failure with its errors[] as a reason people can act on', () => {
    expect(parse(status({ status: 'played' }))[0]).toMatchObject({ status: 'read' });
    expect(parse(status({ status: 'failed', errors: [{ code: 131026, title: 'Message undeliverable', error_data: { details: 'x' } }] }))[0]).toMatchObject({
      status: 'failed',
      failure: {
        code: '131026',
        kind: 'not_on_whatsapp',
        reason: 'WhatsApp no pudo entregarlo: el número no tiene WhatsApp, o el cliente debe actualizar la app o aceptar sus términos',
      },
    });
    expect(parse(status({ status: 'failed', errors: [{ code: 131047, title: 'Re-engagement message' }] }))[0]).toMatchObject({
      failure: { code: '131047', reason: 'Ventana de 24 horas cerrada: usa una plantilla' },
    });
    expect(
      parse(status({ status: 'failed', errors: [{ code: 135000, title: 'Generic user error', error_data: { details: 'Algo nuevo' } }] }))[0],
    ).toMatchObject({
      // Meta's details (English) never become the reason: the code's reason does.
      failure: {
        code: '135000',
        kind: 'invalid_request',
        reason: 'WhatsApp no entendió los datos del mensaje: revisa su contenido y vuelve a enviarlo; si se repite, avisa a soporte',
      },
    });
    expect(
      parse(status({ status: 'failed', errors: [{ code: 139999, title: 'Something new', error_data: { details: 'Something new happened' } }] }))[0],
    ).toMatchObject({
      failure: { code: '139999', kind: 'other', reason: 'WhatsApp rechazó el mensaje (código 139999): vuelve a intentarlo y, si se repite, avisa a soporte' },
    });
    expect(parse(status({ status: 'failed' }))[0]).toMatchObject({ failure: { code: null, kind: 'other' } });
    expect(parse(status({ status: 'deleted' }))).toEqual([]);
  });
});

describe('message_template_status_update (§4.6)', () => {
  const update = (value: Record<string, unknown>) => ({
    object: 'whatsapp_business_account',
    entry: [{ id: '204567890123456', time: 1718007300, changes: [{ field: 'message_template_status_update', value }] }],
  });

  it('reads approvals, rejections with their reason, pauses, and flags as still sendable', () => {
    const base = { message_template_id: 1234567890, message_template_name: 'pedido_enviado', message_template_language: 'pt_BR' };
    expect(parse(update({ ...base, event: 'APPROVED', reason: 'NONE' }))).toEqual([
      {
        kind: 'template-status',
        providerTemplateId: '1234567890',
        name: 'pedido_enviado',
        languageCode: 'pt_BR',
        status: 'APPROVED',
        reason: null,
        timestamp: new Date(1718007300000),
      },
    ]);
    expect(parse(update({ ...base, event: 'REJECTED', reason: 'INVALID_FORMAT' }))[0]).toMatchObject({ status: 'REJECTED', reason: 'INVALID_FORMAT' });
    expect(parse(update({ ...base, event: 'PAUSED', reason: 'NONE', other_info: { title: 'Pausa', description: 'Calidad baja' } }))[0]).toMatchObject({
      status: 'PAUSED',
      reason: 'Calidad baja',
    });
    expect(parse(update({ ...base, event: 'DISABLED' }))[0]).toMatchObject({ status: 'FAILED' });
    expect(parse(update({ ...base, event: 'FLAGGED' }))[0]).toMatchObject({ status: 'APPROVED' });
  });
});

describe('Meta deliveries with hostile values', () => {
  it('calls garbage malformed and ignores other subscriptions', () => {
    expect(() => parse(null)).toThrow(new MalformedDelivery('El cuerpo no es un objeto JSON.'));
    expect(() => parse({ object: 'whatsapp_business_account' })).toThrow(new MalformedDelivery('La entrega no trae entry[].'));
    expect(parse({ object: 'page', entry: [] })).toEqual([]);
    expect(() => parse(inbound({ id: undefined, type: 'text', text: { body: 'x' } }))).toThrow(new MalformedDelivery('Mensaje sin messages[].id.'));
    expect(() => parse(inbound({ id: 'w'.repeat(MAX_PROVIDER_ID + 1), type: 'text', text: { body: 'x' } }))).toThrow(MalformedDelivery);
    expect(() => parse(inbound({ id: 'wamid.\u0000', type: 'text', text: { body: 'x' } }))).toThrow(MalformedDelivery);
  });

  it('cleans and cuts texts, and takes the receive time for absurd timestamps', () => {
    const [event] = parse(inbound({ type: 'text', text: { body: `Ho\u0000la ${'a'.repeat(5000)}` }, timestamp: '99999999999999' }, 'Ma\u0000ría\uD800'));
    expect(event).toMatchObject({ senderName: 'María', timestamp: new Date('2030-05-01T10:00:00Z') });
    expect(event?.kind === 'message' && event.text?.endsWith(TRUNCATED_NOTE)).toBe(true);
    expect(event?.kind === 'message' && event.text?.startsWith('Hola ')).toBe(true);
  });
});
