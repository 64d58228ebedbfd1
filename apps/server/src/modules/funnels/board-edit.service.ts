import { and, asc, eq, sql } from 'drizzle-orm';
import { type CardAiOffReason, COLUMN_HAS_CHATS, fileTools, type GeminiConfig, type UpdateColumnRequest } from '@embudo/contracts/http/funnels';
import { boardColumns, cards, funnels } from '../../../db/schema/index.ts';
import type { Db, DbExecutor } from '../../platform/db/database.ts';
import { badRequest, notFound } from '../../platform/errors/app-error.ts';
import type { Plan } from '@embudo/contracts/http/auth';
import { canSeeFunnel, requireFunnelVisible, requireOwnerOrAdmin, requireWriter, type Actor } from '../../platform/policy/policy.ts';
import { requirePlanFeature } from '../tenants/index.ts';
import { COLUMN_NOT_FOUND, FUNNEL_NOT_FOUND } from './board.service.ts';
import { placeCard, toCardUpdate, type CardPlace, type CardRow } from './cards.service.ts';
import { columnDto } from './column-dto.ts';
import { publishCardMove } from './card-events.ts';
import type { EventPublisher } from '../../platform/events/index.ts';
import { BOT_NOT_FOUND } from '@embudo/contracts/http/bots';

export const CARD_NOT_FOUND = 'Chat no encontrado.';

export interface BoardEvents {
  boardUpdated(tenantId: string, funnelId: string): void;
  funnelsUpdated(tenantId: string): void;
  cardUpdated(tenantId: string, card: CardRow): void;
  /**
   * A card changed column or funnel: the boards it left and entered are told with the card in its new place
   * (so they patch it in place), then card_updated follows.
   */
  cardMoved(tenantId: string, fromFunnelId: string, card: CardRow): void;
}

/** Where an archived chat goes: the auto-bot's waiting room while the bot runs (the autobot module answers). */
export interface ArchiveLanding {
  column(tenantId: string): Promise<CardPlace | undefined>;
  /** The chat is back in the waiting room: the bot greets the contact on their next message. */
  returned(tenantId: string, cardId: string): Promise<void>;
}

/** The Bots Studio bots a column may run; the bots module (above this one) answers for them. */
export interface ColumnBots {
  /** Whether the tenant has this bot (another tenant's bot does not exist). */
  exists(tenantId: string, botId: string): Promise<boolean>;
}

export interface Scope {
  db: Db;
  events: BoardEvents;
  /** Card moves and archiving are published as domain events in the transaction that makes them. */
  domainEvents: EventPublisher;
  bots: ColumnBots;
  tenantId: string;
  plan: Plan;
  actor: Actor;
}

async function writableFunnel(scope: Scope, funnelId: string) {
  requireWriter(scope.actor);
  const [funnel] = await scope.db
    .select()
    .from(funnels)
    .where(and(eq(funnels.tenantId, scope.tenantId), eq(funnels.id, funnelId)))
    .limit(1);
  if (!funnel) throw notFound(FUNNEL_NOT_FOUND);
  requireFunnelVisible(scope.actor, funnel.id, FUNNEL_NOT_FOUND);
  return funnel;
}

/** The column, if it is in the tenant and its funnel is visible to the actor (else 404, like a missing one). */
export async function visibleColumn(scope: Pick<Scope, 'db' | 'tenantId' | 'actor'>, columnId: string) {
  const [column] = await scope.db
    .select()
    .from(boardColumns)
    .where(and(eq(boardColumns.tenantId, scope.tenantId), eq(boardColumns.id, columnId)))
    .limit(1);
  if (!column || !canSeeFunnel(scope.actor, column.funnelId)) throw notFound(COLUMN_NOT_FOUND);
  return column;
}

export async function writableColumn(scope: Pick<Scope, 'db' | 'tenantId' | 'actor'>, columnId: string) {
  requireWriter(scope.actor);
  return visibleColumn(scope, columnId);
}

async function writableCard(scope: Scope, cardId: string) {
  requireWriter(scope.actor);
  const [card] = await scope.db
    .select()
    .from(cards)
    .where(and(eq(cards.tenantId, scope.tenantId), eq(cards.id, cardId)))
    .limit(1);
  if (!card || !canSeeFunnel(scope.actor, card.funnelId)) throw notFound(CARD_NOT_FOUND);
  return card;
}

const funnelDto = (row: typeof funnels.$inferSelect) => ({ id: row.id, name: row.name, unreadCount: 0 });
/** Spec 01 §5 Renames: kept only when the trimmed value is non-empty and changed. */
const keptRename = (input: string | undefined, current: string) => {
  const trimmed = input?.trim() ?? '';
  return trimmed !== '' && trimmed !== current ? trimmed : undefined;
};

