import { createHash } from 'node:crypto';
import { and, asc, desc, eq, gte, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { aiToolCalls } from '../../../../db/schema/index.ts';
import type { Db, Tx } from '../../../platform/db/database.ts';
import type { EventPublisher } from '../../../platform/events/index.ts';
import { withdrawCustomerBooking } from '../../agenda/index.ts';
import { announceNote, announceWithdrawnScheduled, type ChatEvents, storeSystemNote, withdrawAiScheduled } from '../../chats/index.ts';
import { type BoardEvents, columnAssistant, findCard, placeCard, publishCardMove } from '../../funnels/index.ts';
import type { PendingToolCall, ToolOutcome } from '../model/model-port.ts';

/** The name the assistant's internal notes carry. */
export const ASSISTANT_AUTHOR = 'Asistente IA';

/** The note a failed tool call leaves: the real reason, for the team only. */
export const toolFailedNote = (tool: string, reason: string) => `La IA no pudo completar «${tool}»: ${reason}`;

const place = z.object({ columnId: z.uuid(), funnelId: z.uuid() });

/** What a call changed, and so how to take it back. A call without one (a hand-over, a webhook, a read) has nothing to undo. */
export const toolEffect = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('appointment'), appointmentId: z.uuid() }),
  z.object({ kind: z.literal('scheduled-message'), scheduledId: z.uuid() }),
  z.object({ kind: z.literal('card-move'), from: place, to: place }),
]);
export type ToolEffect = z.output<typeof toolEffect>;

const toolOutcome = z.union([
  z.object({ ok: z.literal(true), result: z.record(z.string(), z.unknown()) }),
  z.object({ ok: z.literal(false), reason: z.string(), advice: z.string().optional() }),
]);

export interface ToolLedgerDeps {
  db: Db;
  chatEvents: ChatEvents;
  boardEvents: Pick<BoardEvents, 'cardMoved'>;
  domainEvents: EventPublisher;
}

/** The answer the calls belong to: one answer job per customer message, however often it runs. */
export interface LedgerAnswer {
  tenantId: string;
  cardId: string;
  messageId: string;
}

/** What an effectful tool writes in the transaction of its change, so the change and its record commit together. */
export interface EffectRecorder {
  recordEffect(tx: Tx, callIndex: number, effect: ToolEffect): Promise<void>;
}

type CallRow = typeof aiToolCalls.$inferSelect;

/** Arguments compared by content, whatever the order of their keys. */
function argsHash(name: string, args: Record<string, unknown>): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value && typeof value === 'object')
      return Object.fromEntries(
        Object.entries(value)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([key, inner]) => [key, canonical(inner)]),
      );
    return value;
  };
  return createHash('sha256')
    .update(JSON.stringify([name, canonical(args)]))
    .digest('hex');
}

/**
 * The ledger of one answer's tool calls, keyed by (answered message, call index) (docs/decisions/0028):
 * - a call an earlier attempt already made with the same tool and arguments gives back its recorded outcome, and acts
 *   no more;
 * - where the model now asks something else, what the answer did from that call on is undone first;
 * - an answer that is delivered keeps what its calls did; one that is dropped (superseded, taken over, failed for good)
 *   undoes it: a booking is withdrawn, a scheduled text that has not gone out is withdrawn, a move is moved back while
 *   the chat is still where the answer put it. A hand-over and a webhook's call are not undone.
 */
