import { and, desc, eq, ilike, inArray, like, or, sql } from 'drizzle-orm';
import { aiTakeOverReasons, type CardSummary } from '@embudo/contracts/http/funnels';
import { cards } from '../../../db/schema/index.ts';
import type { DbExecutor } from '../../platform/db/database.ts';
import { seesAllFunnels, type Actor } from '../../platform/policy/policy.ts';
import { columnAnswers, firstColumn } from './funnels.service.ts';
import { isAnyOf, unnestRows } from '../../platform/db/array-params.ts';

export type CardRow = typeof cards.$inferSelect;
/** A card as the board shows it and card_updated carries it (cardSummaryColumns). */
export type CardSummaryRow = Pick<CardRow, keyof typeof cardSummaryColumns>;

export async function findCard(executor: DbExecutor, tenantId: string, cardId: string): Promise<CardRow | undefined> {
  const [row] = await executor
    .select()
    .from(cards)
    .where(and(eq(cards.tenantId, tenantId), eq(cards.id, cardId)))
    .limit(1);
  return row;
}

/** Of these chats, the ones whose AI assistant switch is on and that are not archived: the assistant answers only there. */
export async function cardsWithAiOn(executor: DbExecutor, tenantId: string, cardIds: string[]): Promise<Set<string>> {
  const rows = await executor
    .select({ id: cards.id })
    .from(cards)
    .where(and(eq(cards.tenantId, tenantId), isAnyOf(cards.id, cardIds), eq(cards.aiEnabled, true), eq(cards.archived, false)));
  return new Set(rows.map((row) => row.id));
}

export async function findCardByContact(executor: DbExecutor, tenantId: string, contactId: string): Promise<CardRow | undefined> {
  const [row] = await executor
    .select()
    .from(cards)
    .where(and(eq(cards.tenantId, tenantId), eq(cards.contactId, contactId)))
    .limit(1);
  return row;
}

/** The chat of a customer's phone (or a group's id). */
export async function findCardByPhone(executor: DbExecutor, tenantId: string, phone: string): Promise<CardRow | undefined> {
  const [row] = await executor
    .select()
    .from(cards)
    .where(and(eq(cards.tenantId, tenantId), eq(cards.phone, phone)))
    .limit(1);
  return row;
}

export interface CardPlace {
  columnId: string;
  funnelId: string;
}

/** A name for the chat learnt from outside: the customer's WhatsApp profile (or the group's name), or a bulk file's name column. */
export interface LearntName {
  name: string;
  source: 'profile' | 'file';
}

/** Which title wins: a rename by hand is never replaced, a name the business put in its file outranks a profile name. */
const titleStrength: Record<CardRow['titleSource'], number> = { phone: 0, profile: 1, file: 2, hand: 3 };

/**
 * The contact's card, or a new one in the landing column (the auto-bot's trigger column when the
 * caller names one, else the first column of the first funnel). Answers whether it was created.
 * A name learnt with the message titles a new card, and retitles an existing one whose title is weaker.
 */
export async function findOrCreateCard(
  executor: DbExecutor,
  tenantId: string,
  contact: CardRequest['contact'],
  landing?: () => Promise<CardPlace | undefined>,
  learnt?: LearntName,
): Promise<{ card: CardRow; created: boolean }> {
  const [answer] = await findOrCreateCards(executor, tenantId, [{ contact, learnt }], landing);
  return answer!;
}

/** What `findOrCreateCards` takes for each message: whose chat, and the name it taught. */
export interface CardRequest {
  contact: { id: string; phone: string; name: string | null; isGroup: boolean };
  learnt?: LearntName;
}

/**
 * `findOrCreateCard` for several messages at once (a batch of deliveries, a bulk send's slice), answering in the
 * requests' order: the existing cards in one read, the missing ones created together in the landing column (asked
 * once), each by the first request for its contact; later requests for that contact find it, and may retitle it.
 */
export async function findOrCreateCards(
  executor: DbExecutor,
  tenantId: string,
  requests: readonly CardRequest[],
  landing?: () => Promise<CardPlace | undefined>,
): Promise<Array<{ card: CardRow; created: boolean }>> {
  const contactIds = [...new Set(requests.map((request) => request.contact.id))];
  const known = new Map<string, CardRow>();
  if (contactIds.length > 0) {
    const rows = await executor
      .select()
      .from(cards)
      .where(and(eq(cards.tenantId, tenantId), isAnyOf(cards.contactId, contactIds)));
    for (const row of rows) known.set(row.contactId, row);
  }
  const firstRequests = new Map<string, CardRequest>();
  for (const request of requests) if (!known.has(request.contact.id) && !firstRequests.has(request.contact.id)) firstRequests.set(request.contact.id, request);
  const created = await createCards(executor, tenantId, [...firstRequests.values()], landing);
  const answers: Array<{ card: CardRow; created: boolean }> = [];
  for (const request of requests) {
    const madeNow = firstRequests.get(request.contact.id) === request ? created.get(request.contact.id) : undefined;
    const answer = madeNow ?? { card: await retitleWithLearntName(executor, known.get(request.contact.id)!, request.learnt), created: false };
    known.set(request.contact.id, answer.card);
    answers.push(answer);
  }
  return answers;
}