/** New funnels are for owners and admins: agents see only the funnels ticked for them. */
export async function createFunnel(scope: Scope, name: string) {
  requireOwnerOrAdmin(scope.actor);
  const [row] = await scope.db
    .insert(funnels)
    .values({
      tenantId: scope.tenantId,
      name,
      position: sql`(select coalesce(max(position), -1) + 1 from funnels where tenant_id = ${scope.tenantId})`,
    })
    .returning();
  scope.events.funnelsUpdated(scope.tenantId);
  return funnelDto(row!);
}

export async function renameFunnel(scope: Scope, funnelId: string, input: string) {
  const funnel = await writableFunnel(scope, funnelId);
  const name = keptRename(input, funnel.name);
  if (!name) return funnelDto(funnel);
  const [row] = await scope.db
    .update(funnels)
    .set({ name })
    .where(and(eq(funnels.tenantId, scope.tenantId), eq(funnels.id, funnelId)))
    .returning();
  scope.events.funnelsUpdated(scope.tenantId);
  return funnelDto(row!);
}

export async function createColumn(scope: Scope, funnelId: string, title: string) {
  await writableFunnel(scope, funnelId);
  const [row] = await scope.db
    .insert(boardColumns)
    .values({
      tenantId: scope.tenantId,
      funnelId,
      title,
      position: sql`(select coalesce(max(position), -1) + 1 from board_columns where funnel_id = ${funnelId})`,
    })
    .returning();
  scope.events.boardUpdated(scope.tenantId, funnelId);
  return columnDto(row!);
}

export const FOREIGN_TOOL_FILE = 'Un archivo de herramienta no pertenece a esta empresa: súbelo de nuevo.';

/**
 * Title (a rename), colour, the AI assistant's config and the column bot. Choosing a bot turns
 * the generic assistant off (spec 01 §4); nothing is written when nothing changes.
 */
export async function updateColumn(scope: Scope, columnId: string, changes: UpdateColumnRequest) {
  const column = await writableColumn(scope, columnId);
  const set: Partial<typeof boardColumns.$inferInsert> = {};
  const title = keptRename(changes.title, column.title);
  if (title) set.title = title;
  if (changes.color && changes.color !== column.color) set.color = changes.color;
  let geminiConfig: GeminiConfig | null | undefined = changes.gemini_config;
  if (geminiConfig) {
    // A tool file is read by the assistant later: only files uploaded by this tenant may be named.
    if (fileTools(geminiConfig.tools).some((tool) => !tool.filePath.startsWith(`/media/${scope.tenantId}/`))) throw badRequest(FOREIGN_TOOL_FILE);
  }
  if (changes.assistant_bot_id !== undefined) {
    if (changes.assistant_bot_id && !(await scope.bots.exists(scope.tenantId, changes.assistant_bot_id))) throw notFound(BOT_NOT_FOUND);
    set.assistantBotId = changes.assistant_bot_id;
    const current = geminiConfig ?? column.geminiConfig;
    if (changes.assistant_bot_id && current?.isEnabled) geminiConfig = { ...current, isEnabled: false };
  }
  if (geminiConfig !== undefined) set.geminiConfig = geminiConfig;
  if (Object.keys(set).length === 0) return columnDto(column);
  const [row] = await scope.db.update(boardColumns).set(set).where(eq(boardColumns.id, column.id)).returning();
  scope.events.boardUpdated(scope.tenantId, column.funnelId);
  return columnDto(row!);
}

export async function deleteColumn(scope: Scope, columnId: string) {
  const column = await writableColumn(scope, columnId);
  await scope.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(cards)
      .where(eq(cards.columnId, column.id));
    if ((row?.n ?? 0) > 0) throw badRequest(COLUMN_HAS_CHATS);
    await tx.delete(boardColumns).where(eq(boardColumns.id, column.id));
  });
  scope.events.boardUpdated(scope.tenantId, column.funnelId);
}

/** Every column the actor may see, with its funnel's name (bot menus, move dialogs). */
export async function allColumns(scope: Pick<Scope, 'db' | 'tenantId' | 'actor'>) {
  const rows = await scope.db
    .select({ column: boardColumns, funnelName: funnels.name })
    .from(boardColumns)
    .innerJoin(funnels, eq(funnels.id, boardColumns.funnelId))
    .where(eq(boardColumns.tenantId, scope.tenantId))
    .orderBy(asc(funnels.position), asc(funnels.createdAt), asc(boardColumns.position), asc(boardColumns.createdAt));
  return rows.filter((row) => canSeeFunnel(scope.actor, row.column.funnelId)).map((row) => ({ ...columnDto(row.column), funnelName: row.funnelName }));
}

