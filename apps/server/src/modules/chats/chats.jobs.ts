import { z } from 'zod';
import { and, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import { cards, messages, scheduledMessages } from '../../../db/schema/index.ts';
import type { Db } from '../../platform/db/database.ts';
import { defineBatchJob, defineJob, type BatchItem, type JobFailure } from '../../platform/queue/job-definition.ts';
import { isAnyOf, unnestRows } from '../../platform/db/array-params.ts';
import type { MediaStorage } from '../../platform/storage/media-storage.ts';
import {
  failureOf,
  providerNames,
  ProviderError,
  RATE_LIMIT_GAVE_UP,
  type DownloadedMedia,
  type OutboundContent,
  type ProviderFailure,
  type WhatsAppLine,
  type WhatsAppLines,
} from '../../messaging-providers/provider.ts';
import { extensionForMime, FALLBACK_EXTENSION } from '../../platform/storage/media-types.ts';
import { findCard } from '../funnels/index.ts';
import { findTenantById } from '../tenants/index.ts';
import { changeAndRecordUsage, type UsageKind } from '../usage/index.ts';
import type { ChatEvents } from './chat-events.ts';
import { publishStatusChange, statusChangeEvent } from './message-events.ts';
import type { EventPublisher } from '../../platform/events/index.ts';
import type { MessageRow } from './message-dto.ts';
import { whatsappIdOf } from './message-reactions.service.ts';
import { queueOutbound, type OutboundDeps, type OutboundDraft } from './outbound.service.ts';
import { templateDraft, type TemplateMessagePayload } from './template-send.service.ts';
import { assertMarketingAllowed } from './contacts.service.ts';
import { templateForSending } from '../templates/index.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Logger } from '../../platform/logger/logger.ts';

export const SEND_MAX_ATTEMPTS = 5;
export const READ_RECEIPT_MAX_ATTEMPTS = 5;
export const INTERRUPTED_SEND = 'El envío se interrumpió y no se pudo confirmar; revisa el chat antes de reenviar.';
export const NOT_CONNECTED = 'WhatsApp no está configurado: completa la Conexión WhatsApp.';
export const MEDIA_DOWNLOAD_MAX_ATTEMPTS = 4;
export const MEDIA_NOT_DOWNLOADED = 'No se pudo descargar el archivo del cliente.';

export interface ChatJobsDeps {
  db: Db;
  /** Each company's WhatsApp line through the provider it chose (the provider port). */
  lines: WhatsAppLines;
  events: ChatEvents;
  domainEvents: EventPublisher;
  storage: MediaStorage;
  /** Lazy: in tests the server only knows its port once it listens. */
  publicUrl: () => string;
  log: Pick<Logger, 'warn'>;
  /** Seconds from storing an outbound message to the provider accepting it (metrics). */
  observeOutboxLag?: (seconds: number) => void;
  /** The provider refused a send as too many (issue 16): the company's number is slowed down. */
  onRateLimited?: (tenantId: string, failure: ProviderFailure) => Promise<unknown>;
}

/** The provider content of a stored outbound message; media URLs become absolute for the provider to fetch. */
function contentOf(row: MessageRow, publicUrl: string, replyTo?: string): OutboundContent {
  const absolute = (url: string) => (url.startsWith('/') ? `${publicUrl}${url}` : url);
  switch (row.type) {
    case 'image':
    case 'video':
    case 'audio':
    case 'sticker':
    case 'document':
      return {
        type: row.type,
        url: absolute(row.mediaUrl ?? ''),
        caption: row.text ?? undefined,
        fileName: row.mediaFileName ?? undefined,
        replyToProviderId: replyTo,
      };
    case 'template': {
      const payload = (row.payload ?? {}) as Partial<TemplateMessagePayload>;
      const headerMedia = payload.headerMedia ? { ...payload.headerMedia, url: absolute(payload.headerMedia.url) } : undefined;
      return {
        type: 'template',
        templateProviderId: payload.templateProviderId ?? '',
        name: payload.template?.name ?? '',
        languageCode: payload.template?.language_code ?? '',
        params: payload.params ?? [],
        headerMedia,
      };
    }
    case 'interactive': {
      const payload = row.payload as Extract<OutboundContent, { type: 'quick_reply' | 'list' }>;
      return payload;
    }
    default:
      return { type: 'text', text: row.text ?? '', replyToProviderId: replyTo };
  }
}

/** Tells the chat's room of a status change; a caller that knows the chat's funnel passes it, saving a read. */
type Announce = (change: { ack: -1 | 0; error?: string; errorCode?: string | null }) => void | Promise<void>;

function announcerOf(deps: ChatJobsDeps, row: MessageRow): Announce {
  return (change) =>
    deps.events.emitForCard(row.tenantId, row.cardId, 'message_status_updated', { cardId: row.cardId, messageId: row.id, tempId: row.tempId, ...change });
}

async function markFailed(deps: ChatJobsDeps, row: MessageRow, reason: string, code: string | null = null, announce = announcerOf(deps, row)) {
  const failed = await deps.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(messages)
      .set({ ack: -1, errorReason: reason, errorCode: code })
      .where(and(eq(messages.id, row.id), sql`${messages.ack} <= 0`))
      .returning();
    if (updated) await publishStatusChange(deps.domainEvents, tx, updated);
    return updated;
  });
  if (failed) await announce({ ack: -1, error: reason, errorCode: code });
}

