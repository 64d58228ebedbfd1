import { randomUUID } from 'node:crypto';
import { and, eq, or } from 'drizzle-orm';
import { messages, webhookRejections } from '../../../db/schema/index.ts';
import type { Db, DbExecutor, Tx } from '../../platform/db/database.ts';
import { insertRows } from '../../platform/db/insert-rows.ts';
import type { EventPublisher } from '../../platform/events/index.ts';
import { secretMatches } from '../../platform/auth/secrets.ts';
import { unauthorized } from '../../platform/errors/app-error.ts';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../../platform/http/json-body-parser.ts';
import {
  MalformedDelivery,
  type InboundEvent,
  type InboundMessage,
  type InboundStatus,
  type InboundSystemNotice,
  type ProviderFailure,
  type ProviderName,
  type WebhookDelivery,
  type WebhookReceiver,
  type WhatsAppLines,
} from '../../messaging-providers/provider.ts';
import {
  findCardByPhone,
  findOrCreateCards,
  keepAdReferral,
  recordCardsActivity,
  toCardUpdate,
  type CardPlace,
  type CardSummaryRow,
  type LearntName,
} from '../funnels/index.ts';
import { applyProviderTemplateStatus } from '../templates/index.ts';
import { optOutKeywordsOf, recordNumberHealth } from '../tenants/index.ts';
import { recordUsage } from '../usage/index.ts';
import { DEFAULT_OPT_OUT_KEYWORDS, keywordForm, setMarketingChoice, upsertContacts } from './contacts.service.ts';
import { applyMessageChange } from './message-changes.ts';
import { announceNote, storeSystemNote } from './conversation.service.ts';
import { toMessageDto, type MessageRow } from './message-dto.ts';
import type { ChatEvents } from './chat-events.ts';
import { statusChangeEvent } from './message-events.ts';
import { applyStatusRun, type ChangedStatus, type PendingStatus } from './inbound-statuses.ts';
import { keptBody, recordWrongSecret, type DeliveryCounter, type DeliveryKind } from './webhook-activity.ts';
import type { WebhookOutcome } from '../../platform/metrics/metrics.ts';
import type { Logger } from '../../platform/logger/logger.ts';
import { runWithLogContext } from '../../platform/logger/log-context.ts';
import type { AppliedDelivery, WebhookIntake } from './webhook-intake.ts';
import type { WebhookEndpoints } from './webhook-endpoints.ts';

export const UNSUPPORTED_MEDIA_TEXT = 'Unsupported media';

/**
 * The menu auto-bot as the inbound path sees it; the autobot module implements it. The bots answer through
 * listeners of `customer-message.stored`, after the webhook's transaction commits, never inside the request.
 */
export interface InboundBot {
  /** The bot's waiting room while it runs: where a new contact's card lands. */
  landingColumn(executor: DbExecutor, tenantId: string): Promise<CardPlace | undefined>;
}

export interface InboundDeps {
  db: Db;
  /** Each company's WhatsApp line; the webhook is checked and read by its provider's side of it. */
  lines: WhatsAppLines;
  events: ChatEvents;
  domainEvents: EventPublisher;
  /** Records the media download job in the same transaction as the message. */
  enqueueMediaDownload: (
    tx: Tx,
    input: { tenantId: string; messageId: string; url: string; contentType?: string; provider?: ProviderName },
  ) => Promise<unknown>;
  bot?: InboundBot;
  /**
   * Records, in the transaction, the job that sends again a message the provider took and then refused for the
   * number's throughput; `resend` counts such resends of the message (1 for the first).
   */
  resendThrottled: (tx: Tx, send: { tenantId: string; messageId: string; cardId: string; resend: number }) => Promise<unknown>;
  /** The provider said the number sends too fast: its pace slows down (told once the batch has committed). */
  onThrottled: (tenantId: string, failure: ProviderFailure) => Promise<unknown>;
  /** Told what became of each delivery (metrics). */
  onDelivery?: (outcome: WebhookOutcome) => void;
  /** Deliveries per company and hour for the activity panel; absent, nothing is counted. */
  deliveryCounter?: DeliveryCounter;
  /** Where a failure to count a delivery for the activity panel is reported (the delivery itself is still answered). */
  log?: Pick<Logger, 'warn'>;
  /** Stores an authentic delivery for the intake worker to apply (docs/decisions/0015). */
  intake: Pick<WebhookIntake, 'accept'>;
  /** Each company's webhook secret and readers, kept a few seconds per process. */
  endpoints: Pick<WebhookEndpoints, 'of'>;
}

