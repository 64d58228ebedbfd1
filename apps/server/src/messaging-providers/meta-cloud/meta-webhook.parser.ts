import { TEXT_LIMITS } from '@embudo/contracts/text';
import type { TemplateStatus } from '@embudo/contracts/http/templates';
import {
  MalformedDelivery,
  type AdReferral,
  type DeliveryStatus,
  type InboundEvent,
  type InboundFlowReply,
  type InboundMessage,
  type InboundMessageType,
  type InboundOrder,
  type MessageRef,
  type NumberQuality,
  type ProviderFailure,
} from '../provider.ts';
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
 * Meta's webhook deliveries: the `whatsapp_business_account` envelope, its `messages` changes (inbound messages of
 * every kind, changes to earlier ones — reactions, edits, deletions —, system notices, statuses with `errors[]`),
 * `user_preferences`, `phone_number_quality_update` and `message_template_status_update` changes.
 */

const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

const statusOf: Record<string, DeliveryStatus> = { enqueued: 'enqueued', sent: 'sent', delivered: 'delivered', read: 'read', failed: 'failed', played: 'read' };

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

/** The ids a change names its message by: for Meta our provider id is the WhatsApp id. */
function refTo(value: unknown, field: string) {
  const id = identifier(value, field, MAX_PROVIDER_ID);
  return id ? { whatsappMessageId: id, providerMessageId: id } : undefined;
}

export function referralOf(value: unknown): AdReferral | undefined {
  if (!isObject(value)) return undefined;
  const referral: AdReferral = {
    headline: cleanText(value.headline),
    body: cleanText(value.body, 1000),
    sourceUrl: cleanText(value.source_url, 2000),
    sourceId: cleanText(value.source_id, MAX_PROVIDER_ID),
    sourceType: cleanText(value.source_type, 40),
    mediaType: cleanText(value.media_type, 40),
    mediaUrl: cleanText(value.image_url ?? value.video_url ?? value.thumbnail_url, 2000),
    clickId: cleanText(value.ctwa_clid, MAX_PROVIDER_ID),
  };
  const kept = Object.fromEntries(Object.entries(referral).filter(([, field]) => field !== undefined)) as AdReferral;
  return Object.keys(kept).length > 0 ? kept : undefined;
}

function orderOf(inner: Json): InboundOrder {
  return {
    catalogId: cleanText(inner.catalog_id, MAX_PROVIDER_ID),
    items: list(inner.product_items).flatMap((item) => {
      const productId = cleanText(item.product_retailer_id, MAX_PROVIDER_ID);
      const quantity = Number(item.quantity);
      if (!productId || !Number.isFinite(quantity)) return [];
      const unitPrice = Number(item.item_price);
      return [{ productId, quantity, ...(Number.isFinite(unitPrice) ? { unitPrice } : {}), currency: cleanText(item.currency, 8) }];
    }),
  };
}

/** A flow's answer (`response_json`, a JSON string) as readable fields; the flow token is plumbing, not an answer. */
function flowReplyOf(reply: Json): InboundFlowReply {
  let answers: unknown;
  try {
    answers = typeof reply.response_json === 'string' ? JSON.parse(reply.response_json) : reply.response_json;
  } catch {
    answers = undefined;
  }
  const fields = isObject(answers)
    ? Object.entries(answers)
        .filter(([key]) => key !== 'flow_token')
        .map(([key, value]) => ({
          label:
            cleanText(
              key
                .replace(/^screen_\d+_/, '')
                .replace(/_\d+$/, '')
                .replace(/_/g, ' '),
              80,
            ) ?? key,
          value: cleanText(Array.isArray(value) ? value.join(', ') : isObject(value) ? JSON.stringify(value) : value, 1000) ?? '',
        }))
    : [];
  return { name: cleanText(reply.name, 80), fields };
}

export function flowReplyText(reply: InboundFlowReply): string {
  return reply.fields.length > 0 ? reply.fields.map(({ label, value }) => `${label}: ${value}`).join('\n') : 'Formulario enviado';
}

/** A quote names our message by its WhatsApp id, and in Gupshup's callbacks also by Gupshup's id of it (`gs_id`). */
function quoteOf(context: Json, flavour: EnvelopeFlavour): MessageRef | undefined {
  const whatsappMessageId = flavour.whatsappId(context);
  const providerMessageId = flavour.sendId(context) ?? whatsappMessageId;
  return whatsappMessageId || providerMessageId ? { whatsappMessageId, providerMessageId } : undefined;
}

