import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Board, Funnel, NamedColumn } from '@embudo/contracts/http/funnels';
import { boardColumns, cards, funnels } from '../../../db/schema/index.ts';
import type { DbExecutor } from '../../platform/db/database.ts';
import { notFound } from '../../platform/errors/app-error.ts';
import { canSeeFunnel, type Actor } from '../../platform/policy/policy.ts';
import { cardSummaryColumns, toCardUpdate, type CardSummary } from './cards.service.ts';
import { columnDto } from './column-dto.ts';
import { funnelVisibleTo } from './funnels.service.ts';

export const FUNNEL_NOT_FOUND = 'Funnel no encontrado.';

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

/** The board: columns with card summaries (never message histories), newest activity first. */
export async function funnelBoard(executor: DbExecutor, tenantId: string, actor: Actor, funnelId: string): Promise<Board> {
  const columns = await funnelColumns(executor, tenantId, actor, funnelId);
  const cardRows = await executor
    .select(cardSummaryColumns)
    .from(cards)
    .where(and(eq(cards.tenantId, tenantId), eq(cards.funnelId, funnelId)))
    .orderBy(desc(cards.lastActivityAt));
  const byColumn = new Map(columns.map((column) => [column.id, [] as CardSummary[]]));
  for (const card of cardRows) byColumn.get(card.columnId)?.push(toCardUpdate(card));
  const counters = {
    unreadIndividual: cardRows.filter((card) => !card.isGroup && card.unreadCount > 0).length,
    unreadGroup: cardRows.filter((card) => card.isGroup && card.unreadCount > 0).length,
    totalContacts: cardRows.length,
  };
  return {
    funnel: { id: funnelId, name: columns[0]?.funnelName ?? (await visibleFunnel(executor, tenantId, actor, funnelId)).name },
    columns: columns.map((column) => ({ ...column, cards: byColumn.get(column.id) ?? [] })),
    counters,
  };
}