function previewText(event: InboundMessage): string | null {
  switch (event.type) {
    case 'location':
      return event.location?.name ?? 'Ubicación';
    case 'order':
      return event.text ?? orderSummary(event.order);
    case 'unsupported':
      return UNSUPPORTED_MEDIA_TEXT;
    default:
      return event.text ?? null;
  }
}

/** "Pedido: 3 productos": what the card and the chat say of an order without words of its own. */
function orderSummary(order: InboundMessage['order']): string {
  const units = (order?.items ?? []).reduce((sum, item) => sum + item.quantity, 0);
  return `Pedido: ${units} ${units === 1 ? 'producto' : 'productos'}`;
}

/** Replies (buttons, lists, flows) and contacts are shown as the text they carry; the rest keep their kind. */
const storedType = (event: InboundMessage) =>
  event.type === 'button_reply' || event.type === 'list_reply' || event.type === 'flow_reply' || event.type === 'contact' ? 'text' : event.type;

/** What a customer's message carries beyond its text and media, as the chat reads it from `payload`. */
function payloadOf(event: InboundMessage): Record<string, unknown> | null {
  if (event.type === 'unsupported') return { raw: event.raw };
  const payload = {
    ...(event.location ? { location: event.location } : {}),
    ...(event.reply ? { reply: event.reply } : {}),
    ...(event.order ? { order: event.order } : {}),
    ...(event.flowReply ? { flowReply: event.flowReply } : {}),
    ...(event.referral ? { referral: event.referral } : {}),
  };
  return Object.keys(payload).length > 0 ? payload : null;
}

export const WEBHOOK_UNAUTHORIZED = 'Webhook no autorizado.';

/** The company a webhook URL names, and whether the secret in the URL is its own. */
async function webhookTenant(deps: Pick<InboundDeps, 'endpoints'>, tenantId: string, secret: string) {
  const endpoint = await deps.endpoints.of(tenantId);
  return { endpoint, authentic: Boolean(endpoint && secretMatches(endpoint.webhookSecret, secret)) };
}

/** A GET on the webhook URL: the provider's verification handshake (Meta's `hub.challenge`), after the URL's secret. */
export async function answerWebhookHandshake(deps: InboundDeps, provider: ProviderName, tenantId: string, secret: string, query: Record<string, unknown>) {
  const { endpoint, authentic } = await webhookTenant(deps, tenantId, secret);
  if (!endpoint || !authentic) throw unauthorized(WEBHOOK_UNAUTHORIZED);
  return (await endpoint.receiver(provider)).handshake(query);
}

/**
 * Verifies the tenant's webhook secret and the provider's signature, then hands the delivery to the intake: once it
 * is stored there it will not be lost, and the webhook answers (providers retry any non-2xx answer, Gupshup within
 * 10 s). The intake applies it right after (docs/decisions/0015). A delivery with a wrong secret or signature is
 * refused (401); for an existing company it is recorded too, with the advice of the provider it came through (a
 * webhook URL copied wrong, or Meta's app secret not saved, shows on its activity panel), for no company it leaves
 * no trace. The provider is the URL's: a late status from the provider a company left still reaches its message.
 */
export async function receiveWebhook(
  deps: InboundDeps,
  provider: ProviderName,
  tenantId: string,
  secret: string,
  delivery: WebhookDelivery,
  receivedAt = new Date(),
) {
  const { endpoint, authentic } = await webhookTenant(deps, tenantId, secret);
  const tenant = endpoint?.tenant;
  const receiver = endpoint && authentic ? await endpoint.receiver(provider) : undefined;
  if (!tenant || !receiver || !receiver.authentic(delivery)) {
    deps.onDelivery?.('refused');
    const counter = deps.deliveryCounter;
    if (tenant && counter) {
      const refusal = { provider, cause: authentic ? 'signature' : 'secret' } as const;
      await noted(deps, () => recordWrongSecret(deps.db, counter, tenant.id, refusal, keptBody(delivery.rawBody.toString('utf8')), receivedAt));
    }
    throw unauthorized(WEBHOOK_UNAUTHORIZED);
  }
  await deps.intake.accept({ tenantId: tenant.id, provider, body: delivery.rawBody, receivedAt });
}