function parseMessage(message: Json, names: Map<string, string>, receivedAt: Date, flavour: EnvelopeFlavour): InboundEvent | undefined {
  const providerMessageId = identifier(message.id, 'messages[].id', MAX_PROVIDER_ID);
  const from = identifier(message.from, 'messages[].from', MAX_PROVIDER_PHONE);
  if (!providerMessageId) throw new MalformedDelivery('Mensaje sin messages[].id.');
  if (!from) throw new MalformedDelivery('Mensaje sin remitente (messages[].from).');
  const context = isObject(message.context) ? message.context : undefined;
  const timestamp = toDate(message.timestamp, receivedAt);
  const base = {
    kind: 'message' as const,
    providerMessageId,
    from,
    senderName: cleanText(names.get(from)),
    timestamp,
    quoted: context ? quoteOf(context, flavour) : undefined,
    referral: referralOf(message.referral),
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
      if (reply && kind === 'call_permission_reply') {
        const accepted = str(reply.response) === 'accept';
        return typed('text', { text: accepted ? 'Aceptó recibir llamadas de WhatsApp de la empresa' : 'Rechazó recibir llamadas de WhatsApp de la empresa' });
      }
      if (reply && kind === 'nfm_reply') {
        const flowReply = flowReplyOf(reply);
        return typed('flow_reply', { text: flowReplyText(flowReply), flowReply });
      }
      if (!reply || (kind !== 'button_reply' && kind !== 'list_reply')) return typed('unsupported', { raw: storableRaw(message) });
      const title = cleanText(reply.title) ?? '';
      // Our reply ids are the options' postbacks (meta-message.mapper).
      const id = cleanText(reply.id);
      return typed(kind, { text: title, reply: { id, title, postbackText: id } });
    }
    case 'order': {
      const order = orderOf(inner);
      return typed('order', { text: messageText(inner.text), order });
    }
    case 'reaction': {
      const target = refTo(inner.message_id, 'reaction.message_id');
      if (!target) return typed('unsupported', { raw: storableRaw(message) });
      // Taking a reaction back comes without an emoji (or with an empty one).
      return { kind: 'reaction', providerMessageId, from, senderName: base.senderName, target, emoji: cleanText(inner.emoji, 32) ?? null, timestamp };
    }
    case 'edit': {
      const target = refTo(inner.original_message_id, 'edit.original_message_id');
      const edited = isObject(inner.message) ? inner.message : {};
      const editedType = str(edited.type) ?? 'text';
      const editedInner = isObject(edited[editedType]) ? (edited[editedType] as Json) : {};
      const text = messageText(editedType === 'text' ? editedInner.body : editedInner.caption);
      if (!target || text === undefined) return typed('unsupported', { raw: storableRaw(message) });
      return { kind: 'edit', providerMessageId, from, target, text, timestamp };
    }
    case 'revoke': {
      const target = refTo(inner.original_message_id, 'revoke.original_message_id');
      if (!target) return typed('unsupported', { raw: storableRaw(message) });
      return { kind: 'revoke', providerMessageId, from, target, timestamp };
    }
    case 'system': {
      const systemType = str(inner.type);
      const newPhone = identifier(inner.new_wa_id ?? inner.wa_id, 'system.new_wa_id', MAX_PROVIDER_PHONE);
      if (systemType === 'customer_changed_number' || systemType === 'user_changed_number')
        return { kind: 'system', providerMessageId, from, notice: 'number_changed', newPhone, timestamp };
      if (systemType === 'customer_identity_changed' || systemType === 'user_identity_changed')
        return { kind: 'system', providerMessageId, from, notice: 'identity_changed', timestamp };
      return typed('unsupported', { raw: storableRaw(message) });
    }
    // The customer opened the chat (a "welcome" entry point) and wrote nothing yet: nothing to show.
    case 'request_welcome':
      return undefined;
    default:
      return typed('unsupported', { raw: storableRaw(message) });
  }
}

/**
 * Who reads Meta's envelope: Meta itself, or Gupshup's Meta-format ("v3") callbacks, whose statuses also carry
 * Gupshup's own id of our send (`gs_id`), an `enqueued` status, and failures as a flat `code`/`reason`.
 */
export interface EnvelopeFlavour {
  /** Our send's provider id in a status: Meta's wamid, or Gupshup's `gs_id`. */
  sendId(status: Json): string | undefined;
  /** The WhatsApp id a status or a quote's context names. */
  whatsappId(item: Json): string | undefined;
  failure(status: Json): ProviderFailure;
  /** Only this number's changes are the company's (Meta); Gupshup's app is the company's whatever its number id. */
  phoneNumberId?: string;
}

export const metaFlavour = (phoneNumberId?: string): EnvelopeFlavour => ({
  sendId: (status) => identifier(status.id, 'statuses[].id', MAX_PROVIDER_ID),
  whatsappId: (item) => identifier(item.id, 'id', MAX_PROVIDER_ID),
  // Meta's title and details are English: the failure is read by its code alone.
  failure: (status) => {
    const error = list(status.errors)[0];
    return metaFailure(error ? metaCode(error.code) : undefined);
  },
  phoneNumberId,
});

function parseStatus(status: Json, receivedAt: Date, flavour: EnvelopeFlavour): InboundEvent | undefined {
  const state = statusOf[str(status.status) ?? ''];
  if (!state) return undefined;
  const whatsappMessageId = flavour.whatsappId(status);
  const providerMessageId = flavour.sendId(status) ?? whatsappMessageId;
  if (!providerMessageId) throw new MalformedDelivery('Estado sin statuses[].id.');
  return {
    kind: 'status',
    status: state,
    providerMessageId,
    whatsappMessageId: whatsappMessageId ?? providerMessageId,
    timestamp: toDate(status.timestamp, receivedAt),
    ...(state === 'failed' ? { failure: flavour.failure(status) } : {}),
  };
}

