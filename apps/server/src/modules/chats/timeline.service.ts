import { and, desc, eq, lt, or, type Column } from 'drizzle-orm';
import { contacts, messages, notes, scheduledMessages } from '../../../db/schema/index.ts';
import type { DbExecutor } from '../../platform/db/database.ts';
import type { ChatContext, Timeline } from '@embudo/contracts/http/chats';
import type { CardRow } from '../funnels/index.ts';
import { toMessageDto } from './message-dto.ts';

export const DEFAULT_PAGE_SIZE = 50;

export interface TimelineCursor {
  at: Date;
  id: string;
}

export function encodeCursor(cursor: TimelineCursor) {
  return Buffer.from(`${cursor.at.toISOString()}|${cursor.id}`).toString('base64url');
}

export function decodeCursor(value: string): TimelineCursor | undefined {
  const [at, id] = Buffer.from(value, 'base64url').toString().split('|');
  const date = at ? new Date(at) : undefined;
  return date && !Number.isNaN(date.getTime()) && id && /^[0-9a-f-]{36}$/.test(id) ? { at: date, id } : undefined;
}

const before = (createdAt: Column, id: Column, cursor?: TimelineCursor) =>
  cursor ? or(lt(createdAt, cursor.at), and(eq(createdAt, cursor.at), lt(id, cursor.id))) : undefined;

/** The ad fields the chat shows; the stored referral may carry more (media, Meta's click id). */
function adReferralOf(stored: Record<string, string> | null): ChatContext['adReferral'] {
  if (!stored) return null;
  const { headline, body, sourceUrl, sourceId, sourceType } = stored;
  return Object.fromEntries(Object.entries({ headline, body, sourceUrl, sourceId, sourceType }).filter(([, value]) => typeof value === 'string'));
}

/**
 * A card's messages, notes and scheduled items in time order, newest page first and read
 * backwards by cursor; each kind is fetched by its (card, time, id) index, so the cost of a page
 * does not grow with the chat's length. Every page also carries the chat's context: the ad the customer came from
 * (on the card the caller already read) and their marketing choice (one read of the contact by its key).
 */
export async function cardTimeline(
  executor: DbExecutor,
  tenantId: string,
  card: Pick<CardRow, 'id' | 'contactId' | 'adReferral'>,
  options: { cursor?: TimelineCursor; limit?: number } = {},
): Promise<Timeline> {
  const limit = options.limit ?? DEFAULT_PAGE_SIZE;
  const cardId = card.id;
  const [messageRows, noteRows, scheduledRows, [contact]] = await Promise.all([
    executor
      .select()
      .from(messages)
      .where(and(eq(messages.tenantId, tenantId), eq(messages.cardId, cardId), before(messages.createdAt, messages.id, options.cursor)))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(limit + 1),
    executor
      .select()
      .from(notes)
      .where(and(eq(notes.tenantId, tenantId), eq(notes.cardId, cardId), before(notes.createdAt, notes.id, options.cursor)))
      .orderBy(desc(notes.createdAt), desc(notes.id))
      .limit(limit + 1),
    executor
      .select()
      .from(scheduledMessages)
      .where(
        and(
          eq(scheduledMessages.tenantId, tenantId),
          eq(scheduledMessages.cardId, cardId),
          eq(scheduledMessages.status, 'scheduled'),
          before(scheduledMessages.createdAt, scheduledMessages.id, options.cursor),
        ),
      )
      .orderBy(desc(scheduledMessages.createdAt), desc(scheduledMessages.id))
      .limit(limit + 1),
    executor
      .select({ marketingOptedOutAt: contacts.marketingOptedOutAt })
      .from(contacts)
      .where(and(eq(contacts.tenantId, tenantId), eq(contacts.id, card.contactId))),
  ]);

  const items = [
    ...messageRows.map((row) => ({ at: row.createdAt, id: row.id, item: { kind: 'message' as const, ...toMessageDto(row) } })),
    ...noteRows.map((row) => ({
      at: row.createdAt,
      id: row.id,
      item: {
        kind: 'note' as const,
        id: row.id,
        author: row.authorName,
        text: row.text,
        timestamp: row.createdAt.toISOString(),
        raw_timestamp: row.createdAt.getTime(),
      },
    })),
    ...scheduledRows.map((row) => ({
      at: row.createdAt,
      id: row.id,
      item: {
        kind: 'scheduled' as const,
        id: row.id,
        author: row.authorName,
        scheduledFor: row.scheduledFor.toISOString(),
        text: row.text,
        templateId: row.templateId,
        variables: row.variables,
        status: row.status,
        raw_timestamp: row.createdAt.getTime(),
      },
    })),
  ].sort((a, b) => b.at.getTime() - a.at.getTime() || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0));

  const page = items.slice(0, limit);
  const last = page[page.length - 1];
  const hasMore = items.length > limit;
  return {
    messages: page.flatMap(({ item }) => (item.kind === 'message' ? [item] : [])).reverse(),
    notes: page.flatMap(({ item }) => (item.kind === 'note' ? [item] : [])).reverse(),
    scheduledMessages: page.flatMap(({ item }) => (item.kind === 'scheduled' ? [item] : [])).reverse(),
    items: page.map((entry) => entry.item).reverse(),
    nextCursor: hasMore && last ? encodeCursor({ at: last.at, id: last.id }) : null,
    context: { adReferral: adReferralOf(card.adReferral), marketingOptedOutAt: contact?.marketingOptedOutAt?.toISOString() ?? null },
  };
}
