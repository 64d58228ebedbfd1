import { TEXT_LIMITS, withoutForbiddenCharacters } from '@embudo/contracts/text';
import { MalformedDelivery, type DeliveryStatus, type InboundEvent, type InboundMessage, type InboundMessageType } from '../provider.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : typeof value === 'number' ? String(value) : undefined;

const statusTypes = new Set<DeliveryStatus>(['enqueued', 'sent', 'delivered', 'read', 'failed']);

/** WhatsApp ids (`wamid.…`) and Gupshup ids are well under this; a longer one is not an id. */
export const MAX_PROVIDER_ID = 256;
/** Phones and group ids. */
export const MAX_PROVIDER_PHONE = 64;
/** Gupshup's signed media links are long, but not this long. */
const MAX_MEDIA_URL = 4096;
/** Names, captions' companions, content types, reasons: cut, not refused. */
const MAX_SHORT_TEXT = 500;

export const TRUNCATED_NOTE = `\n\n[Mensaje recortado: superaba los ${TEXT_LIMITS.message} caracteres de WhatsApp]`;

/**
 * An id or phone the provider sent: it is stored in indexed columns and matched on, so one that is too long or
 * carries bad characters makes the whole delivery malformed rather than being altered.
 */
function identifier(value: unknown, field: string, max: number): string | undefined {
  const text = str(value);
  if (text === undefined) return undefined;
  if (text.length > max) throw new MalformedDelivery(`${field} demasiado largo (${text.length} caracteres, máximo ${max}).`);
  if (withoutForbiddenCharacters(text) !== text) throw new MalformedDelivery(`${field} con caracteres no permitidos.`);
  return text;
}

/** A text we keep even when it is bad: without NUL bytes and lone surrogates, cut to `max`. */
function cleanText(value: unknown, max = MAX_SHORT_TEXT): string | undefined {
  const text = str(value);
  return text === undefined ? undefined : withoutForbiddenCharacters(withoutForbiddenCharacters(text).slice(0, max)) || undefined;
}

/** The customer's words: cleaned, and past WhatsApp's 4,096 characters cut with a note saying so. */
function messageText(value: unknown): string | undefined {
  const text = cleanText(value, Number.MAX_SAFE_INTEGER);
  if (text === undefined || text.length <= TEXT_LIMITS.message) return text;
  return `${withoutForbiddenCharacters(text.slice(0, TEXT_LIMITS.message))}${TRUNCATED_NOTE}`;
}

/** WhatsApp did not exist before 2009; a timestamp past tomorrow is a clock or a payload gone wrong. */
const EARLIEST_TIMESTAMP = Date.UTC(2009, 0, 1);
const LATEST_AHEAD_MS = 24 * 60 * 60 * 1000;

/** Gupshup timestamps come in ms (envelope) or s (`payload.ts`); anything below 1e12 is seconds. Out of range: the receive time. */
function toDate(value: unknown, receivedAt: Date): Date {
  const number = typeof value === 'string' ? Number(value) : typeof value === 'number' ? value : NaN;
  if (!Number.isFinite(number) || number <= 0) return receivedAt;
  const ms = number < 1e12 ? number * 1000 : number;
  return ms >= EARLIEST_TIMESTAMP && ms <= receivedAt.getTime() + LATEST_AHEAD_MS ? new Date(ms) : receivedAt;
}

function media(inner: Json) {
  const url = identifier(inner.url, 'La URL del archivo', MAX_MEDIA_URL);
  return url
    ? {
        url,
        contentType: cleanText(inner.contentType) ?? cleanText(inner['content-type']),
        fileName: cleanText(inner.name, TEXT_LIMITS.fileName) ?? cleanText(inner.filename, TEXT_LIMITS.fileName),
      }
    : undefined;
}

/** Strings and keys of the original delivery, cleaned so PostgreSQL's JSONB takes them (kept for unsupported types). */
function storableRaw(value: unknown): unknown {
  if (typeof value === 'string') return withoutForbiddenCharacters(value);
  if (Array.isArray(value)) return value.map(storableRaw);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [withoutForbiddenCharacters(key), storableRaw(inner)]));
  return value;
}

const coordinate = (value: unknown, limit: number) => {
  const number = Number(value);
  return Number.isFinite(number) && Math.abs(number) <= limit ? number : undefined;
};

