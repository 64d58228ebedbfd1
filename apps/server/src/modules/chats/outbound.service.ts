import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNotNull } from 'drizzle-orm';
import { WINDOW_CLOSED_FILES, WINDOW_CLOSED_TEXT, windowIsOpen } from '@embudo/contracts/http/chats';
import { cards, messages, notes } from '../../../db/schema/index.ts';
import type { Db, Tx } from '../../platform/db/database.ts';
import { badRequest, notFound } from '../../platform/errors/app-error.ts';
import { requireFunnelVisible, requireWriter, type Actor } from '../../platform/policy/policy.ts';
import { findCard, recordCardsActivity, toCardUpdate, type CardRow, type CardSummaryRow } from '../funnels/index.ts';
import type { EventPublisher } from '../../platform/events/index.ts';
import type { ChatEvents } from './chat-events.ts';
import { toMessageDto, type MessageRow } from './message-dto.ts';
import { emitNewMessage } from './inbound.service.ts';

export const CARD_NOT_FOUND = 'Chat no encontrado.';

export interface OutboundDeps {
  db: Db;
  events: ChatEvents;
  /** Domain events (card moves, message statuses...), written in the transaction of the change. */
  domainEvents: EventPublisher;
  /** Records send jobs in the caller's transaction (outbox): the rows and their jobs commit together; one chat's sends go out in order. */
  enqueueSends: (tx: Tx, sends: ReadonlyArray<{ tenantId: string; messageId: string; cardId: string }>) => Promise<unknown>;
}

export interface Author {
  tenantId: string;
  actor: Actor;
  userName: string;
}

/** The card, if it exists in the tenant and its funnel is visible to the actor. */
export async function visibleCard(db: Db, author: Author, cardId: string): Promise<CardRow> {
  const card = await findCard(db, author.tenantId, cardId);
  if (!card) throw notFound(CARD_NOT_FOUND);
  requireFunnelVisible(author.actor, card.funnelId, CARD_NOT_FOUND);
  return card;
}

export async function writableCard(db: Db, author: Author, cardId: string): Promise<CardRow> {
  const card = await visibleCard(db, author, cardId);
  requireWriter(author.actor);
  return card;
}

async function quotedOf(tx: Tx, tenantId: string, cardId: string, quotedMessageId: string | null | undefined) {
  if (!quotedMessageId) return undefined;
  const [row] = await tx
    .select()
    .from(messages)
    .where(and(eq(messages.id, quotedMessageId), eq(messages.tenantId, tenantId), eq(messages.cardId, cardId)))
    .limit(1);
  if (!row) throw badRequest('El mensaje citado no existe en este chat.');
  return row;
}

export type OutboundDraft = Pick<
  typeof messages.$inferInsert,
  'type' | 'text' | 'mediaUrl' | 'mediaMime' | 'mediaFileName' | 'templateId' | 'templateCategory' | 'payload'
>;

export interface OutboundOptions {
  tempId?: string | null;
  quotedMessageId?: string | null;
  sender?: 'user' | 'ai';
  /** More writes that must commit or roll back with the message (e.g. marking a scheduled item sent). */
  alsoInTransaction?: (tx: Tx, message: MessageRow) => Promise<void>;
}

/** Inside the caller's transaction: the message at ack 0, its send job (outbox) and the card summary. */
export async function storeOutbound(
  deps: Pick<OutboundDeps, 'enqueueSends'>,
  tx: Tx,
  origin: { tenantId: string; userId: string | null },
  card: Pick<CardRow, 'id'>,
  draft: OutboundDraft,
  options: OutboundOptions,
): Promise<{ message: MessageRow; updatedCard: CardSummaryRow }> {
  const quoted = await quotedOf(tx, origin.tenantId, card.id, options.quotedMessageId);
  const [stored] = await storeOutbounds(deps, tx, origin, [{ card, draft, sender: options.sender, tempId: options.tempId, quoted }]);
  await options.alsoInTransaction?.(tx, stored!.message);
  return stored!;
}

/** One message of `storeOutbounds`. */
export interface OutboundItem {
  card: Pick<CardRow, 'id'>;
  draft: OutboundDraft;
  sender?: 'user' | 'ai';
  tempId?: string | null;
  quoted?: MessageRow;
}

/**
 * `storeOutbound` for many messages (a bulk send's slice) in three statements, answering in the items' order: the
 * messages at ack 0, their send jobs and their cards' summaries.
 */