export function createToolLedger(deps: ToolLedgerDeps, answer: LedgerAnswer) {
  const ofAnswer = and(eq(aiToolCalls.tenantId, answer.tenantId), eq(aiToolCalls.answerMessageId, answer.messageId));
  const key = (callIndex: number) => and(ofAnswer, eq(aiToolCalls.callIndex, callIndex));
  const live = inArray(aiToolCalls.state, ['running', 'done']);

  async function undo(row: CallRow) {
    const effect = toolEffect.safeParse(row.effect);
    const announce = await deps.db.transaction(async (tx) => {
      const dropped = await tx
        .update(aiToolCalls)
        .set({ state: 'dropped', updatedAt: new Date() })
        .where(and(key(row.callIndex), eq(aiToolCalls.state, row.state)))
        .returning({ callIndex: aiToolCalls.callIndex });
      if (dropped.length === 0 || !effect.success) return undefined;
      return undoEffect(tx, effect.data);
    });
    await announce?.();
  }

  /** Takes the effect back in `tx`; answers what to announce once it commits. */
  async function undoEffect(tx: Tx, effect: ToolEffect): Promise<(() => Promise<void>) | undefined> {
    switch (effect.kind) {
      case 'appointment':
        await withdrawCustomerBooking(tx, answer.tenantId, effect.appointmentId);
        return undefined;
      case 'scheduled-message': {
        const withdrawn = await withdrawAiScheduled(tx, answer.tenantId, effect.scheduledId);
        return withdrawn ? () => announceWithdrawnScheduled(deps.chatEvents, answer.tenantId, withdrawn) : undefined;
      }
      case 'card-move': {
        // Moved on since (by a person, a bot): where it is now is not the answer's doing.
        const card = await findCard(tx, answer.tenantId, answer.cardId);
        if (!card || card.columnId !== effect.to.columnId) return undefined;
        if (!(await columnAssistant(tx, answer.tenantId, effect.from.columnId))) return undefined;
        const back = await placeCard(tx, answer.tenantId, card.id, effect.from);
        if (!back) return undefined;
        await publishCardMove(deps.domainEvents, tx, answer.tenantId, { cardId: card.id, from: card, to: back, movedBy: 'ai' });
        return async () => deps.boardEvents.cardMoved(answer.tenantId, card.funnelId, back);
      }
    }
  }

  /** Undoes what the answer's calls from `callIndex` on did, latest first. */
  async function undoFrom(callIndex: number) {
    const rows = await deps.db
      .select()
      .from(aiToolCalls)
      .where(and(ofAnswer, gte(aiToolCalls.callIndex, callIndex), live))
      .orderBy(desc(aiToolCalls.callIndex));
    for (const row of rows) await undo(row);
  }

  return {
    /**
     * The model port's `callTool` for this answer. A failure without words for the customer gets `advice` (the
     * column's neutral sentence) and leaves a note with its reason, once: a replayed failure leaves none.
     */
    caller(advice: string | undefined) {
      return async (call: PendingToolCall, run: () => Promise<ToolOutcome>): Promise<ToolOutcome> => {
        const hash = argsHash(call.name, call.args);
        const [earlier] = await deps.db.select().from(aiToolCalls).where(key(call.index));
        if (earlier?.state === 'done' && earlier.toolName === call.name && earlier.argsHash === hash) {
          const recorded = toolOutcome.safeParse(earlier.outcome);
          if (recorded.success) return recorded.data;
        }
        // Another call than last time here, or one whose run was cut short: from here on the answer takes a new path.
        if (earlier) await undoFrom(call.index);
        const row = { toolName: call.name, argsHash: hash, state: 'running' as const, outcome: null, effect: null, updatedAt: new Date() };
        await deps.db
          .insert(aiToolCalls)
          .values({ tenantId: answer.tenantId, cardId: answer.cardId, answerMessageId: answer.messageId, callIndex: call.index, ...row })
          .onConflictDoUpdate({ target: [aiToolCalls.answerMessageId, aiToolCalls.callIndex], set: row });

        const ran = await run();
        const outcome: ToolOutcome = ran.ok || ran.advice || !advice ? ran : { ...ran, advice };
        const note = await deps.db.transaction(async (tx) => {
          await tx.update(aiToolCalls).set({ state: 'done', outcome, updatedAt: new Date() }).where(key(call.index));
          if (outcome.ok) return undefined;
          return storeSystemNote(tx, {
            tenantId: answer.tenantId,
            cardId: answer.cardId,
            authorName: ASSISTANT_AUTHOR,
            text: toolFailedNote(call.name, outcome.reason),
          });
        });
        if (note) await announceNote(deps.chatEvents, answer.tenantId, note);
        return outcome;
      };
    },

    /** Written by the tool in the transaction of its change. */
    async recordEffect(tx: Tx, callIndex: number, effect: ToolEffect) {
      await tx.update(aiToolCalls).set({ effect, updatedAt: new Date() }).where(key(callIndex));
    },

    /** The answer was delivered after `callCount` calls: whatever an earlier attempt did beyond them is undone. */
    keepFirst(callCount: number) {
      return undoFrom(callCount);
    },

    /** The answer is dropped: everything its calls did is undone. */
    dropAll() {
      return undoFrom(0);
    },

    /**
     * The column the chat was in before this answer moved it, while it still stands where the answer put it: a retry
     * answers as the assistant that started the answer, not as the one of the column its own move led to.
     */
    async columnBeforeOwnMove(): Promise<string | undefined> {
      const rows = await deps.db.select({ effect: aiToolCalls.effect }).from(aiToolCalls).where(and(ofAnswer, live)).orderBy(asc(aiToolCalls.callIndex));
      const moves = rows.flatMap((row) => {
        const effect = toolEffect.safeParse(row.effect);
        return effect.success && effect.data.kind === 'card-move' ? [effect.data] : [];
      });
      if (moves.length === 0) return undefined;
      const card = await findCard(deps.db, answer.tenantId, answer.cardId);
      return card?.columnId === moves.at(-1)!.to.columnId ? moves[0]!.from.columnId : undefined;
    },
  };
}

export type ToolLedger = ReturnType<typeof createToolLedger>;