/** Meta's `user_preferences`: a customer stopped or resumed marketing messages. */
export function parsePreferences(value: Json, receivedAt: Date): InboundEvent[] {
  return list(value.user_preferences).flatMap((preference): InboundEvent[] => {
    const from = identifier(preference.wa_id, 'user_preferences[].wa_id', MAX_PROVIDER_PHONE);
    const choice = str(preference.value)?.toLowerCase();
    const category = str(preference.category) ?? 'marketing_messages';
    if (!from || !category.startsWith('marketing') || (choice !== 'stop' && choice !== 'resume')) return [];
    return [{ kind: 'marketing-preference', from, optedOut: choice === 'stop', timestamp: toDate(preference.timestamp, receivedAt) }];
  });
}

const qualityOf: Record<string, NumberQuality> = { GREEN: 'GREEN', HIGH: 'GREEN', YELLOW: 'YELLOW', MEDIUM: 'YELLOW', RED: 'RED', LOW: 'RED' };

/** `TIER_1K` → 1,000, `TIER_250` → 250, `TIER_UNLIMITED` → null (no limit). */
function dailyLimitOf(tier: unknown): number | null | undefined {
  const text = str(tier)?.toUpperCase();
  if (!text) return undefined;
  if (text.includes('UNLIMITED')) return null;
  const match = /(\d+)\s*(K)?$/.exec(text);
  return match ? Number(match[1]) * (match[2] ? 1000 : 1) : undefined;
}

/**
 * What a provider said about the number, as one event: its word (FLAGGED, UPGRADE…), the quality rating when it gives
 * one (a flag alone means a low rating, its lifting a good one) and the messaging tier as a daily limit.
 */
export function numberUpdate(word: unknown, rating: unknown, tier: unknown, timestamp: Date): InboundEvent | undefined {
  const event = cleanText(word, 40)?.toUpperCase();
  if (!event) return undefined;
  const rated = cleanText(rating, 40)?.toUpperCase();
  const quality = rated ? (qualityOf[rated] ?? 'UNKNOWN') : event === 'FLAGGED' ? 'RED' : event === 'UNFLAGGED' ? 'GREEN' : undefined;
  const dailyLimit = dailyLimitOf(tier);
  return {
    kind: 'number-update',
    event,
    ...(quality ? { quality } : {}),
    ...(dailyLimit !== undefined ? { dailyLimit } : {}),
    timestamp,
  };
}

/** Meta's `phone_number_quality_update`: the number was flagged, or its messaging limit moved. */
const parseQualityUpdate = (value: Json, entryTime: unknown, receivedAt: Date) =>
  numberUpdate(
    value.event,
    value.current_quality_rating ?? value.quality_rating ?? value.quality_score,
    value.current_limit ?? value.messaging_limit_tier ?? value.max_daily_conversation_per_phone,
    toDate(entryTime, receivedAt),
  );

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
 * Reads a `whatsapp_business_account` envelope (Meta's, or Gupshup's Meta-format callbacks) into events. Changes of
 * another number of the same app are not this company's and are left out; subscriptions we do not use yield none.
 */
export function parseMetaEnvelope(body: Json, receivedAt: Date, flavour: EnvelopeFlavour): InboundEvent[] {
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
      if (change.field === 'phone_number_quality_update') {
        const update = parseQualityUpdate(value, entry.time, receivedAt);
        if (update) events.push(update);
        continue;
      }
      const metadata = isObject(value.metadata) ? value.metadata : {};
      const number = str(metadata.phone_number_id);
      if (flavour.phoneNumberId && number && number !== flavour.phoneNumberId) continue;
      if (change.field === 'user_preferences') {
        events.push(...parsePreferences(value, receivedAt));
        continue;
      }
      if (change.field !== 'messages') continue;
      const names = new Map<string, string>();
      for (const contact of list(value.contacts)) {
        const waId = str(contact.wa_id);
        const name = isObject(contact.profile) ? str(contact.profile.name) : undefined;
        if (waId && name) names.set(waId, name);
      }
      for (const message of list(value.messages)) {
        const event = parseMessage(message, names, receivedAt, flavour);
        if (event) events.push(event);
      }
      for (const status of list(value.statuses)) {
        const event = parseStatus(status, receivedAt, flavour);
        if (event) events.push(event);
      }
    }
  }
  return events;
}

/** Parses one Meta delivery into events; only `phoneNumberId`'s changes when it is given. */
export function parseMetaWebhook(body: unknown, receivedAt = new Date(), phoneNumberId?: string): InboundEvent[] {
  if (!isObject(body)) throw new MalformedDelivery('El cuerpo no es un objeto JSON.');
  if (body.object !== 'whatsapp_business_account') return [];
  return parseMetaEnvelope(body, receivedAt, metaFlavour(phoneNumberId));
}