export async function storeOutbounds(
  deps: Pick<OutboundDeps, 'enqueueSends'>,
  tx: Tx,
  origin: { tenantId: string; userId: string | null },
  items: readonly OutboundItem[],
): Promise<Array<{ message: MessageRow; updatedCard: CardSummaryRow }>> {
  if (items.length === 0) return [];
  // Ids chosen here tie each returned row to its item, whatever order the database answers in.
  const ids = items.map(() => randomUUID());
  const inserted = await tx
    .insert(messages)
    .values(
      items.map(({ card, draft, sender, tempId, quoted }, index) => ({
        id: ids[index],
        tenantId: origin.tenantId,
        cardId: card.id,
        sender: sender ?? 'user',
        authorUserId: origin.userId,
        ...draft,
        tempId: tempId ?? null,
        ack: 0,
        quotedMessageId: quoted?.id ?? null,
        quotedMessageText: quoted?.text ?? null,
        quotedMessageSender: quoted?.sender ?? null,
      })),
    )
    .returning();
  const byId = new Map(inserted.map((message) => [message.id, message]));
  const stored = ids.map((id) => byId.get(id)!);
  await deps.enqueueSends(
    tx,
    stored.map((message) => ({ tenantId: origin.tenantId, messageId: message.id, cardId: message.cardId })),
  );
  const cardsById = await recordCardsActivity(
    tx,
    origin.tenantId,
    stored.map((message, index) => ({
      cardId: message.cardId,
      activity: {
        lastMessageType: items[index]!.draft.type,
        lastMessageText: items[index]!.draft.text ?? null,
        at: message.createdAt,
        fromContact: false,
        countsAsUnread: false,
      },
    })),
  );
  return stored.map((message) => ({ message, updatedCard: cardsById.get(message.cardId)! }));
}

/** Stores an outbound message at ack 0 and its send job in one transaction, then tells the room. */
export async function queueOutbound(
  deps: OutboundDeps,
  origin: { tenantId: string; userId: string | null },
  card: CardRow,
  draft: OutboundDraft,
  options: OutboundOptions,
): Promise<MessageRow> {
  const { message, updatedCard } = await deps.db.transaction(async (tx) => {
    const stored = await storeOutbound(deps, tx, origin, card, draft, options);
    // A person wrote in this chat: the AI assistant steps back (issue 15), decided by its listener.
    if (origin.userId && stored.message.sender === 'user') {
      await deps.domainEvents.publish(tx, { type: 'team-message.sent', tenantId: origin.tenantId, payload: { messageId: stored.message.id, cardId: card.id } });
    }
    return stored;
  });
  emitNewMessage(deps.events, origin.tenantId, updatedCard, message, false);
  return message;
}

export async function sendText(
  deps: OutboundDeps,
  author: Author,
  input: { cardId: string; text: string; tempId?: string | null; quotedMessageId?: string | null },
) {
  const card = await writableCard(deps.db, author, input.cardId);
  if (!windowIsOpen(card.contactLastMessageAt)) throw badRequest(WINDOW_CLOSED_TEXT);
  return toMessageDto(await queueOutbound(deps, { tenantId: author.tenantId, userId: author.actor.userId }, card, { type: 'text', text: input.text }, input));
}

export function assertWindowOpenForFiles(card: CardRow) {
  if (!windowIsOpen(card.contactLastMessageAt)) throw badRequest(WINDOW_CLOSED_FILES);
}

export async function addNote(deps: Pick<OutboundDeps, 'db' | 'events'>, author: Author, input: { cardId: string; text: string }) {
  const card = await writableCard(deps.db, author, input.cardId);
  const [row] = await deps.db
    .insert(notes)
    .values({ tenantId: author.tenantId, cardId: card.id, authorUserId: author.actor.userId, authorName: author.userName, text: input.text })
    .returning();
  const note = {
    id: row!.id,
    cardId: card.id,
    author: row!.authorName,
    text: row!.text,
    timestamp: row!.createdAt.toISOString(),
    raw_timestamp: row!.createdAt.getTime(),
  };
  deps.events.emit(author.tenantId, card.funnelId, 'note:new', { cardId: card.id, note });
  return note;
}

export interface MarkReadDeps extends Pick<OutboundDeps, 'db' | 'events'> {
  /** Records the WhatsApp read-receipt job in the caller's transaction (outbox), so it goes out only if the reset commits. */
  enqueueReadReceipt: (tx: Tx, input: { tenantId: string; messageId: string }) => Promise<unknown>;
}

/**
 * Read state is shared by the team, so marking read is a change: viewers leave it as it is. When something was
 * unread, the customer's WhatsApp is told too, for the newest inbound message (WhatsApp reads the earlier ones with it).
 */
export async function markRead(deps: MarkReadDeps, author: Author, cardId: string) {
  const card = await writableCard(deps.db, author, cardId);
  const cleared = await deps.db.transaction(async (tx) => {
    // The guard makes concurrent opens of one chat send one receipt: only the reset that found unread messages enqueues.
    const [updated] = await tx
      .update(cards)
      .set({ unreadCount: 0 })
      .where(and(eq(cards.tenantId, author.tenantId), eq(cards.id, card.id), gt(cards.unreadCount, 0)))
      .returning();
    if (!updated) return undefined;
    const [newest] = await tx
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.tenantId, author.tenantId), eq(messages.cardId, card.id), eq(messages.sender, 'contact'), isNotNull(messages.providerMessageId)))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(1);
    if (newest) await deps.enqueueReadReceipt(tx, { tenantId: author.tenantId, messageId: newest.id });
    return updated;
  });
  if (!cleared) return toCardUpdate({ ...card, unreadCount: 0 });
  deps.events.emit(author.tenantId, card.funnelId, 'card_updated', toCardUpdate(cleared));
  return toCardUpdate(cleared);
}
