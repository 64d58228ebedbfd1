import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { boardColumns, funnels } from '../../../db/schema/index.ts';
import type { GeminiConfig } from '@embudo/contracts/http/funnels';
import type { DbExecutor } from '../../platform/db/database.ts';
import { canSeeFunnel, seesAllFunnels, type Actor } from '../../platform/policy/policy.ts';
import { withAssistantDefaults } from './column-dto.ts';
import { isAnyOf } from '../../platform/db/array-params.ts';

export const DEFAULT_FUNNEL_NAME = 'Sales Funnel';

const STARTER_COLUMNS = [
  { title: 'Nuevos', color: 'blue' },
  { title: 'En conversación', color: 'orange' },
  { title: 'Propuesta enviada', color: 'purple' },
  { title: 'Ganados', color: 'green' },
] as const;

/** Every new tenant starts with one funnel and a few columns so the board is usable at once. */
export async function createDefaultFunnel(executor: DbExecutor, tenantId: string) {
  const [funnel] = await executor.insert(funnels).values({ tenantId, name: DEFAULT_FUNNEL_NAME, position: 0 }).returning();
  await executor
    .insert(boardColumns)
    .values(STARTER_COLUMNS.map((column, position) => ({ tenantId, funnelId: funnel!.id, title: column.title, color: column.color, position })));
  return funnel!;
}

export async function listFunnelIds(executor: DbExecutor, tenantId: string): Promise<string[]> {
  const rows = await executor.select({ id: funnels.id }).from(funnels).where(eq(funnels.tenantId, tenantId)).orderBy(asc(funnels.position));
  return rows.map((row) => row.id);
}

/** The SQL condition for the funnels an actor may see (none for owners and admins: they see all). */
export function funnelVisibleTo(actor: Actor) {
  if (seesAllFunnels(actor)) return undefined;
  return actor.funnelIds.length > 0 ? inArray(funnels.id, [...actor.funnelIds]) : sql`false`;
}

/**
 * The first column of the tenant's first funnel: where a new chat lands by default. With an actor, the
 * first funnel that actor may see.
 */
export async function firstColumn(executor: DbExecutor, tenantId: string, actor?: Actor) {
  const [row] = await executor
    .select({ columnId: boardColumns.id, funnelId: boardColumns.funnelId })
    .from(boardColumns)
    .innerJoin(funnels, eq(funnels.id, boardColumns.funnelId))
    .where(and(eq(boardColumns.tenantId, tenantId), actor ? funnelVisibleTo(actor) : undefined))
    .orderBy(asc(funnels.position), asc(funnels.createdAt), asc(boardColumns.position), asc(boardColumns.createdAt))
    .limit(1);
  return row;
}

/** A column of the tenant in a funnel the actor may see, or undefined (a hidden one is like a missing one). */
export async function visibleColumnPlace(executor: DbExecutor, tenantId: string, actor: Actor, columnId: string) {
  const [row] = await executor
    .select({ columnId: boardColumns.id, funnelId: boardColumns.funnelId })
    .from(boardColumns)
    .where(and(eq(boardColumns.tenantId, tenantId), eq(boardColumns.id, columnId)))
    .limit(1);
  return row && canSeeFunnel(actor, row.funnelId) ? row : undefined;
}

export interface TenantColumn {
  id: string;
  title: string;
  funnelId: string;
  funnelName: string;
}

/** The named columns that exist in this tenant (others are simply absent), with their funnel's name. */
export async function columnsOfTenant(executor: DbExecutor, tenantId: string, columnIds: readonly string[]): Promise<TenantColumn[]> {
  if (columnIds.length === 0) return [];
  return executor
    .select({ id: boardColumns.id, title: boardColumns.title, funnelId: boardColumns.funnelId, funnelName: funnels.name })
    .from(boardColumns)
    .innerJoin(funnels, eq(funnels.id, boardColumns.funnelId))
    .where(and(eq(boardColumns.tenantId, tenantId), isAnyOf(boardColumns.id, [...columnIds])));
}

/** The Bots Studio bot a column runs, if any. */
export async function columnBot(
  executor: DbExecutor,
  tenantId: string,
  columnId: string,
): Promise<{ botId: string | null; funnelId: string; title: string } | undefined> {
  const [row] = await executor
    .select({ botId: boardColumns.assistantBotId, funnelId: boardColumns.funnelId, title: boardColumns.title })
    .from(boardColumns)
    .where(and(eq(boardColumns.tenantId, tenantId), eq(boardColumns.id, columnId)))
    .limit(1);
  return row;
}

/** Of these columns, the ones that run a Bots Studio bot. */
export async function columnsWithBot(executor: DbExecutor, tenantId: string, columnIds: string[]): Promise<Set<string>> {
  const rows = await executor
    .select({ id: boardColumns.id })
    .from(boardColumns)
    .where(and(eq(boardColumns.tenantId, tenantId), isAnyOf(boardColumns.id, columnIds), isNotNull(boardColumns.assistantBotId)));
  return new Set(rows.map((row) => row.id));
}

/** A funnel's columns in board order, for the system (the AI assistant's move tool): no member's access applies. */
export async function columnsOfFunnel(executor: DbExecutor, tenantId: string, funnelId: string): Promise<{ id: string; title: string }[]> {
  return executor
    .select({ id: boardColumns.id, title: boardColumns.title })
    .from(boardColumns)
    .where(and(eq(boardColumns.tenantId, tenantId), eq(boardColumns.funnelId, funnelId)))
    .orderBy(asc(boardColumns.position));
}

/** A column's AI assistant settings (defaults filled in), its flow bot and where it sits. */
export async function columnAssistant(
  executor: DbExecutor,
  tenantId: string,
  columnId: string,
): Promise<{ title: string; funnelId: string; botId: string | null; assistant: GeminiConfig | null } | undefined> {
  const [row] = await executor
    .select({ title: boardColumns.title, funnelId: boardColumns.funnelId, botId: boardColumns.assistantBotId, config: boardColumns.geminiConfig })
    .from(boardColumns)
    .where(and(eq(boardColumns.tenantId, tenantId), eq(boardColumns.id, columnId)))
    .limit(1);
  return row && { title: row.title, funnelId: row.funnelId, botId: row.botId, assistant: row.config ? withAssistantDefaults(row.config) : null };
}

/** Whether the column's assistant answers the chats that come in: switched on, and no flow bot there (the bot wins, spec 01 §4). */
export async function columnAnswers(executor: DbExecutor, tenantId: string, columnId: string): Promise<boolean> {
  const column = await columnAssistant(executor, tenantId, columnId);
  return Boolean(column?.assistant?.isEnabled && !column.botId);
}

/** A deleted bot leaves the columns that ran it; answers the funnels whose boards changed. */
export async function clearColumnsBot(executor: DbExecutor, tenantId: string, botId: string): Promise<string[]> {
  const rows = await executor
    .update(boardColumns)
    .set({ assistantBotId: null })
    .where(and(eq(boardColumns.tenantId, tenantId), eq(boardColumns.assistantBotId, botId)))
    .returning({ funnelId: boardColumns.funnelId });
  return [...new Set(rows.map((row) => row.funnelId))];
}