/** A rate-limited attempt: the message waits for its retry (still ack 0) and says why, so the chat can show it. */
async function noteRetry(deps: ChatJobsDeps, row: MessageRow, failure: ProviderFailure, announce: Announce) {
  const [noted] = await deps.db
    .update(messages)
    .set({ errorReason: failure.reason, errorCode: failure.code })
    .where(and(eq(messages.id, row.id), sql`${messages.ack} = 0`))
    .returning({ id: messages.id });
  if (noted) await announce({ ack: 0, error: failure.reason, errorCode: failure.code });
}

const sendPayload = z.object({ messageId: z.uuid(), tenantId: z.uuid() });
type SendItem = BatchItem<z.output<typeof sendPayload>>;
/** A message claimed for dispatch, with its chat's phone and funnel. */
type ClaimedSend = MessageRow & { phone: string; funnelId: string };

/**
 * Sends one worker takes together (issue 16): one dispatch claim, one read of each company's line and one acceptance
 * transaction serve them all, and they go to the provider at once. A crash interrupts at most a batch, as it did ten
 * lone sends running side by side.
 */
const SENDS_PER_BATCH = 10;

/**
 * The messages the sends name, each only in the company its job names. By id alone (`= any`, the primary key in any
 * plan): pairing id and company in the statement, `(id, tenant_id) in (select … from unnest(…))`, got a generic plan on
 * PostgreSQL that took up to 2 s a claim in a campaign. A row of another company is left out here.
 */
function ofTheirCompanies<Row extends { id: string; tenantId: string }>(rows: readonly Row[], sends: ReadonlyArray<{ messageId: string; tenantId: string }>) {
  const companyOf = new Map(sends.map((send) => [send.messageId, send.tenantId]));
  return rows.filter((row) => companyOf.get(row.id) === row.tenantId);
}

const namedMessages = (sends: ReadonlyArray<{ messageId: string; tenantId: string }>) =>
  and(
    isAnyOf(
      messages.id,
      sends.map((send) => send.messageId),
    ),
    isAnyOf(messages.tenantId, [...new Set(sends.map((send) => send.tenantId))]),
  );

/** The messages the sends name, read in one statement, each only in its own company. */
async function readNamedMessages(db: Db, sends: ReadonlyArray<{ messageId: string; tenantId: string }>): Promise<MessageRow[]> {
  return ofTheirCompanies(await db.select().from(messages).where(namedMessages(sends)), sends);
}

/**
 * Sends a batch of stored outbound messages, each with the outcome a lone send job has: accepted and billed, failed
 * with its reason, or handed back for a retry (its claim released when nothing left, kept when the provider may have
 * it, so the retry fails it instead of sending twice).
 */