function parseMessage(envelope: Json, payload: Json, receivedAt: Date): InboundMessage {
  const providerMessageId = identifier(payload.id, 'payload.id', MAX_PROVIDER_ID);
  const sender = isObject(payload.sender) ? payload.sender : {};
  const senderPhone = identifier(sender.phone, 'sender.phone', MAX_PROVIDER_PHONE);
  const from = identifier(payload.source, 'payload.source', MAX_PROVIDER_PHONE) ?? senderPhone;
  if (!providerMessageId) throw new MalformedDelivery('Mensaje sin payload.id.');
  if (!from) throw new MalformedDelivery('Mensaje sin remitente (payload.source o sender.phone).');
  const inner = isObject(payload.payload) ? payload.payload : {};
  const rawType = str(payload.type) ?? 'unknown';
  const context = isObject(payload.context) ? payload.context : undefined;
  const groupId = isObject(payload.group) ? identifier(payload.group.id, 'group.id', MAX_PROVIDER_PHONE) : undefined;
  const group = isObject(payload.group) && groupId ? { id: groupId, name: cleanText(payload.group.name) } : undefined;

  const base = {
    kind: 'message' as const,
    providerMessageId,
    from: group ? (senderPhone ?? from) : from,
    senderName: cleanText(sender.name),
    timestamp: toDate(envelope.timestamp, receivedAt),
    quoted: context
      ? {
          whatsappMessageId: identifier(context.id, 'context.id', MAX_PROVIDER_ID),
          providerMessageId: identifier(context.gsId, 'context.gsId', MAX_PROVIDER_ID),
        }
      : undefined,
    group,
    raw: envelope,
  };
  const typed = (type: InboundMessageType, extra: Partial<InboundMessage> = {}): InboundMessage => ({ ...base, type, ...extra });

  switch (rawType) {
    case 'text':
      return typed('text', { text: messageText(inner.text) ?? '' });
    case 'image':
    case 'video':
    case 'audio':
    case 'sticker':
      return typed(rawType, { text: messageText(inner.caption), media: media(inner) });
    case 'file':
    case 'document':
      return typed('document', { text: messageText(inner.caption), media: media(inner) });
    case 'location': {
      const latitude = coordinate(inner.latitude, 90);
      const longitude = coordinate(inner.longitude, 180);
      if (latitude === undefined || longitude === undefined) return typed('unsupported', { raw: storableRaw(envelope) });
      return typed('location', { location: { latitude, longitude, name: cleanText(inner.name), address: cleanText(inner.address) } });
    }
    case 'quick_reply':
    case 'button_reply': {
      // Two documented shapes: template button taps {text, type:'button'} and session replies {title, id, reply}.
      const title = cleanText(inner.title) ?? cleanText(inner.text) ?? cleanText(inner.reply) ?? '';
      return typed('button_reply', { text: title, reply: { id: cleanText(inner.id), title, postbackText: cleanText(inner.postbackText) } });
    }
    case 'list_reply': {
      const title = cleanText(inner.title) ?? cleanText(inner.reply) ?? '';
      return typed('list_reply', { text: title, reply: { id: cleanText(inner.id), title, postbackText: cleanText(inner.postbackText) } });
    }
    case 'contact':
      return typed('contact', { text: messageText(contactSummary(inner)) ?? '' });
    default:
      return typed('unsupported', { raw: storableRaw(envelope) });
  }
}

function contactSummary(inner: Json): string {
  const list = Array.isArray(inner.contacts) ? inner.contacts.filter(isObject) : [];
  return list
    .map((contact) => {
      const name = isObject(contact.name) ? (str(contact.name.formatted_name) ?? str(contact.name.first_name)) : undefined;
      const phones = Array.isArray(contact.phones)
        ? contact.phones
            .filter(isObject)
            .map((p) => str(p.phone))
            .filter(Boolean)
        : [];
      return [name, ...phones].filter(Boolean).join(' ');
    })
    .join(', ');
}

function parseStatus(envelope: Json, payload: Json, receivedAt: Date): InboundEvent | undefined {
  const status = str(payload.type) as DeliveryStatus | undefined;
  if (!status || !statusTypes.has(status)) return undefined;
  const inner = isObject(payload.payload) ? payload.payload : {};
  const timestamp = toDate(inner.ts ?? envelope.timestamp, receivedAt);
  // enqueued/failed carry our (Gupshup) id as `id`; sent/delivered/read carry it as `gsId` beside the WhatsApp id.
  if (status === 'enqueued' || status === 'failed') {
    return {
      kind: 'status',
      status,
      timestamp,
      providerMessageId: identifier(payload.id, 'payload.id', MAX_PROVIDER_ID),
      whatsappMessageId: identifier(inner.whatsappMessageId, 'payload.payload.whatsappMessageId', MAX_PROVIDER_ID),
      reason: status === 'failed' ? [cleanText(inner.code), cleanText(inner.reason)].filter(Boolean).join(' ') || 'Error del proveedor' : undefined,
    };
  }
  return {
    kind: 'status',
    status,
    timestamp,
    providerMessageId: identifier(payload.gsId, 'payload.gsId', MAX_PROVIDER_ID),
    whatsappMessageId: identifier(payload.id, 'payload.id', MAX_PROVIDER_ID),
  };
}

/**
 * Parses one Gupshup v2 callback into zero or more events. Kinds we do not use (user events, billing…) yield
 * none; a callback that is not an envelope, or a message or status we cannot trust, throws MalformedDelivery.
 */
export function parseGupshupWebhook(body: unknown, receivedAt = new Date()): InboundEvent[] {
  if (!isObject(body)) throw new MalformedDelivery('El cuerpo no es un objeto JSON.');
  if (typeof body.type !== 'string') throw new MalformedDelivery('El cuerpo no dice su tipo (type).');
  if (body.type !== 'message' && body.type !== 'message-event') return [];
  if (!isObject(body.payload)) throw new MalformedDelivery(`Un ${String(body.type)} sin payload.`);
  const event = body.type === 'message' ? parseMessage(body, body.payload, receivedAt) : parseStatus(body, body.payload, receivedAt);
  return event ? [event] : [];
}
