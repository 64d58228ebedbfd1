import type { DeliveryStatus, InboundEvent, InboundMessage, InboundMessageType } from '../provider.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : typeof value === 'number' ? String(value) : undefined);

const statusTypes = new Set<DeliveryStatus>(['enqueued', 'sent', 'delivered', 'read', 'failed']);

/** Gupshup timestamps come in ms (envelope) or s (`payload.ts`); anything below 1e12 is seconds. */
function toDate(value: unknown, fallback: Date): Date {
  const number = typeof value === 'string' ? Number(value) : typeof value === 'number' ? value : NaN;
  if (!Number.isFinite(number) || number <= 0) return fallback;
  return new Date(number < 1e12 ? number * 1000 : number);
}

function media(inner: Json) {
  const url = str(inner.url);
  return url ? { url, contentType: str(inner.contentType) ?? str(inner['content-type']), fileName: str(inner.name) ?? str(inner.filename) } : undefined;
}

function parseMessage(envelope: Json, payload: Json): InboundMessage | undefined {
  const providerMessageId = str(payload.id);
  const sender = isObject(payload.sender) ? payload.sender : {};
  const from = str(payload.source) ?? str(sender.phone);
  if (!providerMessageId || !from) return undefined;
  const inner = isObject(payload.payload) ? payload.payload : {};
  const rawType = str(payload.type) ?? 'unknown';
  const context = isObject(payload.context) ? payload.context : undefined;
  const group = isObject(payload.group) && str(payload.group.id) ? { id: str(payload.group.id)!, name: str(payload.group.name) } : undefined;

  const base = {
    kind: 'message' as const,
    providerMessageId,
    from: group ? str(sender.phone) ?? from : from,
    senderName: str(sender.name),
    timestamp: toDate(envelope.timestamp, new Date()),
    quoted: context ? { whatsappMessageId: str(context.id), providerMessageId: str(context.gsId) } : undefined,
    group,
    raw: envelope,
  };
  const typed = (type: InboundMessageType, extra: Partial<InboundMessage> = {}): InboundMessage => ({ ...base, type, ...extra });

  switch (rawType) {
    case 'text':
      return typed('text', { text: str(inner.text) ?? '' });
    case 'image':
    case 'video':
    case 'audio':
    case 'sticker':
      return typed(rawType, { text: str(inner.caption), media: media(inner) });
    case 'file':
    case 'document':
      return typed('document', { text: str(inner.caption), media: media(inner) });
    case 'location': {
      const latitude = Number(inner.latitude);
      const longitude = Number(inner.longitude);
      if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return typed('unsupported');
      return typed('location', { location: { latitude, longitude, name: str(inner.name), address: str(inner.address) } });
    }
    case 'quick_reply':
    case 'button_reply': {
      // Two documented shapes: template button taps {text, type:'button'} and session replies {title, id, reply}.
      const title = str(inner.title) ?? str(inner.text) ?? str(inner.reply) ?? '';
      return typed('button_reply', { text: title, reply: { id: str(inner.id), title, postbackText: str(inner.postbackText) } });
    }
    case 'list_reply': {
      const title = str(inner.title) ?? str(inner.reply) ?? '';
      return typed('list_reply', { text: title, reply: { id: str(inner.id), title, postbackText: str(inner.postbackText) } });
    }
    case 'contact':
      return typed('contact', { text: contactSummary(inner) });
    default:
      return typed('unsupported');
  }
}

function contactSummary(inner: Json): string {
  const list = Array.isArray(inner.contacts) ? inner.contacts.filter(isObject) : [];
  return list
    .map((contact) => {
      const name = isObject(contact.name) ? str(contact.name.formatted_name) ?? str(contact.name.first_name) : undefined;
      const phones = Array.isArray(contact.phones) ? contact.phones.filter(isObject).map((p) => str(p.phone)).filter(Boolean) : [];
      return [name, ...phones].filter(Boolean).join(' ');
    })
    .join(', ');
}

function parseStatus(envelope: Json, payload: Json): InboundEvent | undefined {
  const status = str(payload.type) as DeliveryStatus | undefined;
  if (!status || !statusTypes.has(status)) return undefined;
  const inner = isObject(payload.payload) ? payload.payload : {};
  const timestamp = toDate(inner.ts ?? envelope.timestamp, new Date());
  // enqueued/failed carry our (Gupshup) id as `id`; sent/delivered/read carry it as `gsId` beside the WhatsApp id.
  if (status === 'enqueued' || status === 'failed') {
    return {
      kind: 'status', status, timestamp, providerMessageId: str(payload.id), whatsappMessageId: str(inner.whatsappMessageId),
      reason: status === 'failed' ? [str(inner.code), str(inner.reason)].filter(Boolean).join(' ') || 'Error del proveedor' : undefined,
    };
  }
  return { kind: 'status', status, timestamp, providerMessageId: str(payload.gsId), whatsappMessageId: str(payload.id) };
}

/** Parses one Gupshup v2 callback into zero or more events; unknown callback kinds yield none. */
export function parseGupshupWebhook(body: unknown): InboundEvent[] {
  if (!isObject(body) || !isObject(body.payload)) return [];
  const event = body.type === 'message' ? parseMessage(body, body.payload) : body.type === 'message-event' ? parseStatus(body, body.payload) : undefined;
  return event ? [event] : [];
}