async function sendMessages(deps: ChatJobsDeps, items: ReadonlyArray<SendItem>): Promise<Array<JobFailure | undefined>> {
  const outcomes: Array<JobFailure | undefined> = items.map(() => undefined);
  // One job per message (its singleton key); should two name one message, the first sends and the other finds it done.
  const firstIndex = new Map<string, number>();
  items.forEach((item, index) => {
    if (!firstIndex.has(item.payload.messageId)) firstIndex.set(item.payload.messageId, index);
  });
  const sends = [...firstIndex.keys()].map((messageId) => items[firstIndex.get(messageId)!]!);

  // One statement claims the messages for dispatch (decision 0003) and brings each chat's phone and funnel along.
  const claimedRows = await deps.db
    .update(messages)
    .set({ dispatchStartedAt: new Date() })
    .from(cards)
    .where(
      and(
        namedMessages(sends.map((send) => send.payload)),
        eq(cards.tenantId, messages.tenantId),
        eq(cards.id, messages.cardId),
        isNull(messages.providerMessageId),
        isNull(messages.dispatchStartedAt),
        sql`${messages.ack} >= 0`,
      ),
    )
    .returning({ ...getTableColumns(messages), phone: cards.phone, funnelId: cards.funnelId });
  const claimed: ClaimedSend[] = ofTheirCompanies(
    claimedRows,
    sends.map((send) => send.payload),
  );
  // A row of another company than its job names (no job of this code names one) is handed back untouched.
  if (claimed.length < claimedRows.length)
    await releaseClaims(
      deps,
      claimedRows.filter((row) => !claimed.includes(row)),
    );
  const claimedIds = new Set(claimed.map((row) => row.id));
  const unclaimed = sends.filter((send) => !claimedIds.has(send.payload.messageId));
  if (unclaimed.length > 0) await failInterrupted(deps, unclaimed);
  if (claimed.length === 0) return outcomes;

  const outcomeOf = (row: ClaimedSend, failure: JobFailure | undefined) => {
    outcomes[firstIndex.get(row.id)!] = failure;
  };
  const attemptOf = (row: ClaimedSend) => items[firstIndex.get(row.id)!]!.ctx.attempt;

  let lines: Map<string, WhatsAppLine | undefined>;
  let quoted: Map<string, MessageRow>;
  try {
    const tenantIds = [...new Set(claimed.map((row) => row.tenantId))];
    lines = new Map(await Promise.all(tenantIds.map(async (tenantId) => [tenantId, await deps.lines.activeOf(tenantId)] as const)));
    quoted = await quotedMessages(deps.db, claimed);
  } catch (error) {
    // Nothing has left yet: the claims go back and every message tries again.
    await releaseClaims(deps, claimed);
    claimed.forEach((row) => outcomeOf(row, { error }));
    return outcomes;
  }

  const publicUrl = deps.publicUrl();
  type SendAttempt = { row: ClaimedSend } & ({ providerMessageId: string } | { notConnected: true } | { error: unknown });
  const attempts = await Promise.all(
    claimed.map(async (row): Promise<SendAttempt> => {
      const line = lines.get(row.tenantId);
      if (!line) return { row, notConnected: true };
      const quote = row.quotedMessageId ? quoted.get(row.quotedMessageId) : undefined;
      const content = contentOf(row, publicUrl, quote?.whatsappMessageId ?? quote?.providerMessageId ?? undefined);
      try {
        return { row, providerMessageId: (await line.send(row.phone, content)).providerMessageId };
      } catch (error) {
        return { row, error };
      }
    }),
  );

  const accepted: Array<{ row: ClaimedSend; providerMessageId: string }> = [];
  const notConnected: ClaimedSend[] = [];
  for (const attempt of attempts) {
    if ('providerMessageId' in attempt) accepted.push(attempt);
    else if ('notConnected' in attempt) notConnected.push(attempt.row);
    else outcomeOf(attempt.row, await settleSendError(deps, attempt.row, attempt.error, attemptOf(attempt.row)));
  }
  if (notConnected.length > 0) await releaseClaims(deps, notConnected, { reason: NOT_CONNECTED });
  if (accepted.length === 0) return outcomes;

  try {
    await recordAcceptance(deps, accepted);
  } catch (error) {
    // The claims stay: these messages reached the provider, so their retries fail them rather than send again.
    accepted.forEach(({ row }) => outcomeOf(row, { error }));
    return outcomes;
  }
  for (const { row } of accepted) {
    deps.observeOutboxLag?.((Date.now() - row.createdAt.getTime()) / 1000);
    announceSend(deps, row, { ack: row.ack as 0 });
  }
  return outcomes;
}

function announceSend(deps: ChatJobsDeps, row: ClaimedSend, change: Parameters<Announce>[0]) {
  return deps.events.emit(row.tenantId, row.funnelId, 'message_status_updated', { cardId: row.cardId, messageId: row.id, tempId: row.tempId, ...change });
}

/**
 * Messages that could not be claimed: already sent or failed, gone, or an earlier attempt started sending and never
 * recorded the answer. That one may have reached WhatsApp, so it is failed rather than resent: a crash cannot send twice.
 */
