import { TEXT_LIMITS } from '@embudo/contracts/text';
import type { TemplateStatus } from '@embudo/contracts/http/templates';
import { MalformedDelivery, type DeliveryStatus, type InboundEvent, type InboundMessage, type InboundMessageType } from '../provider.ts';
import {
  cleanText,
  coordinate,
  identifier,
  isObject,
  MAX_PROVIDER_ID,
  MAX_PROVIDER_PHONE,
  messageText,
  storableRaw,
  str,
  toDate,
  type Json,
} from '../delivery-values.ts';
import { metaFailure, metaCode } from './meta-errors.ts';
import { templateReason, toTemplateStatus } from './meta-template.mapper.ts';

/**
 * Meta's webhook deliveries (meta-cloud.md §3.3–§3.5, §4.6): the `whatsapp_business_account` envelope, its
 * `messages` changes (inbound messages, statuses with `errors[]`) and `message_template_status_update` changes.
 */

const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

const statusOf: Record<string, DeliveryStatus> = { sent: 'sent', delivered: 'delivered', read: 'read', failed: 'failed', played: 'read' };

function media(inner: Json, withName = false) {
  const ref = identifier(inner.id, 'El id del archivo', MAX_PROVIDER_ID);
  return ref
    ? {
        ref,
        contentType: cleanText(inner.mime_type),
        ...(withName ? { fileName: cleanText(inner.filename, TEXT_LIMITS.fileName) } : {}),
      }
    : undefined;
}

function contactSummary(contacts: Json[]): string {
  return contacts
    .map((contact) => {
      const name = isObject(contact.name) ? (str(contact.name.formatted_name) ?? str(contact.name.first_name)) : undefined;
      const phones = list(contact.phones)
        .map((phone) => str(phone.phone))
        .filter(Boolean);
      return [name, ...phones].filter(Boolean).join(' ');
    })
    .join(', ');
}

function parseMessage(message: Json, names: Map<string, string>, receivedAt: Date): InboundMessage {
  const providerMessageId = identifier(message.id, 'messages[].id', MAX_PROVIDER_ID);
  const from = identifier(message.from, 'messages[].from', MAX_PROVIDER_PHONE);
  if (!providerMessageId) throw new MalformedDelivery('Mensaje sin messages[].id.');
  if (!from) throw new MalformedDelivery('Mensaje sin remitente (messages[].from).');
  const context = isObject(message.context) ? message.context : undefined;
  const quotedId = context ? identifier(context.id, 'context.id', MAX_PROVIDER_ID) : undefined;
  const base = {
    kind: 'message' as const,
    providerMessageId,
    from,
    senderName: cleanText(names.get(from)),
    timestamp: toDate(message.timestamp, receivedAt),
    // For Meta our provider id is the WhatsApp id: a quote names it either way.
    quoted: quotedId ? { whatsappMessageId: quotedId, providerMessageId: quotedId } : undefined,
    raw: message,
  };
  const typed = (type: InboundMessageType, extra: Partial<InboundMessage> = {}): InboundMessage => ({ ...base, type, ...extra });
  const type = str(message.type) ?? 'unknown';
  const inner = isObject(message[type]) ? (message[type] as Json) : {};
  switch (type) {
    case 'text':
      return typed('text', { text: messageText(inner.body) ?? '' });
    case 'image':
    case 'video':
    case 'audio':
    case 'sticker':
      return typed(type, { text: messageText(inner.caption), media: media(inner) });
    case 'document':
      return typed('document', { text: messageText(inner.caption), media: media(inner, true) });
    case 'location': {
      const latitude = coordinate(inner.latitude, 90);
      const longitude = coordinate(inner.longitude, 180);
      if (latitude === undefined || longitude === undefined) return typed('unsupported', { raw: storableRaw(message) });
      return typed('location', { location: { latitude, longitude, name: cleanText(inner.name), address: cleanText(inner.address) } });
    }
    case 'contacts':
      return typed('contact', { text: messageText(contactSummary(list(message.contacts))) ?? '' });
    case 'button': {
      // A tap on a template's quick-reply button: its text, and the payload the template set.
      const title = cleanText(inner.text) ?? cleanText(inner.payload) ?? '';
      return typed('button_reply', { text: title, reply: { title, postbackText: cleanText(inner.payload) } });
    }
    case 'interactive': {
      const kind = str(inner.type);
      const reply = kind && isObject(inner[kind]) ? (inner[kind] as Json) : undefined;
      if (!reply || (kind !== 'button_reply' && kind !== 'list_reply')) return typed('unsupported', { raw: storableRaw(message) });
      const title = cleanText(reply.title) ?? '';
      // Our reply ids are the options' postbacks (meta-message.mapper).
      const id = cleanText(reply.id);
      return typed(kind, { text: title, reply: { id, title, postbackText: id } });
    }
    default:
      return typed('unsupported', { raw: storableRaw(message) });
  }
}

