import { and, asc, eq } from 'drizzle-orm';
import type { BotConfig } from '@embudo/contracts/flows/flow';
import { BOT_NOT_FOUND, type BotDetail, type BotSummary, type BotType } from '@embudo/contracts/http/bots';
import { bots } from '../../../db/schema/index.ts';
import type { SecretBox } from '../../platform/crypto/secret-box.ts';
import type { Db, DbExecutor } from '../../platform/db/database.ts';
import { badRequest, notFound } from '../../platform/errors/app-error.ts';
import { requireOwnerOrAdmin, type Actor } from '../../platform/policy/policy.ts';
import { clearColumnsBot, columnsOfTenant, type ColumnBots } from '../funnels/index.ts';
import { findUser } from '../users/index.ts';
import { maskedConfig, sealedConfig } from './bot-secrets.ts';

export type BotRow = typeof bots.$inferSelect;

export interface BotsScope {
  db: Db;
  tenantId: string;
  actor: Pick<Actor, 'role'>;
  /** Seals the credentials in bot nodes (stored encrypted, answered masked). */
  box: SecretBox;
  /** Boards whose columns changed (a deleted bot leaves its columns). */
  boardUpdated(tenantId: string, funnelId: string): void;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids a flow names come from people's configs: anything that is not a uuid is simply not found. */
export const isUuid = (value: string) => UUID.test(value);

export const toBotSummary = (row: BotRow): BotSummary => ({
  id: row.id,
  name: row.name,
  type: row.type,
  avatar_icon: row.type,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});
/** A bot with its flow, credentials masked: only owners and admins ever get one. */
const toBotDetail = (box: SecretBox, row: BotRow): BotDetail => ({ ...toBotSummary(row), config: maskedConfig(box, row.config) });

/** The tenant's bot, or undefined (another tenant's bot is simply not found). */
export async function findBot(executor: DbExecutor, tenantId: string, botId: string): Promise<BotRow | undefined> {
  if (!isUuid(botId)) return undefined;
  const [row] = await executor
    .select()
    .from(bots)
    .where(and(eq(bots.tenantId, tenantId), eq(bots.id, botId)))
    .limit(1);
  return row;
}

/** The funnels module's view of the bots a column may run. */
export const columnBotsOf = (db: Db): ColumnBots => ({
  exists: async (tenantId, botId) => (await findBot(db, tenantId, botId)) !== undefined,
});

export async function requireBot(executor: DbExecutor, tenantId: string, botId: string): Promise<BotRow> {
  const row = await findBot(executor, tenantId, botId);
  if (!row) throw notFound(BOT_NOT_FOUND);
  return row;
}

export async function listBots(scope: BotsScope): Promise<BotSummary[]> {
  const rows = await scope.db.select().from(bots).where(eq(bots.tenantId, scope.tenantId)).orderBy(asc(bots.createdAt), asc(bots.id));
  return rows.map(toBotSummary);
}

/** Opening a bot's flow is Bots Studio's: agents and viewers only list the bots (Configurar Bot Gemini). */
export async function getBot(scope: BotsScope, botId: string): Promise<BotDetail> {
  requireOwnerOrAdmin(scope.actor);
  return toBotDetail(scope.box, await requireBot(scope.db, scope.tenantId, botId));
}

/** A new bot starts with an empty flow; its avatar is its type (spec 02 §3 Bot). */
export async function createBot(scope: BotsScope, input: { name: string; type: BotType }): Promise<BotDetail> {
  requireOwnerOrAdmin(scope.actor);
  const [row] = await scope.db.insert(bots).values({ tenantId: scope.tenantId, name: input.name, type: input.type }).returning();
  return toBotDetail(scope.box, row!);
}

/** Columns, team members and the like that the flow names must be this tenant's. */
async function checkReferences(executor: DbExecutor, tenantId: string, config: BotConfig) {
  const columnRefs: { id: string; label: string }[] = [];
  for (const node of config.nodes) {
    if (node.type === 'trigger' && node.data.triggerType === 'on_column_entry') columnRefs.push({ id: node.data.columnId, label: node.data.label });
    if (node.type === 'redirect' && node.data.targetId) columnRefs.push({ id: node.data.targetId, label: node.data.label });
    if (node.type === 'aiPrompt') {
      for (const tool of node.data.tools)
        if (tool.tool_type === 'redirect_to_column' && tool.columnId) columnRefs.push({ id: tool.columnId, label: node.data.label });
    }
    if (node.type === 'assignToHuman' && node.data.agentId) {
      if (!isUuid(node.data.agentId) || !(await findUser(executor, tenantId, node.data.agentId)))
        throw badRequest(`Nodo «${node.data.label}»: el agente elegido no es un miembro del equipo.`);
    }
  }
  const valid = columnRefs.filter((ref) => isUuid(ref.id));
  const existing = new Set(
    (
      await columnsOfTenant(
        executor,
        tenantId,
        valid.map((ref) => ref.id),
      )
    ).map((column) => column.id),
  );
  const missing = columnRefs.find((ref) => !existing.has(ref.id));
  if (missing) throw badRequest(`Nodo «${missing.label}»: la columna elegida no existe.`);
}

/**
 * PUT /api/bots/{id}: name and the whole flow, checked node by node (contract) and reference by reference;
 * credentials sent back masked keep the stored ones.
 */
export async function saveBot(scope: BotsScope, botId: string, input: { name: string; config: BotConfig }): Promise<BotDetail> {
  requireOwnerOrAdmin(scope.actor);
  const bot = await requireBot(scope.db, scope.tenantId, botId);
  await checkReferences(scope.db, scope.tenantId, input.config);
  const config = sealedConfig(scope.box, input.config, bot.config);
  const [row] = await scope.db
    .update(bots)
    .set({ name: input.name, config, updatedAt: new Date() })
    .where(and(eq(bots.tenantId, scope.tenantId), eq(bots.id, bot.id)))
    .returning();
  return toBotDetail(scope.box, row!);
}

/** Deletes the bot and, in the same transaction, clears it from every column that ran it. */
export async function deleteBot(scope: BotsScope, botId: string): Promise<void> {
  requireOwnerOrAdmin(scope.actor);
  const bot = await requireBot(scope.db, scope.tenantId, botId);
  const funnelIds = await scope.db.transaction(async (tx) => {
    const changed = await clearColumnsBot(tx, scope.tenantId, bot.id);
    await tx.delete(bots).where(and(eq(bots.tenantId, scope.tenantId), eq(bots.id, bot.id)));
    return changed;
  });
  for (const funnelId of funnelIds) scope.boardUpdated(scope.tenantId, funnelId);
}
