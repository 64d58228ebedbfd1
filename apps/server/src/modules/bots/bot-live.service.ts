import { and, eq } from 'drizzle-orm';
import { botSessions, messages, type FlowRunState } from '../../../db/schema/index.ts';
import type { Tx } from '../../platform/db/database.ts';
import type { Logger } from '../../platform/logger/logger.ts';
import type { MediaStorage } from '../../platform/storage/media-storage.ts';
import { emitNewMessage, storeOutbound, pressedReply, replyChoicesDraft, type MessageRow, type OutboundDraft, type ScheduleDeps } from '../chats/index.ts';
import { findCard, placeCard, columnBot, publishCardMove, type BoardEvents, type CardPlace, type CardRow, type CardSummaryRow } from '../funnels/index.ts';
import { findBot, type BotRow } from './bots.service.ts';
import { runnableConfig } from './bot-secrets.ts';
import { runServicesFor, type BotRunDeps } from './bot-run-services.ts';
import { advanceFlow, awaitsAnswer, newRunState, type FlowInput } from './runtime/flow-runtime.ts';
import type { BotMessage } from './runtime/node-executor.ts';
import { optionChoices } from './runtime/option-choice.ts';

/** A redirect into a column whose bot starts on entry may chain; this many hops at most per customer event or move. */
const MAX_CHAINED_ENTRIES = 3;

export interface BotTimerPayload {
  tenantId: string;
  sessionId: string;
  nodeId: string;
  /** The session's revision when the timer was set: a later step makes the timer stale. */
  revision: number;
}

export interface BotLiveDeps extends BotRunDeps {
  outbound: ScheduleDeps;
  storage: MediaStorage;
  boardEvents: Pick<BoardEvents, 'cardMoved'>;
  /** Records the timer's job in the caller's transaction, due at `runAt`. */
  enqueueTimer(tx: Tx, payload: BotTimerPayload, runAt: Date): Promise<unknown>;
  /** The menu auto-bot's waiting room while it runs: the auto-bot answers there, never a flow. */
  autobotWaitingRoom(tenantId: string): Promise<CardPlace | undefined>;
  log: Pick<Logger, 'debug' | 'warn' | 'error'>;
}

type LiveSession = typeof botSessions.$inferSelect;
/** Commits a domain event's receipt inside the step's transaction; false when another run already handled it. */
type RecordDelivery = (tx: Tx) => Promise<boolean>;

/** A step's input; a customer's message names itself, so a move the flow makes on it does not leave it for the next column's assistant. */
type LiveInput = FlowInput & { causeMessageId?: string };

const contactVariables = (card: CardRow) => ({ contact_name: card.title, contact_phone: card.phone });

/**
 * Live chats: the bot of the card's column answers the customer through the outbox, one step per
 * customer event, with the conversation's state kept per card.
 */