function parseStatus(status: Json, receivedAt: Date): InboundEvent | undefined {
  const state = statusOf[str(status.status) ?? ''];
  if (!state) return undefined;
  const id = identifier(status.id, 'statuses[].id', MAX_PROVIDER_ID);
  if (!id) throw new MalformedDelivery('Estado sin statuses[].id.');
  // Meta's title and details are English: the failure is read by its code alone.
  const error = list(status.errors)[0];
  return {
    kind: 'status',
    status: state,
    providerMessageId: id,
    whatsappMessageId: id,
    timestamp: toDate(status.timestamp, receivedAt),
    ...(state === 'failed' ? { failure: metaFailure(error ? metaCode(error.code) : undefined) } : {}),
  };
}

/** Review events beyond our statuses: a flagged template still sends, a reinstated one is approved again. */
function templateStatusOf(event: string): TemplateStatus {
  const upper = event.toUpperCase();
  return upper === 'FLAGGED' || upper === 'REINSTATED' ? 'APPROVED' : toTemplateStatus(upper);
}

function parseTemplateUpdate(value: Json, entryTime: unknown, receivedAt: Date): InboundEvent | undefined {
  const event = str(value.event);
  const providerTemplateId = identifier(value.message_template_id, 'message_template_id', MAX_PROVIDER_ID);
  const name = cleanText(value.message_template_name);
  if (!event || (!providerTemplateId && !name)) return undefined;
  const status = templateStatusOf(event);
  const otherInfo = isObject(value.other_info) ? cleanText(value.other_info.description) : undefined;
  return {
    kind: 'template-status',
    providerTemplateId,
    name,
    languageCode: cleanText(value.message_template_language),
    status,
    reason: status === 'APPROVED' || status === 'PENDING' ? null : (templateReason(cleanText(value.reason)) ?? otherInfo ?? null),
    timestamp: toDate(entryTime, receivedAt),
  };
}

/**
 * Parses one Meta delivery into events. Changes of another number of the same app (a different
 * `metadata.phone_number_id`) are not this company's and are left out; subscriptions we do not use yield none.
 */
export function parseMetaWebhook(body: unknown, receivedAt = new Date(), phoneNumberId?: string): InboundEvent[] {
  if (!isObject(body)) throw new MalformedDelivery('El cuerpo no es un objeto JSON.');
  if (body.object !== 'whatsapp_business_account') return [];
  if (!Array.isArray(body.entry)) throw new MalformedDelivery('La entrega no trae entry[].');
  const events: InboundEvent[] = [];
  for (const entry of list(body.entry)) {
    for (const change of list(entry.changes)) {
      const value = isObject(change.value) ? change.value : undefined;
      if (!value) continue;
      if (change.field === 'message_template_status_update') {
        const update = parseTemplateUpdate(value, entry.time, receivedAt);
        if (update) events.push(update);
        continue;
      }
      if (change.field !== 'messages') continue;
      const metadata = isObject(value.metadata) ? value.metadata : {};
      const number = str(metadata.phone_number_id);
      if (phoneNumberId && number && number !== phoneNumberId) continue;
      const names = new Map<string, string>();
      for (const contact of list(value.contacts)) {
        const waId = str(contact.wa_id);
        const name = isObject(contact.profile) ? str(contact.profile.name) : undefined;
        if (waId && name) names.set(waId, name);
      }
      for (const message of list(value.messages)) events.push(parseMessage(message, names, receivedAt));
      for (const status of list(value.statuses)) {
        const event = parseStatus(status, receivedAt);
        if (event) events.push(event);
      }
    }
  }
  return events;
}