/** What applying a stored delivery needs: the inbound side without the intake itself. */
export type ApplyDeps = Omit<InboundDeps, 'intake' | 'endpoints'>;

/** What applying a delivery has done so far; its outcome is told once the whole batch is applied. */
interface Applying extends Pick<AppliedDelivery, 'waitsForMessage' | 'afterCommit'> {
  malformed: boolean;
  /** Something new was stored or moved (else the delivery repeated what was known). */
  changed: boolean;
  kinds: Set<DeliveryKind>;
}

/** A stored delivery as the intake hands it over. */
export interface StoredDelivery {
  provider: ProviderName;
  body: Buffer;
  receivedAt: Date;
  requestId: string | null;
}

/**
 * Applies stored deliveries, in order, inside the intake's transaction: every event of each callback. Customers'
 * messages that follow one another are stored together, and so are statuses (a few statements for a run, not a few
 * per event); template news are applied one by one between them, and no event overtakes one that arrived before it. A delivery that cannot be used (not JSON, nested too deep, an id too long…) is recorded in
 * webhook_rejections: it would be malformed on every retry too. Nothing here may use `deps.db`: on the embedded
 * database that would wait for the transaction it runs in.
 */
export async function applyDeliveries(
  deps: ApplyDeps,
  tx: Tx,
  tenantId: string,
  receiverOf: (provider: ProviderName) => WebhookReceiver,
  deliveries: readonly StoredDelivery[],
): Promise<AppliedDelivery[]> {
  const applied = deliveries.map((): Applying => ({ malformed: false, changed: false, kinds: new Set(), waitsForMessage: false, afterCommit: [] }));
  // Customers' messages and statuses that follow one another are applied as runs, each a few statements; a run ends
  // where the other kind (or a template's news) comes, so nothing overtakes what arrived before it.
  let run: PendingMessage[] = [];
  let statuses: PendingStatus[] = [];
  const storeRun = async () => {
    if (run.length > 0) await storeInboundMessages(deps, tx, tenantId, run, applied);
    run = [];
  };
  // A status run's events are published together: their listeners select what concerns them in one statement.
  const applyStatuses = async () => {
    if (statuses.length === 0) return;
    const { waitingForMessage, moving, moved, throttled } = await applyStatusRun(tx, tenantId, statuses);
    statuses = [];
    waitingForMessage.forEach((index) => (applied[index]!.waitsForMessage = true));
    moving.forEach((index) => (applied[index]!.changed = true));
    for (const { message, index } of moved) applied[index]!.afterCommit.push(() => announceStatus(deps, tenantId, message));
    for (const { message, index, failure } of throttled) {
      await deps.resendThrottled(tx, { tenantId, messageId: message.id, cardId: message.cardId, resend: message.throughputResends });
      applied[index]!.afterCommit.push(async () => {
        announceStatus(deps, tenantId, message);
        await deps.onThrottled(tenantId, failure);
      });
    }
    if (moved.length > 0)
      await deps.domainEvents.publishMany(
        tx,
        moved.map(({ message, index }) => ({ ...statusChangeEvent(message), requestId: deliveries[index]!.requestId })),
      );
  };
  for (const [index, delivery] of deliveries.entries()) {
    const result = applied[index]!;
    const rawBody = delivery.body.toString('utf8');
    let events: InboundEvent[];
    try {
      events = receiverOf(delivery.provider).parse(readDelivery(rawBody), delivery.receivedAt);
    } catch (error) {
      if (!(error instanceof MalformedDelivery)) throw error;
      await tx
        .insert(webhookRejections)
        .values({ tenantId, kind: 'malformed', reason: error.message, rawBody: keptBody(rawBody), receivedAt: delivery.receivedAt });
      result.malformed = true;
      result.kinds.add('malformed');
      continue;
    }
    if (events.length === 0) result.changed = true;
    for (const event of events) {
      const refusal = refusedSender(event);
      if (refusal) {
        await tx
          .insert(webhookRejections)
          .values({ tenantId, kind: 'refused_sender', reason: refusal, rawBody: keptBody(rawBody), receivedAt: delivery.receivedAt });
        // Counted with the unusable deliveries: `refused` counts wrong secrets.
        result.kinds.add('malformed');
        result.changed = true;
        continue;
      }
      if (event.kind === 'message') {
        result.kinds.add('message');
        await applyStatuses();
        // A quote may name a message of this very run: it is looked up once the run before it is stored.
        if (event.quoted) await storeRun();
        run.push({ index, event, provider: delivery.provider, requestId: delivery.requestId });
        continue;
      }
      await storeRun();
      if (event.kind === 'status') {
        result.kinds.add('status');
        statuses.push({ index, event });
        continue;
      }
      await applyStatuses();
      result.kinds.add(event.kind === 'template-status' || event.kind === 'number-update' ? 'status' : 'message');
      await runWithLogContext({ requestId: delivery.requestId ?? undefined }, () => applyOtherEvent(deps, tx, tenantId, event, delivery.receivedAt, result));
    }
  }
  await storeRun();
  await applyStatuses();
  // Nothing new: a delivery repeated by the provider (or a status that does not move the ack).
  return applied.map(({ malformed, changed, kinds, ...result }) => ({
    ...result,
    outcome: malformed ? 'malformed' : changed ? 'stored' : 'duplicate',
    kinds: [...kinds],
  }));
}