/**
 * New cards in the landing column, by contact; a card another transaction created meanwhile is found instead
 * (retitled, and not counted as created).
 */
async function createCards(
  executor: DbExecutor,
  tenantId: string,
  requests: readonly CardRequest[],
  landing: (() => Promise<CardPlace | undefined>) | undefined,
): Promise<Map<string, { card: CardRow; created: boolean }>> {
  const answers = new Map<string, { card: CardRow; created: boolean }>();
  if (requests.length === 0) return answers;
  const column = (await landing?.()) ?? (await firstColumn(executor, tenantId));
  if (!column) throw new Error(`tenant ${tenantId} has no column to receive chats`);
  // A new chat in a column whose AI assistant is on starts with its AI on (issue 15), as a chat moved there does.
  const aiEnabled = await columnAnswers(executor, tenantId, column.columnId);
  const inserted = await executor
    .insert(cards)
    .values(
      requests.map(({ contact, learnt }): typeof cards.$inferInsert => {
        const named = learnt ?? (contact.name ? { name: contact.name, source: 'profile' as const } : undefined);
        return {
          tenantId,
          funnelId: column.funnelId,
          columnId: column.columnId,
          contactId: contact.id,
          phone: contact.phone,
          isGroup: contact.isGroup,
          title: named?.name ?? contact.phone,
          titleSource: named?.source ?? 'phone',
          aiEnabled,
        };
      }),
    )
    .onConflictDoNothing()
    .returning();
  for (const card of inserted) answers.set(card.contactId, { card, created: true });
  for (const { contact, learnt } of requests) {
    if (answers.has(contact.id)) continue;
    answers.set(contact.id, {
      card: await retitleWithLearntName(executor, (await findCardByContact(executor, tenantId, contact.id))!, learnt),
      created: false,
    });
  }
  return answers;
}

async function retitleWithLearntName(executor: DbExecutor, card: CardRow, learnt: LearntName | undefined): Promise<CardRow> {
  const name = learnt?.name.trim();
  if (!learnt || !name || name === card.title || titleStrength[learnt.source] < titleStrength[card.titleSource]) return card;
  const [row] = await executor
    .update(cards)
    .set({ title: name, titleSource: learnt.source })
    .where(and(eq(cards.tenantId, card.tenantId), eq(cards.id, card.id)))
    .returning();
  return row ?? card;
}

/**
 * Puts a card in a column (of any funnel of the tenant): every move goes through here — a person's drag or "Mover a
 * funnel", the auto-bot's menu, a flow's redirect, the assistant's own move, archiving. A chat entering a column takes
 * that column's AI (issue 44): on where its assistant answers, off elsewhere, except that a chat a person took over
 * keeps its AI off until someone switches it on in the chat. A move within the column changes nothing.
 */
export async function placeCard(executor: DbExecutor, tenantId: string, cardId: string, place: CardPlace): Promise<CardRow | undefined> {
  const answers = await columnAnswers(executor, tenantId, place.columnId);
  const entering = sql`${cards.columnId} <> ${place.columnId}::uuid`;
  const takenOver = sql`coalesce(${inArray(cards.aiOffReason, [...aiTakeOverReasons])}, false)`;
  const [row] = await executor
    .update(cards)
    .set({
      columnId: place.columnId,
      funnelId: place.funnelId,
      aiEnabled: sql`case when ${entering} then ${answers}::boolean and not ${takenOver} else ${cards.aiEnabled} end`,
      aiOffReason: sql`case when ${entering} and not ${takenOver} then null else ${cards.aiOffReason} end`,
    })
    .where(and(eq(cards.tenantId, tenantId), eq(cards.id, cardId)))
    .returning();
  return row;
}

export interface CardActivity {
  lastMessageType: string;
  lastMessageText: string | null;
  at: Date;
  fromContact: boolean;
  countsAsUnread: boolean;
}

/** Applies one message to the card summary the board shows. */
export async function recordCardActivity(executor: DbExecutor, tenantId: string, cardId: string, activity: CardActivity): Promise<CardSummaryRow> {
  return (await recordCardsActivity(executor, tenantId, [{ cardId, activity }])).get(cardId)!;
}

/**
 * `recordCardActivity` for several messages in one statement (a batch of deliveries): per card, the last activity in
 * the given order sets the preview, the newest time wins and every counted message adds one unread. Answers the
 * cards as they end up, by id.
 */