export function createBotLive(deps: BotLiveDeps) {
  // Events of one card run one after another in this process; the revision guards across processes.
  const chains = new Map<string, Promise<void>>();
  const serialised = (cardId: string, work: () => Promise<void>) => {
    const run = (chains.get(cardId) ?? Promise.resolve()).then(work, work);
    const tail = run
      .catch(() => undefined)
      .finally(() => {
        if (chains.get(cardId) === tail) chains.delete(cardId);
      });
    chains.set(cardId, tail);
    return run;
  };

  const sessionOf = async (tenantId: string, cardId: string) => {
    const [row] = await deps.db
      .select()
      .from(botSessions)
      .where(and(eq(botSessions.tenantId, tenantId), eq(botSessions.cardId, cardId), eq(botSessions.kind, 'live')))
      .limit(1);
    return row;
  };

  const draftOf = async (tenantId: string, message: BotMessage, msgId: string): Promise<OutboundDraft> => {
    switch (message.type) {
      case 'text':
        return { type: 'text', text: message.text };
      case 'image':
        return { type: 'image', text: null, mediaUrl: await deps.storage.save(tenantId, message.data, message.extension), mediaMime: message.mime };
      case 'options':
        return replyChoicesDraft(message.text, optionChoices(message.options), msgId);
    }
  };

  /**
   * One step of the card's conversation. `depth` counts the flow moves that led here; `recordDelivery` (for a
   * step caused by a domain event) commits the event's receipt with the step, so a redelivery sends nothing twice.
   */
  async function run(
    tenantId: string,
    card: CardRow,
    bot: BotRow,
    session: LiveSession | undefined,
    state: FlowRunState,
    input: LiveInput,
    depth: number,
    recordDelivery?: RecordDelivery,
  ) {
    let moveTo: { id: string; funnelId: string } | undefined;
    const result = await advanceFlow(runnableConfig(deps.box, bot.config), state, input, {
      mode: 'live',
      services: runServicesFor(
        deps,
        tenantId,
        (column) => {
          moveTo = column;
        },
        { card, schedule: deps.outbound },
      ),
    });
    for (const report of result.reports) deps.log.debug({ tenantId, cardId: card.id, botId: bot.id, report }, 'bot step');
    const drafts: OutboundDraft[] = [];
    for (const [index, message] of result.messages.entries()) drafts.push(await draftOf(tenantId, message, `bot-${card.id}-${Date.now()}-${index}`));

    const committed = await deps.db.transaction(async (tx) => {
      if (recordDelivery && !(await recordDelivery(tx))) return undefined;
      const revision = (session?.revision ?? 0) + 1;
      const saved = session
        ? await tx
            .update(botSessions)
            .set({ botId: bot.id, state: result.state, revision, updatedAt: new Date() })
            .where(and(eq(botSessions.id, session.id), eq(botSessions.revision, session.revision)))
            .returning()
        : await tx
            .insert(botSessions)
            .values({ tenantId, kind: 'live', botId: bot.id, cardId: card.id, state: result.state, revision })
            .onConflictDoNothing()
            .returning();
      const row = saved[0];
      // Another run saved first: its step stands, this one is dropped whole (nothing sent twice).
      if (!row) return undefined;
      const stored: { message: MessageRow; card: CardSummaryRow }[] = [];
      let current: CardSummaryRow = card;
      for (const draft of drafts) {
        const { message, updatedCard } = await storeOutbound(deps.outbound, tx, { tenantId, userId: null }, current, draft, { sender: 'ai' });
        stored.push({ message, card: updatedCard });
        current = updatedCard;
      }
      const moved =
        moveTo && moveTo.id !== current.columnId ? await placeCard(tx, tenantId, card.id, { columnId: moveTo.id, funnelId: moveTo.funnelId }) : undefined;
      // A flow's move may start the next column's entry flow; the depth travels with the event to bound the chain.
      if (moved)
        await publishCardMove(deps.outbound.domainEvents, tx, tenantId, {
          cardId: card.id,
          from: current,
          to: moved,
          movedBy: 'bot',
          chainDepth: depth + 1,
          causeMessageId: input.causeMessageId,
        });
      if (result.timer) {
        await deps.enqueueTimer(tx, { tenantId, sessionId: row.id, nodeId: result.timer.nodeId, revision }, new Date(Date.now() + result.timer.ms));
      }
      return { stored, moved };
    });
    if (!committed) {
      deps.log.warn({ tenantId, cardId: card.id, botId: bot.id }, 'bot step dropped: the conversation moved on meanwhile, or this event was already handled');
      return;
    }
    for (const { message, card: updated } of committed.stored) emitNewMessage(deps.outbound.events, tenantId, updated, message, false);
    if (committed.moved) {
      deps.boardEvents.cardMoved(tenantId, card.funnelId, committed.moved);
    }
  }

  /** The column's bot and the card's conversation with it (a conversation with another bot starts over). */
  async function columnConversation(tenantId: string, card: CardRow) {
    const column = await columnBot(deps.db, tenantId, card.columnId);
    const bot = column?.botId ? await findBot(deps.db, tenantId, column.botId) : undefined;
    if (!bot) return undefined;
    const session = await sessionOf(tenantId, card.id);
    const state = session && session.botId === bot.id ? session.state : newRunState(contactVariables(card));
    return { bot, session, state };
  }

  async function enterColumn(tenantId: string, card: CardRow, depth: number, recordDelivery: RecordDelivery) {
    if (card.isGroup) return;
    const conversation = await columnConversation(tenantId, card);
    const trigger = conversation?.bot.config.nodes.find((node) => node.type === 'trigger');
    if (!conversation || trigger?.type !== 'trigger' || trigger.data.triggerType !== 'on_column_entry' || trigger.data.columnId !== card.columnId) return;
    if (conversation.state.status === 'human' && conversation.session?.botId === conversation.bot.id) return;
    await run(
      tenantId,
      card,
      conversation.bot,
      conversation.session,
      newRunState({ ...conversation.state.variables, ...contactVariables(card) }),
      { kind: 'start' },
      depth,
      recordDelivery,
    );
  }

  return {
    /**
     * After a customer's message is stored (`customer-message.stored`): the column's bot answers it, or resumes
     * the question it asked. `columnId` is where the card stood when the message arrived.
     */
    afterCustomerMessage(incoming: { tenantId: string; messageId: string; cardId: string; columnId: string }, recordDelivery: RecordDelivery) {
      const { tenantId } = incoming;
      return serialised(incoming.cardId, async () => {
        // The auto-bot owns its waiting room; a message answered there is never a flow's too.
        const waitingRoom = await deps.autobotWaitingRoom(tenantId);
        if (waitingRoom?.columnId === incoming.columnId) return;
        const card = await findCard(deps.db, tenantId, incoming.cardId);
        if (!card || card.isGroup || card.columnId !== incoming.columnId) return;
        const [message] = await deps.db
          .select()
          .from(messages)
          .where(and(eq(messages.tenantId, tenantId), eq(messages.id, incoming.messageId)))
          .limit(1);
        if (!message) return;
        const conversation = await columnConversation(tenantId, card);
        if (!conversation || conversation.state.status === 'human' || conversation.state.status === 'waiting_timer') return;
        const trigger = conversation.bot.config.nodes.find((node) => node.type === 'trigger');
        const startsOnMessage = trigger?.type === 'trigger' && trigger.data.triggerType === 'on_message_received';
        if (!awaitsAnswer(conversation.state) && !startsOnMessage) return;
        const pressed = pressedReply(message.payload);
        const answer = { text: pressed?.title ?? message.text ?? '', postback: pressed?.postbackText };
        await run(
          tenantId,
          card,
          conversation.bot,
          conversation.session,
          conversation.state,
          { kind: 'message', answer, causeMessageId: message.id },
          0,
          recordDelivery,
        );
      });
    },

    /**
     * A card entered a column (`card.entered-column`: moved by a person, the auto-bot or a flow): a bot that
     * starts on entry there begins, unless the card has left that column since or flows moved it too often in a row.
     */
    cardEnteredColumn(entered: { tenantId: string; cardId: string; columnId: string; chainDepth: number }, recordDelivery: RecordDelivery) {
      if (entered.chainDepth > MAX_CHAINED_ENTRIES) return Promise.resolve();
      return serialised(entered.cardId, async () => {
        const card = await findCard(deps.db, entered.tenantId, entered.cardId);
        if (!card || card.columnId !== entered.columnId) return;
        await enterColumn(entered.tenantId, card, entered.chainDepth, recordDelivery);
      });
    },

    /** A live timer is due: the flow goes on after the timer node, if nothing changed meanwhile. */
    async timerFired(payload: BotTimerPayload) {
      const [session] = await deps.db
        .select()
        .from(botSessions)
        .where(and(eq(botSessions.id, payload.sessionId), eq(botSessions.tenantId, payload.tenantId), eq(botSessions.kind, 'live')))
        .limit(1);
      if (!session?.cardId || session.revision !== payload.revision) return;
      await serialised(session.cardId, async () => {
        const card = await findCard(deps.db, payload.tenantId, session.cardId!);
        const conversation = card ? await columnConversation(payload.tenantId, card) : undefined;
        // The card left for a column with another bot (or none): the old flow's timer has nothing to continue.
        if (!card || !conversation || conversation.bot.id !== session.botId || conversation.session?.revision !== payload.revision) return;
        await run(payload.tenantId, card, conversation.bot, conversation.session, conversation.state, { kind: 'timer', nodeId: payload.nodeId }, 0);
      });
    },
  };
}

export type BotLive = ReturnType<typeof createBotLive>;