async function failInterrupted(deps: ChatJobsDeps, sends: readonly SendItem[]) {
  const rows = await readNamedMessages(
    deps.db,
    sends.map((send) => send.payload),
  );
  for (const row of rows) if (!row.providerMessageId && row.ack >= 0 && row.dispatchStartedAt) await markFailed(deps, row, INTERRUPTED_SEND);
}

/** The messages the claimed ones quote, each in its own company, by id. */
async function quotedMessages(db: Db, claimed: readonly ClaimedSend[]): Promise<Map<string, MessageRow>> {
  const quoting = claimed.filter((row) => row.quotedMessageId);
  if (quoting.length === 0) return new Map();
  const rows = await readNamedMessages(
    db,
    quoting.map((row) => ({ messageId: row.quotedMessageId!, tenantId: row.tenantId })),
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** Hands claims back when nothing has left; with a failure, the messages then fail with it. */
async function releaseClaims(deps: ChatJobsDeps, rows: readonly ClaimedSend[], failure?: { reason: string; code?: string | null }) {
  await deps.db
    .update(messages)
    .set({ dispatchStartedAt: null })
    .where(
      and(
        isAnyOf(
          messages.id,
          rows.map((row) => row.id),
        ),
        isNull(messages.providerMessageId),
      ),
    );
  if (failure) for (const row of rows) await markFailed(deps, row, failure.reason, failure.code ?? null, (change) => announceSend(deps, row, change));
}

/** What a send the provider did not accept comes to: a retry (the failure answered) or a failed message. */
async function settleSendError(deps: ChatJobsDeps, row: ClaimedSend, error: unknown, attempt: number): Promise<JobFailure | undefined> {
  const definitive = error instanceof ProviderError && !error.uncertain;
  if (!definitive) return { error }; // Unknown outcome: the claim stays, so the retry fails it instead of resending.
  // The provider answered without accepting: nothing went out, so a later attempt may send.
  const rateLimited = error.failure?.kind === 'rate_limited';
  if (rateLimited) await deps.onRateLimited?.(row.tenantId, error.failure!);
  if (error.retryable && attempt < SEND_MAX_ATTEMPTS) {
    await releaseClaims(deps, [row]);
    if (rateLimited) await noteRetry(deps, row, error.failure!, (change) => announceSend(deps, row, change));
    return { error };
  }
  const failure = failureOf(error);
  await releaseClaims(deps, [row], { reason: rateLimited ? RATE_LIMIT_GAVE_UP : failure.reason, code: failure.code });
  return undefined;
}

/**
 * Accepted by the provider: each message's id is stored with its charge in one statement per company and kind, so a
 * failed status that finds the id also finds the charge to undo; their status events commit with them.
 */
async function recordAcceptance(deps: ChatJobsDeps, accepted: ReadonlyArray<{ row: ClaimedSend; providerMessageId: string }>) {
  const groups = new Map<string, { tenantId: string; kind: UsageKind; sends: Array<{ row: ClaimedSend; providerMessageId: string }> }>();
  for (const send of accepted) {
    const { row } = send;
    const kind: UsageKind = row.type !== 'template' ? 'sent' : row.templateCategory === 'MARKETING' ? 'template_marketing' : 'template_utility';
    const key = `${row.tenantId} ${kind}`;
    const group = groups.get(key);
    if (group) group.sends.push(send);
    else groups.set(key, { tenantId: row.tenantId, kind, sends: [send] });
  }
  await deps.db.transaction(async (tx) => {
    for (const { tenantId, kind, sends } of groups.values()) {
      const acceptance = unnestRows(
        'accepted',
        { id: 'uuid', provider_message_id: 'text' },
        sends.map(({ row, providerMessageId }) => ({ id: row.id, provider_message_id: providerMessageId })),
      );
      await changeAndRecordUsage(
        tx,
        tenantId,
        kind,
        sql`update ${messages} set provider_message_id = accepted.provider_message_id, error_reason = null, error_code = null
            from ${acceptance} where ${messages.id} = accepted.id returning ${messages.id}`,
      );
    }
    await deps.domainEvents.publishMany(
      tx,
      accepted.map(({ row }) => statusChangeEvent(row)),
    );
  });
}

export function createChatJobs(deps: ChatJobsDeps) {
  const sendMessage = defineBatchJob({
    name: 'chats.send-message',
    payload: sendPayload,
    maxBatch: SENDS_PER_BATCH,
    maxAttempts: SEND_MAX_ATTEMPTS,
    backoff: { baseMs: 2_000, maxMs: 5 * 60_000 },
    handleBatch: (items) => sendMessages(deps, items),
  });

  /**
   * Copies an inbound message's media into our storage. A refusal (a URL that is not the provider's) or
   * the last failed attempt leaves the message without media and with the reason, logged, never retried.
   */
  const downloadMedia = defineJob({
    name: 'chats.download-media',
    payload: z.object({
      tenantId: z.uuid(),
      messageId: z.uuid(),
      /** Where the provider keeps the file (Gupshup: its URL; Meta: the media id). */
      url: z.string(),
      contentType: z.string().optional(),
      /** The provider whose webhook brought the message (older jobs: the company's current one). */
      provider: z.enum(providerNames).optional(),
    }),
    maxAttempts: MEDIA_DOWNLOAD_MAX_ATTEMPTS,
    backoff: { baseMs: 3_000, maxMs: 60_000 },
    handler: async ({ tenantId, messageId, url, contentType, provider }, ctx) => {
      let media: DownloadedMedia;
      try {
        const tenant = await findTenantById(deps.db, tenantId);
        if (!tenant) return;
        const line = provider ? await deps.lines.of(tenant, provider) : await deps.lines.active(tenant);
        if (!line) throw new ProviderError(NOT_CONNECTED, false);
        media = await line.downloadMedia({ ref: url, contentType });
      } catch (error) {
        const retryable = !(error instanceof ProviderError) || error.retryable;
        if (retryable && ctx.attempt < MEDIA_DOWNLOAD_MAX_ATTEMPTS) throw error;
        deps.log.warn({ err: error, tenantId, messageId, url }, 'inbound media not downloaded; not retried');
        const [row] = await deps.db
          .update(messages)
          .set({ errorReason: MEDIA_NOT_DOWNLOADED })
          .where(and(eq(messages.id, messageId), eq(messages.tenantId, tenantId), isNull(messages.mediaUrl)))
          .returning();
        if (row)
          await deps.events.emitForCard(tenantId, row.cardId, 'message:new', {
            cardId: row.cardId,
            message: { id: row.id, error: MEDIA_NOT_DOWNLOADED, updated: true },
          });
        return;
      }
      const detected = await fileTypeFromBuffer(media.data);
      const declared = contentType ?? media.contentType;
      const extension = extensionForMime(detected?.mime) ?? extensionForMime(declared) ?? FALLBACK_EXTENSION;
      const stored = await deps.storage.save(tenantId, media.data, extension);
      const row = await deps.db.transaction(async (tx) => {
        const [updated] = await tx
          .update(messages)
          .set({ mediaUrl: stored, mediaMime: detected?.mime ?? declared ?? null })
          .where(and(eq(messages.id, messageId), eq(messages.tenantId, tenantId)))
          .returning();
        if (updated?.type === 'audio')
          await deps.domainEvents.publish(tx, { type: 'voice-note.stored', tenantId, payload: { messageId, cardId: updated.cardId } });
        return updated;
      });
      if (row)
        await deps.events.emitForCard(tenantId, row.cardId, 'message:new', { cardId: row.cardId, message: { id: row.id, mediaUrl: stored, updated: true } });
    },
  });

  /**
   * Tells the customer's WhatsApp that the business read up to this inbound message. Best effort: the chat is
   * already read on our side, so a receipt that finally fails is only logged (by the queue after the last
   * retry, here when it cannot succeed).
   */
  const sendReadReceipt = defineJob({
    name: 'chats.send-read-receipt',
    payload: z.object({ tenantId: z.uuid(), messageId: z.uuid() }),
    maxAttempts: READ_RECEIPT_MAX_ATTEMPTS,
    backoff: { baseMs: 2_000, maxMs: 5 * 60_000 },
    handler: async ({ tenantId, messageId }) => {
      const [row] = await deps.db
        .select()
        .from(messages)
        .where(and(eq(messages.id, messageId), eq(messages.tenantId, tenantId), eq(messages.sender, 'contact')))
        .limit(1);
      // An inbound message's provider id is its WhatsApp id (the webhook's `payload.id`).
      const tenant = row?.providerMessageId ? await findTenantById(deps.db, tenantId) : undefined;
      if (!row?.providerMessageId || !tenant) return;
      const line = await deps.lines.active(tenant);
      if (!line) return;
      try {
        await line.markRead(row.providerMessageId);
      } catch (error) {
        // Retrying helps an outage, not a refusal or missing partner credentials (an AppError).
        const final = (error instanceof ProviderError && !error.retryable) || error instanceof AppError;
        if (!final) throw error;
        deps.log.warn({ err: error, tenantId, messageId }, 'WhatsApp read receipt not sent; not retried');
      }
    },
  });

  /**
   * Tells the customer's WhatsApp a member's reaction as it now is (a later change sends the newest one; none left
   * takes it back). Retried through outages; a refusal is only logged: the chat keeps showing the member's reaction.
   */
  const sendReaction = defineJob({
    name: 'chats.send-reaction',
    payload: z.object({ tenantId: z.uuid(), messageId: z.uuid(), userId: z.uuid() }),
    maxAttempts: READ_RECEIPT_MAX_ATTEMPTS,
    backoff: { baseMs: 2_000, maxMs: 5 * 60_000 },
    handler: async ({ tenantId, messageId, userId }) => {
      const [row] = await deps.db
        .select({ message: messages, phone: cards.phone })
        .from(messages)
        .innerJoin(cards, eq(cards.id, messages.cardId))
        .where(and(eq(messages.id, messageId), eq(messages.tenantId, tenantId)))
        .limit(1);
      const whatsappId = row ? whatsappIdOf(row.message) : undefined;
      const line = whatsappId ? await deps.lines.activeOf(tenantId) : undefined;
      if (!row || !whatsappId || !line?.react) return;
      const emoji = row.message.reactions?.find((reaction) => reaction.userId === userId)?.emoji ?? '';
      try {
        await line.react(row.phone, whatsappId, emoji);
      } catch (error) {
        const final = (error instanceof ProviderError && !error.retryable) || error instanceof AppError;
        if (!final) throw error;
        deps.log.warn({ err: error, tenantId, messageId }, 'WhatsApp reaction not sent; not retried');
      }
    },
  });

  return { sendMessage, downloadMedia, sendReadReceipt, sendReaction };
}

export class ScheduledAlreadyHandled extends Error {}

/** Sends a scheduled item at its time: the message, its send job and the item's status commit together. */
export function createScheduledJob(deps: OutboundDeps) {
  return defineJob({
    name: 'chats.send-scheduled',
    payload: z.object({ tenantId: z.uuid(), scheduledId: z.uuid() }),
    maxAttempts: 5,
    handler: async ({ tenantId, scheduledId }) => {
      const [item] = await deps.db
        .select()
        .from(scheduledMessages)
        .where(and(eq(scheduledMessages.tenantId, tenantId), eq(scheduledMessages.id, scheduledId)))
        .limit(1);
      if (!item || item.status !== 'scheduled') return;
      const card = await findCard(deps.db, tenantId, item.cardId);
      if (!card) return;
      let draft: OutboundDraft = { type: 'text', text: item.text };
      if (item.templateId) {
        try {
          draft = templateDraft(await templateForSending(deps.db, tenantId, item.templateId), item.variables as Record<string, string> | string[] | null);
          await assertMarketingAllowed(deps.db, tenantId, card.contactId, draft.templateCategory);
        } catch (error) {
          // The template was deleted or is no longer approved since the item was scheduled, or it is a marketing one and
          // the customer opted out meanwhile: nothing can go out.
          if (!(error instanceof AppError)) throw error;
          await deps.db
            .update(scheduledMessages)
            .set({ status: 'failed', errorReason: error.message })
            .where(and(eq(scheduledMessages.id, item.id), eq(scheduledMessages.status, 'scheduled')));
          deps.events.emit(tenantId, card.funnelId, 'scheduled:updated', { cardId: card.id, scheduled: { id: item.id, status: 'failed' } });
          return;
        }
      }
      try {
        await queueOutbound(deps, { tenantId, userId: item.authorUserId }, card, draft, {
          sender: item.sender,
          alsoInTransaction: async (tx, message) => {
            const [marked] = await tx
              .update(scheduledMessages)
              .set({ status: 'sent', sentMessageId: message.id })
              .where(and(eq(scheduledMessages.id, item.id), eq(scheduledMessages.status, 'scheduled')))
              .returning();
            if (!marked) throw new ScheduledAlreadyHandled();
          },
        });
        // The sent message itself arrives as message:new; the chat drops the scheduled item.
        deps.events.emit(tenantId, card.funnelId, 'scheduled:updated', { cardId: card.id, scheduled: { id: item.id, status: 'sent' } });
      } catch (error) {
        if (!(error instanceof ScheduledAlreadyHandled)) throw error;
      }
    },
  });
}