export async function recordCardsActivity(
  executor: DbExecutor,
  tenantId: string,
  activities: ReadonlyArray<{ cardId: string; activity: CardActivity }>,
): Promise<Map<string, CardSummaryRow>> {
  const perCard = new Map<string, { last: CardActivity; at: Date; contactAt: Date | null; unread: number }>();
  for (const { cardId, activity } of activities) {
    const seen = perCard.get(cardId);
    const contactAt = activity.fromContact ? activity.at : null;
    perCard.set(cardId, {
      last: activity,
      at: seen && seen.at > activity.at ? seen.at : activity.at,
      contactAt: seen?.contactAt && (!contactAt || seen.contactAt > contactAt) ? seen.contactAt : contactAt,
      unread: (seen?.unread ?? 0) + (activity.countsAsUnread ? 1 : 0),
    });
  }
  if (perCard.size === 0) return new Map();
  const activity = unnestRows(
    'activity',
    { card_id: 'uuid', last_type: 'text', last_text: 'text', at: 'timestamptz', contact_at: 'timestamptz', unread: 'int' },
    [...perCard].map(([cardId, card]) => ({
      card_id: cardId,
      last_type: card.last.lastMessageType,
      last_text: card.last.lastMessageText,
      at: card.at.toISOString(),
      contact_at: card.contactAt?.toISOString() ?? null,
      unread: String(card.unread),
    })),
  );
  const rows = await executor
    .update(cards)
    .set({
      lastMessageType: sql`activity.last_type`,
      lastMessageText: sql`activity.last_text`,
      lastActivityAt: sql`greatest(${cards.lastActivityAt}, activity.at)`,
      contactLastMessageAt: sql`case when activity.contact_at is null then ${cards.contactLastMessageAt} else greatest(coalesce(${cards.contactLastMessageAt}, activity.contact_at), activity.contact_at) end`,
      unreadCount: sql`${cards.unreadCount} + activity.unread`,
      archived: false,
    })
    .from(activity)
    .where(and(eq(cards.tenantId, tenantId), sql`${cards.id} = activity.card_id`))
    // What the callers announce (card_updated) and route by: PostgreSQL writes each returned column out as text.
    .returning(cardSummaryColumns);
  return new Map(rows.map((row) => [row.id, row]));
}

/** The card fields the board shows: what a board answer and card_updated carry, never messages. */
export const cardSummaryColumns = {
  id: cards.id,
  funnelId: cards.funnelId,
  columnId: cards.columnId,
  title: cards.title,
  phone: cards.phone,
  isGroup: cards.isGroup,
  unreadCount: cards.unreadCount,
  lastMessageType: cards.lastMessageType,
  lastMessageText: cards.lastMessageText,
  lastActivityAt: cards.lastActivityAt,
  contactLastMessageAt: cards.contactLastMessageAt,
  aiEnabled: cards.aiEnabled,
  aiOffReason: cards.aiOffReason,
};

/** A card shows two lines of its last message; the whole text lives in the chat. */
export const PREVIEW_MAX_CHARS = 160;

export function toCardUpdate(card: CardSummaryRow): CardSummary {
  return {
    id: card.id,
    funnelId: card.funnelId,
    columnId: card.columnId,
    title: card.title,
    phone: card.phone,
    isGroup: card.isGroup,
    unreadCount: card.unreadCount,
    lastMessageType: card.lastMessageType,
    lastMessageText:
      card.lastMessageText && card.lastMessageText.length > PREVIEW_MAX_CHARS
        ? `${card.lastMessageText.slice(0, PREVIEW_MAX_CHARS - 1)}…`
        : card.lastMessageText,
    lastActivityAt: card.lastActivityAt.toISOString(),
    contactLastMessageAt: card.contactLastMessageAt ? card.contactLastMessageAt.toISOString() : null,
    aiEnabled: card.aiEnabled,
    aiOffReason: card.aiOffReason,
  };
}

export type { CardSummary };

export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/**
 * The people the tenant chats with (never groups) whose chat name or phone contains `query`, from
 * the funnels the actor may see, most recently active first: the agenda's client search.
 */
export async function searchChatContacts(executor: DbExecutor, tenantId: string, actor: Actor, query: string, limit = 10) {
  const text = query.trim();
  if (!text) return [];
  if (!seesAllFunnels(actor) && actor.funnelIds.length === 0) return [];
  const digits = text.replace(/\D/g, '');
  const rows = await executor
    .select({ id: cards.contactId, name: cards.title, phone: cards.phone })
    .from(cards)
    .where(
      and(
        eq(cards.tenantId, tenantId),
        eq(cards.isGroup, false),
        seesAllFunnels(actor) ? undefined : inArray(cards.funnelId, [...actor.funnelIds]),
        or(ilike(cards.title, `%${escapeLike(text)}%`), digits ? like(cards.phone, `%${digits}%`) : undefined),
      ),
    )
    .orderBy(desc(cards.lastActivityAt))
    .limit(limit);
  return rows;
}

/** Keeps the click-to-WhatsApp ad a chat's customer first came from (a later ad does not replace it). */
export async function keepAdReferral(executor: DbExecutor, tenantId: string, cardId: string, referral: Record<string, string>) {
  await executor
    .update(cards)
    .set({ adReferral: referral })
    .where(and(eq(cards.tenantId, tenantId), eq(cards.id, cardId), sql`${cards.adReferral} is null`));
}