/** WhatsApp's senders are phone numbers (digits, country code first); anything else makes no chat. */
const PHONE_SENDER = /^\+?\d{5,20}$/;

/** Why an event's sender cannot be a chat, or undefined when it can. */
function refusedSender(event: InboundEvent): string | undefined {
  if (!('from' in event)) return undefined;
  return PHONE_SENDER.test(event.from) ? undefined : `El remitente «${event.from.slice(0, 80)}» no es un número de teléfono: no se creó ningún chat.`;
}

const SYSTEM_NOTE_AUTHOR = 'WhatsApp';

/** What the team reads of a system notice, in the chat's internal notes. */
function systemNoteText(event: InboundSystemNotice): string {
  return event.notice === 'number_changed'
    ? `El cliente cambió su número de WhatsApp${event.newPhone ? ` a +${event.newPhone.replace(/^\+/, '')}` : ''}. Sus mensajes nuevos llegarán desde ese número.`
    : 'El código de seguridad del cliente cambió (reinstaló WhatsApp o cambió de teléfono).';
}

/** Events that are not a new customer message nor a status: each applied on its own, in arrival order. */
async function applyOtherEvent(
  deps: ApplyDeps,
  tx: Tx,
  tenantId: string,
  event: Exclude<InboundEvent, InboundMessage | InboundStatus>,
  receivedAt: Date,
  result: Applying,
) {
  switch (event.kind) {
    case 'template-status':
      await applyProviderTemplateStatus(tx, tenantId, { ...event, receivedAt });
      result.changed = true;
      return;
    case 'reaction':
    case 'edit':
    case 'revoke': {
      const outcome = await applyMessageChange(tx, tenantId, event);
      if (outcome.kind === 'waiting') result.waitsForMessage = true;
      if (outcome.kind !== 'changed') return;
      result.changed = true;
      const { message } = outcome;
      result.afterCommit.push(() =>
        deps.events.emit(tenantId, message.funnelId, 'message:updated', { cardId: message.cardId, message: toMessageDto(message) }),
      );
      return;
    }
    case 'system': {
      const card = await findCardByPhone(tx, tenantId, event.from);
      result.changed = true;
      if (!card) return;
      const note = await storeSystemNote(tx, { tenantId, cardId: card.id, authorName: SYSTEM_NOTE_AUTHOR, text: systemNoteText(event) });
      result.afterCommit.push(() => announceNote(deps.events, tenantId, note));
      return;
    }
    case 'marketing-preference':
      await setMarketingChoice(tx, tenantId, event.from, event.optedOut, event.timestamp);
      result.changed = true;
      return;
    case 'number-update':
      await recordNumberHealth(tx, tenantId, { event: event.event, quality: event.quality, dailyLimit: event.dailyLimit, at: event.timestamp });
      result.changed = true;
      return;
  }
}

/** The activity panel's record of a refused delivery must never turn the answer into an error the provider retries. */
async function noted(deps: InboundDeps, record: () => Promise<void>) {
  try {
    await record();
  } catch (error) {
    deps.log?.warn({ err: error }, 'could not count a webhook delivery for the activity panel');
  }
}

/** The delivery's JSON, read only once its nesting is known to be bounded. */
function readDelivery(rawBody: string): unknown {
  if (rawBody.trim() === '') throw new MalformedDelivery('Cuerpo vacío.');
  if (jsonNestsDeeperThan(rawBody, MAX_JSON_DEPTH)) throw new MalformedDelivery(`JSON anidado a más de ${MAX_JSON_DEPTH} niveles.`);
  try {
    return JSON.parse(rawBody) as unknown;
  } catch {
    throw new MalformedDelivery('El cuerpo no es JSON válido.');
  }
}

