import { and, asc, desc, eq, ilike, or, sql } from 'drizzle-orm';
import {
  BOARD_PAGE_SIZE,
  type Board,
  type ColumnCardsPage,
  type ColumnCardsQuery,
  type Funnel,
  type NamedColumn,
  type ShownBoard,
} from '@embudo/contracts/http/funnels';
import { shownFunnelId } from '@embudo/contracts/shown-funnel';
import { boardColumns, cards, funnels } from '../../../db/schema/index.ts';
import type { DbExecutor } from '../../platform/db/database.ts';
import { badRequest, notFound } from '../../platform/errors/app-error.ts';
import { canSeeFunnel, type Actor } from '../../platform/policy/policy.ts';
import { cardSummaryColumns, escapeLike, toCardUpdate } from './cards.service.ts';
import { columnDto } from './column-dto.ts';
import { funnelVisibleTo, visibleColumnPlace } from './funnels.service.ts';

export const FUNNEL_NOT_FOUND = 'Funnel no encontrado.';
export const COLUMN_NOT_FOUND = 'Columna no encontrada.';

/** The funnels the actor may see, each with its unread total. */
export async function funnelSummaries(executor: DbExecutor, tenantId: string, actor: Actor): Promise<Funnel[]> {
  const rows = await executor
    .select({ id: funnels.id, name: funnels.name, unreadCount: sql<number>`coalesce(sum(${cards.unreadCount}), 0)::int` })
    .from(funnels)
    .leftJoin(cards, and(eq(cards.funnelId, funnels.id), eq(cards.tenantId, tenantId)))
    .where(and(eq(funnels.tenantId, tenantId), funnelVisibleTo(actor)))
    .groupBy(funnels.id, funnels.name, funnels.position, funnels.createdAt)
    .orderBy(asc(funnels.position), asc(funnels.createdAt));
  return rows;
}

async function visibleFunnel(executor: DbExecutor, tenantId: string, actor: Actor, funnelId: string) {
  const [funnel] = await executor
    .select()
    .from(funnels)
    .where(and(eq(funnels.tenantId, tenantId), eq(funnels.id, funnelId)))
    .limit(1);
  if (!funnel || !canSeeFunnel(actor, funnel.id)) throw notFound(FUNNEL_NOT_FOUND);
  return funnel;
}

export async function funnelColumns(executor: DbExecutor, tenantId: string, actor: Actor, funnelId: string): Promise<NamedColumn[]> {
  const funnel = await visibleFunnel(executor, tenantId, actor, funnelId);
  const rows = await executor
    .select()
    .from(boardColumns)
    .where(and(eq(boardColumns.tenantId, tenantId), eq(boardColumns.funnelId, funnel.id)))
    .orderBy(asc(boardColumns.position), asc(boardColumns.createdAt));
  return rows.map((column) => ({ ...columnDto(column), funnelName: funnel.name }));
}

/** The board: columns with the first page of their card summaries (never message histories) and every column's total. */
export async function funnelBoard(executor: DbExecutor, tenantId: string, actor: Actor, funnelId: string, perColumn = BOARD_PAGE_SIZE): Promise<Board> {
  const columns = await funnelColumns(executor, tenantId, actor, funnelId);
  const tallies = await executor
    .select({
      columnId: cards.columnId,
      total: sql<number>`count(*)::int`,
      unreadIndividual: sql<number>`(count(*) filter (where ${cards.unreadCount} > 0 and not ${cards.isGroup}))::int`,
      unreadGroup: sql<number>`(count(*) filter (where ${cards.unreadCount} > 0 and ${cards.isGroup}))::int`,
    })
    .from(cards)
    .where(and(eq(cards.tenantId, tenantId), eq(cards.funnelId, funnelId)))
    .groupBy(cards.columnId);
  const pages = await Promise.all(columns.map((column) => cardsPage(executor, tenantId, column.id, { limit: perColumn })));
  const totalOf = (columnId: string) => tallies.find((tally) => tally.columnId === columnId)?.total ?? 0;
  const sum = (key: 'total' | 'unreadIndividual' | 'unreadGroup') => tallies.reduce((total, tally) => total + tally[key], 0);
  return {
    funnel: { id: funnelId, name: columns[0]?.funnelName ?? (await visibleFunnel(executor, tenantId, actor, funnelId)).name },
    columns: columns.map((column, index) => ({ ...column, cards: pages[index]!.cards, cardCount: totalOf(column.id), nextCursor: pages[index]!.nextCursor })),
    counters: { unreadIndividual: sum('unreadIndividual'), unreadGroup: sum('unreadGroup'), totalContacts: sum('total') },
  };
}