/** "Activar/Desactivar AI en todos": on clears every reason, even a take-over; off holds while the chats stay in the column. */
export async function toggleColumnCardsAi(scope: Scope, columnId: string, enabled: boolean) {
  const column = await writableColumn(scope, columnId);
  if (enabled) requirePlanFeature(scope.plan, 'ai_assistant');
  const updated = await scope.db
    .update(cards)
    .set({ aiEnabled: enabled, aiOffReason: enabled ? null : 'column_off' })
    .where(and(eq(cards.tenantId, scope.tenantId), eq(cards.columnId, column.id)))
    .returning({ id: cards.id });
  scope.events.boardUpdated(scope.tenantId, column.funnelId);
  return { updated: updated.length, enabled };
}

/** Moves a card to a column, of this funnel or another one the actor may see. */
export async function moveCard(scope: Scope, cardId: string, targetColumnId: string) {
  const card = await writableCard(scope, cardId);
  const target = await writableColumn(scope, targetColumnId).catch(() => {
    throw notFound(COLUMN_NOT_FOUND);
  });
  const row = await scope.db.transaction(async (tx) => {
    const moved = await placeCard(tx, scope.tenantId, card.id, { columnId: target.id, funnelId: target.funnelId });
    await publishCardMove(scope.domainEvents, tx, scope.tenantId, {
      cardId: card.id,
      from: card,
      to: { columnId: target.id, funnelId: target.funnelId },
      movedBy: 'user',
    });
    return moved!;
  });
  scope.events.cardMoved(scope.tenantId, card.funnelId, row);
  return toCardUpdate(row);
}

export async function renameCard(scope: Scope, cardId: string, input: string) {
  const card = await writableCard(scope, cardId);
  const title = keptRename(input, card.title);
  if (!title) return toCardUpdate(card);
  const [row] = await scope.db.update(cards).set({ title, titleSource: 'hand' }).where(eq(cards.id, card.id)).returning();
  scope.events.cardUpdated(scope.tenantId, row!);
  return toCardUpdate(row!);
}

/** The chat's switch: off by hand is a take-over that moves keep; on clears whatever reason the AI was off for. */
export async function toggleCardAi(scope: Scope, cardId: string, enabled: boolean) {
  const card = await writableCard(scope, cardId);
  if (enabled) requirePlanFeature(scope.plan, 'ai_assistant');
  const [row] = await scope.db
    .update(cards)
    .set({ aiEnabled: enabled, aiOffReason: enabled ? null : 'by_hand' })
    .where(eq(cards.id, card.id))
    .returning();
  scope.events.cardUpdated(scope.tenantId, row!);
  return toCardUpdate(row!);
}

/**
 * The system switches a card's AI off (a person took over, or the assistant handed the chat over): no plan or role
 * check, and every open board and chat sees the switch move. The reason keeps it off when the chat moves on.
 */
export async function switchCardAiOff(
  deps: { events: Pick<BoardEvents, 'cardUpdated'> },
  executor: DbExecutor,
  tenantId: string,
  cardId: string,
  reason: Extract<CardAiOffReason, 'team_reply' | 'handed_over'>,
) {
  const [row] = await executor
    .update(cards)
    .set({ aiEnabled: false, aiOffReason: reason })
    .where(and(eq(cards.tenantId, tenantId), eq(cards.id, cardId), eq(cards.aiEnabled, true)))
    .returning();
  if (row) deps.events.cardUpdated(tenantId, row);
  return row;
}

/**
 * Archives a chat: marked archived and read, and moved to the auto-bot's waiting room while the
 * bot runs, so the contact is greeted again when they come back; a new message unarchives it.
 */
export async function archiveCard(scope: Scope, cardId: string, landing: ArchiveLanding | undefined) {
  const card = await writableCard(scope, cardId);
  const place = await landing?.column(scope.tenantId);
  const row = await scope.db.transaction(async (tx) => {
    if (place) await placeCard(tx, scope.tenantId, card.id, place);
    const [archived] = await tx.update(cards).set({ archived: true, unreadCount: 0 }).where(eq(cards.id, card.id)).returning();
    if (place) await publishCardMove(scope.domainEvents, tx, scope.tenantId, { cardId: card.id, from: card, to: place, movedBy: 'archive' });
    await scope.domainEvents.publish(tx, {
      type: 'card.archived',
      tenantId: scope.tenantId,
      payload: { cardId: card.id, columnId: archived!.columnId, funnelId: archived!.funnelId },
    });
    return archived!;
  });
  if (place) await landing!.returned(scope.tenantId, card.id);
  scope.events.cardMoved(scope.tenantId, card.funnelId, row);
  return toCardUpdate(row);
}