interface PendingMessage {
  /** Which of the batch's deliveries brought it. */
  index: number;
  event: InboundMessage;
  provider: ProviderName;
  requestId: string | null;
}

const contactOf = (event: InboundMessage) =>
  event.group ? { phone: event.group.id, name: event.group.name, isGroup: true } : { phone: event.from, name: event.senderName, isGroup: false };

/** The newest profile (or group) name titles the chat, unless someone renamed it. A sender without a profile name comes with their number as name: that is no name. */
function learntName(event: InboundMessage): LearntName | undefined {
  const profileName = event.group ? event.group.name : event.senderName !== event.from ? event.senderName : undefined;
  return profileName ? { name: profileName, source: 'profile' } : undefined;
}

/**
 * Stores a run of customers' messages, each once however often the provider delivers it: their contacts, chats,
 * messages, card summaries, usage and events in a few statements for the whole run. A stored message is announced
 * (message:new) after the commit, and each chat it touched once (card_updated, as it ends up).
 */
async function storeInboundMessages(deps: ApplyDeps, tx: Tx, tenantId: string, run: readonly PendingMessage[], applied: Applying[]) {
  const contactsByPhone = await upsertContacts(
    tx,
    tenantId,
    run.map(({ event }) => contactOf(event)),
  );
  const placed = await findOrCreateCards(
    tx,
    tenantId,
    run.map(({ event }) => ({ contact: contactsByPhone.get(contactOf(event).phone)!, learnt: learntName(event) })),
    deps.bot && (() => deps.bot!.landingColumn(tx, tenantId)),
  );
  const quotes: Array<MessageRow | undefined> = [];
  for (const { event } of run) quotes.push(event.quoted ? await findQuoted(tx, tenantId, event.quoted) : undefined);
  // Each message's id is made here, so the insert answers only which ids it stored (a provider repeating a message
  // stores it once), and its row is known without PostgreSQL writing every column back as text. Written out whole:
  // spreading a row of defaults and one of values into a new object took V8 14 µs a message.
  const rows = run.map(({ event }, position): MessageRow => {
    const quoted = quotes[position];
    return {
      id: randomUUID(),
      tenantId,
      cardId: placed[position]!.card.id,
      sender: 'contact',
      authorUserId: null,
      participantName: event.group ? (event.senderName ?? event.from) : null,
      text: event.type === 'unsupported' ? UNSUPPORTED_MEDIA_TEXT : event.type === 'order' ? (event.text ?? orderSummary(event.order)) : (event.text ?? null),
      type: storedType(event),
      mediaUrl: null,
      mediaMime: event.media?.contentType ?? null,
      mediaFileName: event.media?.fileName ?? null,
      providerMessageId: event.providerMessageId,
      whatsappMessageId: null,
      tempId: null,
      dispatchStartedAt: null,
      throughputResends: 0,
      ack: 3,
      errorReason: null,
      errorCode: null,
      quotedMessageId: quoted?.id ?? null,
      quotedMessageText: quoted?.text ?? null,
      quotedMessageSender: quoted?.sender ?? null,
      templateId: null,
      templateCategory: null,
      payload: payloadOf(event),
      transcript: null,
      reactions: null,
      editedAt: null,
      editHistory: null,
      deletedAt: null,
      createdAt: event.timestamp,
    };
  });
  const inserted = await insertRows(tx, messages, rows, { onConflictDoNothing: [messages.tenantId, messages.providerMessageId], returning: ['id'] });
  const insertedIds = new Set(inserted.map(({ id }) => id));
  const stored = run.flatMap((pending, position) => {
    const row = rows[position]!;
    return insertedIds.has(row.id) ? [{ ...pending, message: row, created: placed[position]!.created }] : [];
  });
  if (stored.length === 0) return;

  const cardsById = await recordCardsActivity(
    tx,
    tenantId,
    stored.map(({ event, message }) => ({
      cardId: message.cardId,
      activity: { lastMessageType: message.type, lastMessageText: previewText(event), at: event.timestamp, fromContact: true, countsAsUnread: true },
    })),
  );
  await recordUsage(tx, tenantId, 'received', stored.length);
  await keepAdReferrals(tx, tenantId, stored);
  await applyOptOutKeywords(tx, tenantId, stored);
  for (const { event, message, provider, requestId } of stored) {
    if (!event.media) continue;
    await runWithLogContext({ requestId: requestId ?? undefined }, () =>
      deps.enqueueMediaDownload(tx, { tenantId, messageId: message.id, url: event.media!.ref, contentType: event.media!.contentType, provider }),
    );
  }
  await deps.domainEvents.publishMany(
    tx,
    stored.map(({ message, created, requestId }) => {
      const card = cardsById.get(message.cardId)!;
      return {
        type: 'customer-message.stored' as const,
        tenantId,
        payload: { messageId: message.id, cardId: card.id, funnelId: card.funnelId, columnId: card.columnId, cardCreated: created },
        requestId,
      };
    }),
  );
  const lastOfCard = new Map(stored.map((entry) => [entry.message.cardId, entry]));
  const createdCards = new Set(stored.filter((entry) => entry.created).map((entry) => entry.message.cardId));
  for (const entry of stored) {
    const card = cardsById.get(entry.message.cardId)!;
    const result = applied[entry.index]!;
    result.changed = true;
    result.afterCommit.push(() => {
      deps.events.emit(tenantId, card.funnelId, 'message:new', { cardId: card.id, message: toMessageDto(entry.message) });
      if (lastOfCard.get(card.id) === entry)
        deps.events.emit(tenantId, card.funnelId, 'card_updated', { ...toCardUpdate(card), created: createdCards.has(card.id) });
    });
  }
}