export const INVALID_CURSOR = 'Cursor inválido.';

/** Where a page ends: the last card's place in the order (its activity time in microseconds, exact, and its id). */
interface CardCursor {
  unread: boolean;
  micros: bigint;
  id: string;
}

const encodeCursor = (cursor: CardCursor) => Buffer.from(`${cursor.unread ? 1 : 0}.${cursor.micros}.${cursor.id}`).toString('base64url');

function decodeCursor(text: string): CardCursor {
  const match = /^([01])\.(\d{1,20})\.([0-9a-f-]{36})$/.exec(Buffer.from(text, 'base64url').toString());
  if (!match) throw badRequest(INVALID_CURSOR);
  return { unread: match[1] === '1', micros: BigInt(match[2]!), id: match[3]! };
}

const activityMicros = sql<string>`(extract(epoch from ${cards.lastActivityAt}) * 1000000)::bigint::text`;
const microsToTimestamp = (micros: bigint) => sql`(timestamptz 'epoch' + ${micros.toString()}::bigint * interval '1 microsecond')`;
const hasUnread = sql`(${cards.unreadCount} > 0)`;

/** The chats of a column matching the search, in the requested order, from a cursor on (stable while cards change). */
async function cardsPage(executor: DbExecutor, tenantId: string, columnId: string, query: ColumnCardsQuery) {
  const limit = query.limit ?? BOARD_PAGE_SIZE;
  const unreadFirst = query.sort === 'unread';
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const afterTime = after && microsToTimestamp(after.micros);
  const rows = await executor
    .select({ ...cardSummaryColumns, micros: activityMicros })
    .from(cards)
    .where(
      and(
        eq(cards.tenantId, tenantId),
        eq(cards.columnId, columnId),
        searchCondition(query.search),
        after &&
          (unreadFirst
            ? sql`(${hasUnread}::int, ${cards.lastActivityAt}, ${cards.id}) < (${after.unread ? 1 : 0}, ${afterTime}, ${after.id}::uuid)`
            : sql`(${cards.lastActivityAt}, ${cards.id}) < (${afterTime}, ${after.id}::uuid)`),
      ),
    )
    .orderBy(...(unreadFirst ? [desc(hasUnread)] : []), desc(cards.lastActivityAt), desc(cards.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    cards: page.map(toCardUpdate),
    nextCursor: rows.length > limit && last ? encodeCursor({ unread: last.unreadCount > 0, micros: BigInt(last.micros), id: last.id }) : null,
  };
}

function searchCondition(search: string | undefined) {
  const needle = search?.trim();
  if (!needle) return undefined;
  const pattern = `%${escapeLike(needle)}%`;
  return or(ilike(cards.title, pattern), ilike(cards.phone, pattern), ilike(cards.lastMessageText, pattern));
}

/** The funnels the actor may see and the board of the one shown: `selectedId` while it is among them, otherwise the first. */
export async function shownBoard(executor: DbExecutor, tenantId: string, actor: Actor, selectedId: string | undefined): Promise<ShownBoard> {
  const funnelList = await funnelSummaries(executor, tenantId, actor);
  const funnelId = shownFunnelId(funnelList, selectedId);
  return { funnels: funnelList, board: funnelId ? await funnelBoard(executor, tenantId, actor, funnelId) : null };
}

/** A page of a column's chats (GET /api/columns/{id}/cards), with how many match in all. */
export async function columnCards(executor: DbExecutor, tenantId: string, actor: Actor, columnId: string, query: ColumnCardsQuery): Promise<ColumnCardsPage> {
  const place = await visibleColumnPlace(executor, tenantId, actor, columnId);
  if (!place) throw notFound(COLUMN_NOT_FOUND);
  const [page, [tally]] = await Promise.all([
    cardsPage(executor, tenantId, columnId, query),
    executor
      .select({ total: sql<number>`count(*)::int` })
      .from(cards)
      .where(and(eq(cards.tenantId, tenantId), eq(cards.columnId, columnId), searchCondition(query.search))),
  ]);
  return { ...page, total: tally?.total ?? 0 };
}
