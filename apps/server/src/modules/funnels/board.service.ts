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

/** A column's cards: how many, their unread messages, and how many individual and group chats have any unread. */
interface ColumnTally {
  funnelId: string;
  columnId: string;
  total: number;
  unreadMessages: number;
  unreadIndividual: number;
  unreadGroup: number;
}

/**
 * The company's cards counted per funnel and column (of one funnel when given), in one pass: what the funnel selector
 * and the board's counters show. The selector's sums and the board's counts were two passes over the same cards
 * (13 and 8 ms of the board's 33 on PGlite with 10,000 chats), the first sorting them all to group by funnel.
 */
async function columnTallies(executor: DbExecutor, tenantId: string, funnelId?: string): Promise<ColumnTally[]> {
  return executor
    .select({
      funnelId: cards.funnelId,
      columnId: cards.columnId,
      total: sql<number>`count(*)::int`,
      unreadMessages: sql<number>`coalesce(sum(${cards.unreadCount}), 0)::int`,
      unreadIndividual: sql<number>`(count(*) filter (where ${cards.unreadCount} > 0 and not ${cards.isGroup}))::int`,
      unreadGroup: sql<number>`(count(*) filter (where ${cards.unreadCount} > 0 and ${cards.isGroup}))::int`,
    })
    .from(cards)
    .where(and(eq(cards.tenantId, tenantId), funnelId === undefined ? undefined : eq(cards.funnelId, funnelId)))
    .groupBy(cards.funnelId, cards.columnId);
}

/** The funnels the actor may see, each with its unread total (from `tallies` when the caller counted already). */
export async function funnelSummaries(executor: DbExecutor, tenantId: string, actor: Actor, tallies?: ColumnTally[]): Promise<Funnel[]> {
  const [visible, counted] = await Promise.all([
    executor
      .select({ id: funnels.id, name: funnels.name })
      .from(funnels)
      .where(and(eq(funnels.tenantId, tenantId), funnelVisibleTo(actor)))
      .orderBy(asc(funnels.position), asc(funnels.createdAt)),
    tallies ?? columnTallies(executor, tenantId),
  ]);
  const unreadOf = (funnelId: string) => counted.reduce((sum, tally) => (tally.funnelId === funnelId ? sum + tally.unreadMessages : sum), 0);
  return visible.map((funnel) => ({ ...funnel, unreadCount: unreadOf(funnel.id) }));
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

/**
 * The board: columns with the first page of their card summaries (never message histories) and every column's total
 * (from `companyTallies` when the caller counted the company's cards already).
 */
export async function funnelBoard(
  executor: DbExecutor,
  tenantId: string,
  actor: Actor,
  funnelId: string,
  perColumn = BOARD_PAGE_SIZE,
  companyTallies?: ColumnTally[],
): Promise<Board> {
  const columns = await funnelColumns(executor, tenantId, actor, funnelId);
  const tallies = companyTallies?.filter((tally) => tally.funnelId === funnelId) ?? (await columnTallies(executor, tenantId, funnelId));
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
  const tallies = await columnTallies(executor, tenantId);
  const funnelList = await funnelSummaries(executor, tenantId, actor, tallies);
  const funnelId = shownFunnelId(funnelList, selectedId);
  return { funnels: funnelList, board: funnelId ? await funnelBoard(executor, tenantId, actor, funnelId, BOARD_PAGE_SIZE, tallies) : null };
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
