import { TEXT_LIMITS } from '@embudo/contracts/text';
import { MalformedDelivery, type DeliveryStatus, type InboundEvent, type InboundMessage, type InboundMessageType } from '../provider.ts';
import {
  cleanText,
  coordinate,
  identifier,
  isObject,
  MAX_MEDIA_URL,
  MAX_PROVIDER_ID,
  MAX_PROVIDER_PHONE,
  messageText,
  storableRaw,
  str,
  toDate,
  type Json,
} from '../delivery-values.ts';

export { MAX_PROVIDER_ID, TRUNCATED_NOTE } from '../delivery-values.ts';

const statusTypes = new Set<DeliveryStatus>(['enqueued', 'sent', 'delivered', 'read', 'failed']);

import { gupshupFailure } from './gupshup-errors.ts';
import { toTemplateStatus } from './gupshup-template.mapper.ts';

function media(inner: Json) {
  const url = identifier(inner.url, 'La URL del archivo', MAX_MEDIA_URL);
  return url
    ? {
        ref: url,
        contentType: cleanText(inner.contentType) ?? cleanText(inner['content-type']),
        fileName: cleanText(inner.name, TEXT_LIMITS.fileName) ?? cleanText(inner.filename, TEXT_LIMITS.fileName),
      }
    : undefined;
}

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
      ...(status === 'failed' ? { failure: gupshupFailure(cleanText(inner.code)) } : {}),
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
 * A `template-event` (gupshup.md §7: pushed on status changes; its payload is unconfirmed). Both plausible shapes
 * are read: Gupshup's partner fields (`id`/`gsTemplateId`, `elementName`, `languageCode`, `status`, `reason`) and
 * Meta's (`message_template_id`, `message_template_name`, `message_template_language`, `event`, `reason`).
 */
function parseTemplateEvent(envelope: Json, payload: Json, receivedAt: Date): InboundEvent | undefined {
  const status = str(payload.status) ?? str(payload.event);
  const providerTemplateId = identifier(payload.id ?? payload.gsTemplateId ?? payload.message_template_id, 'template id', MAX_PROVIDER_ID);
  const name = cleanText(payload.elementName ?? payload.message_template_name);
  if (!status || (!providerTemplateId && !name)) return undefined;
  const templateStatus = toTemplateStatus(status);
  const reason = cleanText(payload.reason ?? payload.rejectedReason);
  return {
    kind: 'template-status',
    providerTemplateId,
    name,
    languageCode: cleanText(payload.languageCode ?? payload.message_template_language),
    status: templateStatus,
    reason: templateStatus === 'REJECTED' || templateStatus === 'FAILED' || templateStatus === 'PAUSED' ? (reason && reason !== 'NONE' ? reason : null) : null,
    timestamp: toDate(envelope.timestamp, receivedAt),
  };
}

/**
 * Parses one Gupshup v2 callback into zero or more events. Kinds we do not use (user events, billing…) yield
 * none; a callback that is not an envelope, or a message or status we cannot trust, throws MalformedDelivery.
 */
export function parseGupshupWebhook(body: unknown, receivedAt = new Date()): InboundEvent[] {
  if (!isObject(body)) throw new MalformedDelivery('El cuerpo no es un objeto JSON.');
  if (typeof body.type !== 'string') throw new MalformedDelivery('El cuerpo no dice su tipo (type).');
  if (body.type !== 'message' && body.type !== 'message-event' && body.type !== 'template-event') return [];
  if (!isObject(body.payload)) throw new MalformedDelivery(`Un ${String(body.type)} sin payload.`);
  const event =
    body.type === 'message'
      ? parseMessage(body, body.payload, receivedAt)
      : body.type === 'message-event'
        ? parseStatus(body, body.payload, receivedAt)
        : parseTemplateEvent(body, body.payload, receivedAt);
  return event ? [event] : [];
}
