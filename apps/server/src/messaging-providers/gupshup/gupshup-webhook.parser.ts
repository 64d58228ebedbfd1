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
import { metaFlavour, numberUpdate, parseMetaEnvelope, parsePreferences, referralOf, type EnvelopeFlavour } from '../meta-cloud/meta-webhook.parser.ts';

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

function parseMessage(envelope: Json, payload: Json, receivedAt: Date): InboundEvent {
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
    referral: referralOf(payload.referral),
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
    case 'reaction': {
      // `id` is the WhatsApp id of the message reacted to, `gsId` Gupshup's id of it (ours, when we sent it).
      const target = {
        whatsappMessageId: identifier(inner.id, 'reaction id', MAX_PROVIDER_ID),
        providerMessageId: identifier(inner.gsId, 'reaction gsId', MAX_PROVIDER_ID),
      };
      if (!target.whatsappMessageId && !target.providerMessageId) return typed('unsupported', { raw: storableRaw(envelope) });
      return {
        kind: 'reaction',
        providerMessageId,
        from: base.from,
        senderName: base.senderName,
        target,
        emoji: cleanText(inner.emoji, 32) ?? null,
        group,
        timestamp: base.timestamp,
      };
    }
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
  if (payload.type === 'deleted') return parseDeleted(envelope, payload, receivedAt);
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

/** A `deleted` message-event: the customer deleted a message they sent us (`id` is its WhatsApp id). */
function parseDeleted(envelope: Json, payload: Json, receivedAt: Date): InboundEvent | undefined {
  const id = identifier(payload.id, 'payload.id', MAX_PROVIDER_ID);
  const from = identifier(payload.destination ?? payload.source, 'payload.destination', MAX_PROVIDER_PHONE);
  if (!id || !from) return undefined;
  const inner = isObject(payload.payload) ? payload.payload : {};
  return {
    kind: 'revoke',
    providerMessageId: `${id}:deleted`,
    from,
    target: { providerMessageId: id, whatsappMessageId: id },
    timestamp: toDate(inner.ts ?? envelope.timestamp, receivedAt),
  };
}

/** `account-event` `tier-event`: the number's messaging limit moved, or it was flagged. */
function parseAccountEvent(envelope: Json, payload: Json, receivedAt: Date): InboundEvent | undefined {
  if (payload.type !== 'tier-event' || !isObject(payload.payload)) return undefined;
  return numberUpdate(payload.payload.event, undefined, payload.payload.currentLimit, toDate(envelope.timestamp, receivedAt));
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
 * Gupshup's Meta-format callbacks: `gs_id` is its id of our send (the WhatsApp id is `id`, or `meta_msg_id` where `id`
 * is another Gupshup id); a failure is a flat `code`/`reason` or Meta's `errors[]`.
 */
const gupshupFlavour: EnvelopeFlavour = {
  sendId: (status) => identifier(status.gs_id, 'statuses[].gs_id', MAX_PROVIDER_ID),
  whatsappId: (item) => identifier(item.meta_msg_id ?? item.id, 'meta_msg_id', MAX_PROVIDER_ID),
  failure: (status) => (status.code !== undefined || status.reason !== undefined ? gupshupFailure(status.code) : metaFlavour().failure(status)),
};

/** `user-event`: Gupshup's opt-out (and opt-in again) of a customer, which we keep as their marketing choice. */
function parseUserEvent(envelope: Json, payload: Json, receivedAt: Date): InboundEvent | undefined {
  const type = str(payload.type);
  if (type !== 'opted-out' && type !== 'opted-in') return undefined;
  const from = identifier(payload.phone, 'payload.phone', MAX_PROVIDER_PHONE);
  if (!from) return undefined;
  return { kind: 'marketing-preference', from, optedOut: type === 'opted-out', timestamp: toDate(envelope.timestamp, receivedAt) };
}

/** `preference-event`: Meta's `user_preferences` (marketing stop or resume) in Gupshup's envelope. */
function parsePreferenceEvent(_envelope: Json, payload: Json, receivedAt: Date): InboundEvent[] {
  return payload.type === 'user_preferences' && isObject(payload.payload) ? parsePreferences(payload.payload, receivedAt) : [];
}

type Reader = (envelope: Json, payload: Json, receivedAt: Date) => InboundEvent | InboundEvent[] | undefined;

/** The v2 callback types we use, by `type`; the rest (billing, onboarding…) yield nothing. */
const readers: Record<string, Reader> = {
  message: parseMessage,
  'message-event': parseStatus,
  'user-event': parseUserEvent,
  'template-event': (envelope, payload, receivedAt) => parseTemplateEvent(envelope, payload, receivedAt),
  'account-event': parseAccountEvent,
  'preference-event': parsePreferenceEvent,
};

/**
 * Parses one Gupshup callback into zero or more events, in either format the app's subscription chose: Gupshup's
 * own ("v2": `type` and `payload`) or Meta's envelope ("v3": `object: whatsapp_business_account`, `gs_app_id`).
 * Kinds we do not use (billing, account events…) yield none; a callback that is neither, or a message or status we
 * cannot trust, throws MalformedDelivery.
 */
export function parseGupshupWebhook(body: unknown, receivedAt = new Date()): InboundEvent[] {
  if (!isObject(body)) throw new MalformedDelivery('El cuerpo no es un objeto JSON.');
  // Some Meta-format callbacks come without `object`: their `entry[]` and no `type` tell them apart.
  if (body.object === 'whatsapp_business_account' || (body.type === undefined && Array.isArray(body.entry)))
    return parseMetaEnvelope(body, receivedAt, gupshupFlavour);
  if (typeof body.type !== 'string') throw new MalformedDelivery('El cuerpo no dice su tipo (type) ni es del formato de Meta (object).');
  const read = readers[body.type];
  if (!read) return [];
  if (!isObject(body.payload)) throw new MalformedDelivery(`Un ${String(body.type)} sin payload.`);
  const events = read(body, body.payload, receivedAt);
  return Array.isArray(events) ? events : events ? [events] : [];
}