/** A chat keeps the first ad its customer came from; later messages with another ad do not replace it. */
async function keepAdReferrals(tx: Tx, tenantId: string, stored: ReadonlyArray<{ event: InboundMessage; message: MessageRow }>) {
  for (const { event, message } of stored) if (event.referral) await keepAdReferral(tx, tenantId, message.cardId, { ...event.referral });
}

/** The longest message that can be an opt-out keyword: longer ones are not looked at (no read for most messages). */
const KEYWORD_MAX_LENGTH = 30;

/** A customer who writes one of the company's opt-out words alone (STOP, BAJA…) stops marketing messages. */
async function applyOptOutKeywords(tx: Tx, tenantId: string, stored: ReadonlyArray<{ event: InboundMessage }>) {
  const candidates = stored.filter(({ event }) => event.type === 'text' && !event.group && event.text && event.text.length <= KEYWORD_MAX_LENGTH);
  if (candidates.length === 0) return;
  const keywords = new Set(((await optOutKeywordsOf(tx, tenantId)) ?? DEFAULT_OPT_OUT_KEYWORDS).map(keywordForm));
  for (const { event } of candidates) if (keywords.has(keywordForm(event.text!))) await setMarketingChoice(tx, tenantId, event.from, true, event.timestamp);
}

export function emitNewMessage(events: ChatEvents, tenantId: string, card: CardSummaryRow, message: MessageRow, cardCreated: boolean) {
  events.emit(tenantId, card.funnelId, 'message:new', { cardId: card.id, message: toMessageDto(message) });
  events.emit(tenantId, card.funnelId, 'card_updated', { ...toCardUpdate(card), created: cardCreated });
}

async function findQuoted(tx: Tx, tenantId: string, quoted: NonNullable<InboundMessage['quoted']>) {
  const ids = [quoted.providerMessageId, quoted.whatsappMessageId].filter((id): id is string => Boolean(id));
  if (ids.length === 0) return undefined;
  const [row] = await tx
    .select()
    .from(messages)
    .where(and(eq(messages.tenantId, tenantId), or(...ids.flatMap((id) => [eq(messages.providerMessageId, id), eq(messages.whatsappMessageId, id)]))))
    .limit(1);
  return row;
}

/** The status change as the open chats see it. */
function announceStatus(deps: ApplyDeps, tenantId: string, updated: ChangedStatus) {
  deps.events.emit(tenantId, updated.funnelId, 'message_status_updated', {
    cardId: updated.cardId,
    messageId: updated.id,
    tempId: updated.tempId,
    ack: updated.ack as -1 | 0 | 1 | 2 | 3,
    // A failure, or why a send waits to be sent again.
    ...(updated.ack <= 0 && updated.errorReason ? { error: updated.errorReason, errorCode: updated.errorCode } : {}),
  });
}
