import { and, eq, sql } from 'drizzle-orm';
import { planIncludes } from '@embudo/contracts/http/plans';
import { BOT_COLUMN_INVALID, type BotSettings, type BotSettingsRequest } from '@embudo/contracts/http/autobot';
import type { Plan } from '@embudo/contracts/http/auth';
import { autobotConversations, autobotSettings, messages, type AutobotMenuOption } from '../../../db/schema/index.ts';
import type { Db, DbExecutor, Tx } from '../../platform/db/database.ts';
import { badRequest } from '../../platform/errors/app-error.ts';
import { emitNewMessage, storeOutbound, type OutboundDeps, type OutboundDraft, type MessageRow } from '../chats/index.ts';
import { columnAssistant, findCard, placeCard, columnsOfTenant, publishCardMove, type CardPlace, type CardRow, type BoardEvents } from '../funnels/index.ts';
import { requirePlanFeature, findTenantById } from '../tenants/index.ts';
import { chosenOption, confirmationText, HANDOFF_TEXT, menuDraft, RETRY_INTRO } from './autobot-menu.ts';

const DISABLED: BotSettings = { enabled: false, message: '', triggerColumnId: null, menuColumnIds: [] };

/** The saved settings; menu ids of columns deleted since are left out, in the saved order. */
export async function getBotSettings(executor: DbExecutor, tenantId: string): Promise<BotSettings> {
  const [row] = await executor.select().from(autobotSettings).where(eq(autobotSettings.tenantId, tenantId)).limit(1);
  if (!row) return DISABLED;
  const existing = new Set((await columnsOfTenant(executor, tenantId, row.menuColumnIds)).map((column) => column.id));
  return {
    enabled: row.enabled,
    message: row.message,
    triggerColumnId: row.triggerColumnId,
    menuColumnIds: row.menuColumnIds.filter((id) => existing.has(id)),
  };
}

/** PUT /api/bot-settings: every column must be this tenant's; switching on needs a plan with the bot. */
export async function saveBotSettings(db: Db, tenant: { id: string; plan: Plan }, input: BotSettingsRequest): Promise<BotSettings> {
  if (input.enabled) requirePlanFeature(tenant.plan, 'automation_bot');
  const menuColumnIds = [...new Set(input.menuColumnIds)];
  const named = [...new Set([...(input.triggerColumnId ? [input.triggerColumnId] : []), ...menuColumnIds])];
  if ((await columnsOfTenant(db, tenant.id, named)).length !== named.length) throw badRequest(BOT_COLUMN_INVALID);
  const values = { enabled: input.enabled, message: input.message, triggerColumnId: input.triggerColumnId, menuColumnIds, updatedAt: new Date() };
  await db
    .insert(autobotSettings)
    .values({ tenantId: tenant.id, ...values })
    .onConflictDoUpdate({ target: autobotSettings.tenantId, set: values });
  return getBotSettings(db, tenant.id);
}

interface RunningBot {
  message: string;
  trigger: CardPlace;
  options: AutobotMenuOption[];
}

/** The bot as it runs now: switched on, on a plan that includes it, with its columns still there. */
async function runningBot(executor: DbExecutor, tenantId: string): Promise<RunningBot | undefined> {
  const settings = await getBotSettings(executor, tenantId);
  if (!settings.enabled || !settings.triggerColumnId || settings.menuColumnIds.length === 0) return undefined;
  const tenant = await findTenantById(executor, tenantId);
  if (!tenant || !planIncludes(tenant.subscriptionPlan, 'automation_bot')) return undefined;
  const columns = await columnsOfTenant(executor, tenantId, [settings.triggerColumnId, ...settings.menuColumnIds]);
  const trigger = columns.find((column) => column.id === settings.triggerColumnId);
  if (!trigger) return undefined;
  const byId = new Map(columns.map((column) => [column.id, column]));
  const options = settings.menuColumnIds.flatMap((id) => {
    const column = byId.get(id);
    return column ? [{ columnId: column.id, title: column.title }] : [];
  });
  return { message: settings.message, trigger: { columnId: trigger.id, funnelId: trigger.funnelId }, options };
}

/** Where a new chat lands: the bot's waiting room while the bot runs, else the caller's default. */
export async function landingColumn(executor: DbExecutor, tenantId: string): Promise<CardPlace | undefined> {
  return (await runningBot(executor, tenantId))?.trigger;
}

/** An archived chat went back to the waiting room: the bot greets the contact again on their next message. */
export async function greetOnNextMessage(db: Db, tenantId: string, cardId: string) {
  const values = { state: 'greet_next' as const, invalidReplies: 0, options: [], updatedAt: new Date() };
  await db
    .insert(autobotConversations)
    .values({ tenantId, cardId, ...values })
    .onConflictDoUpdate({ target: [autobotConversations.tenantId, autobotConversations.cardId], set: values });
}

export interface AutobotDeps {
  db: Db;
  outbound: OutboundDeps;
  boardEvents: Pick<BoardEvents, 'cardMoved'>;
}

/** A stored customer message as the auto-bot hears it (the `customer-message.stored` event). */
export interface CustomerMessage {
  tenantId: string;
  messageId: string;
  cardId: string;
  /** The card's column when the message arrived: the bot answers only in its waiting room. */
  columnId: string;
  cardCreated: boolean;
}

type Step =
  | { kind: 'menu'; intro: string; options: AutobotMenuOption[]; conversationId: string }
  | { kind: 'route'; option: AutobotMenuOption; funnelId: string }
  | { kind: 'handoff' }
  | { kind: 'none' };

/**
 * Runs after a customer's message is stored (a listener of `customer-message.stored`). The bot only ever
 * answers chats in its waiting room, and not while that column's AI assistant is on: a new chat gets the welcome and the menu; a valid choice moves the card
 * to that column and confirms; anything else repeats the menu once, then leaves the chat to a person.
 * The decision, the reply (outbox), the move and its events commit together with `recordDelivery`, so a
 * second delivery of the same message changes nothing.
 */
export async function handleCustomerMessage(deps: AutobotDeps, incoming: CustomerMessage, recordDelivery: (tx: Tx) => Promise<boolean>) {
  const { tenantId } = incoming;
  const bot = await runningBot(deps.db, tenantId);
  if (!bot || incoming.columnId !== bot.trigger.columnId) return;
  // One voice per column: once the waiting room's AI assistant is switched on, it answers there instead of the menu (issue 15).
  if ((await columnAssistant(deps.db, tenantId, bot.trigger.columnId))?.assistant?.isEnabled) return;
  const [card, [message]] = await Promise.all([
    findCard(deps.db, tenantId, incoming.cardId),
    deps.db
      .select()
      .from(messages)
      .where(and(eq(messages.tenantId, tenantId), eq(messages.id, incoming.messageId)))
      .limit(1),
  ]);
  if (!card || card.isGroup || !message) return;

  // One decision per message, with the chat's row locked so two quick messages cannot both count.
  const outcome = await deps.db.transaction(async (tx) => {
    if (!(await recordDelivery(tx))) return undefined;
    const step = await decide(tx, bot, tenantId, card, message, incoming.cardCreated);
    const reply = (current: CardRow, draft: OutboundDraft) => storeOutbound(deps.outbound, tx, { tenantId, userId: null }, current, draft, {});
    switch (step.kind) {
      case 'menu':
        return { replied: await reply(card, menuDraft(step.intro, step.options, `autobot-${step.conversationId}`)) };
      case 'route': {
        const moved = await placeCard(tx, tenantId, card.id, { columnId: step.option.columnId, funnelId: step.funnelId });
        if (!moved) return undefined;
        // Published after the confirmation is stored, so a bot that greets on entry to that column speaks second.
        const replied = await reply(moved, { type: 'text', text: confirmationText(step.option.title) });
        await publishCardMove(deps.outbound.domainEvents, tx, tenantId, {
          cardId: card.id,
          from: card,
          to: moved,
          movedBy: 'autobot',
          causeMessageId: message.id,
        });
        return { replied, moved };
      }
      case 'handoff':
        return { replied: await reply(card, { type: 'text', text: HANDOFF_TEXT }) };
      case 'none':
        return undefined;
    }
  });
  if (!outcome) return;
  if (outcome.moved) {
    deps.boardEvents.cardMoved(tenantId, card.funnelId, outcome.moved);
  }
  emitNewMessage(deps.outbound.events, tenantId, outcome.replied.updatedCard, outcome.replied.message, false);
}

async function decide(tx: Tx, bot: RunningBot, tenantId: string, card: CardRow, message: MessageRow, cardCreated: boolean): Promise<Step> {
  if (cardCreated) {
    await tx.insert(autobotConversations).values({ tenantId, cardId: card.id, state: 'greet_next' }).onConflictDoNothing();
  }
  const [conversation] = await tx
    .select()
    .from(autobotConversations)
    .where(and(eq(autobotConversations.tenantId, tenantId), eq(autobotConversations.cardId, card.id)))
    .for('update');
  if (!conversation || conversation.state === 'done') return { kind: 'none' };
  const save = (changes: Partial<typeof autobotConversations.$inferInsert>) =>
    tx
      .update(autobotConversations)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(eq(autobotConversations.id, conversation.id));

  if (conversation.state === 'greet_next') {
    await save({ state: 'awaiting_choice', invalidReplies: 0, options: bot.options });
    return { kind: 'menu', intro: bot.message, options: bot.options, conversationId: conversation.id };
  }
  const choice = chosenOption(message, conversation.options);
  const target = choice && (await columnsOfTenant(tx, tenantId, [choice.columnId]))[0];
  if (choice && target) {
    await save({ state: 'done' });
    return { kind: 'route', option: choice, funnelId: target.funnelId };
  }
  if (conversation.invalidReplies === 0) {
    await save({ invalidReplies: 1 });
    return { kind: 'menu', intro: RETRY_INTRO, options: conversation.options, conversationId: conversation.id };
  }
  await save({ state: 'done', invalidReplies: conversation.invalidReplies + 1 });
  return { kind: 'handoff' };
}
