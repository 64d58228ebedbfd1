import { windowIsOpen } from '@embudo/contracts/http/chats';
import type { DomainEvent } from '@embudo/contracts/events/index';
import type { JobQueue } from '../../../platform/queue/job-queue.ts';
import { defineListener, relevantWhere, type ListenerContext } from '../../../platform/events/index.ts';
import { findMessageKind, latestCustomerMessageId, newestMessage } from '../../chats/index.ts';
import { cardsWithAiOn } from '../../funnels/index.ts';
import { type AnswerJob, type AnswerRequest, assistantSituation, type AssistantDeps, pauseOnTeamReply, scheduleAnswer } from './assistant.service.ts';

type ListenerDeps = AssistantDeps & { queue: JobQueue; job: AnswerJob };

/**
 * Enqueues the answer when the assistant is on for the chat. A voice note waits for its transcript when one is coming
 * (a model is configured): `voice-note.transcribed` then asks for the answer, so the assistant reads the customer's words.
 * A message is the business of the column it came to: when the chat has moved on since (the menu sent it to Ventas), the
 * move decides whether it waits for an answer there (`answerWaitingQuestion`).
 */
async function requestAnswer(deps: ListenerDeps, request: AnswerRequest, ctx: ListenerContext, arrival: { waitForTranscript: boolean; columnId?: string }) {
  const situation = await assistantSituation(deps.db, request.tenantId, request.cardId);
  if (!situation) return;
  if (arrival.columnId && situation.card.columnId !== arrival.columnId) return;
  if (arrival.waitForTranscript && deps.model && (await findMessageKind(deps.db, request.tenantId, request.messageId)) === 'audio') return;
  await deps.db.transaction(async (tx) => {
    if (!(await ctx.recordDelivery(tx))) return;
    await scheduleAnswer(deps.queue, deps.job, tx, request, situation.assistant.quietSeconds);
  });
}

/**
 * The customer's message that waits for the column the chat entered. A router's move (the menu choice, a flow's answer)
 * answered the message that made it: only what the customer wrote after it waits. Otherwise (a person's drag, a flow's
 * timed step) the newest message waits when it is the customer's, nothing from the business having come after it.
 */
async function waitingQuestion(deps: ListenerDeps, tenantId: string, cardId: string, causeMessageId: string | undefined) {
  if (causeMessageId) {
    const newest = await latestCustomerMessageId(deps.db, tenantId, cardId);
    return newest !== causeMessageId ? newest : undefined;
  }
  const newest = await newestMessage(deps.db, tenantId, cardId);
  return newest?.sender === 'contact' ? newest.id : undefined;
}

/**
 * A chat entered a column whose assistant answers (issue 44): a question the customer left waiting is answered there,
 * within the 24-hour window. The assistant's own move belongs to the answer it is giving, and archiving hands the chat
 * to the auto-bot, so neither asks for one.
 */
async function answerWaitingQuestion(deps: ListenerDeps, event: DomainEvent<'card.moved'>, ctx: ListenerContext) {
  const { cardId, toColumnId, movedBy, causeMessageId } = event.payload;
  if (movedBy === 'ai' || movedBy === 'archive') return;
  const situation = await assistantSituation(deps.db, event.tenantId, cardId);
  if (!situation || situation.card.columnId !== toColumnId) return;
  if (!windowIsOpen(situation.card.contactLastMessageAt, deps.clock().getTime())) return;
  const messageId = await waitingQuestion(deps, event.tenantId, cardId, causeMessageId);
  if (!messageId) return;
  await deps.db.transaction(async (tx) => {
    if (!(await ctx.recordDelivery(tx))) return;
    await scheduleAnswer(deps.queue, deps.job, tx, { tenantId: event.tenantId, cardId, messageId }, situation.assistant.quietSeconds);
  });
}

export function createAssistantListeners(deps: ListenerDeps) {
  return [
    defineListener({
      name: 'ai.assistant-on-customer-message',
      event: 'customer-message.stored',
      // Most chats have the assistant switched off: their messages need no job.
      selectRelevant: relevantWhere((event) => event.payload.cardId, cardsWithAiOn),
      handle: (event, ctx) =>
        requestAnswer(deps, { tenantId: event.tenantId, cardId: event.payload.cardId, messageId: event.payload.messageId }, ctx, {
          waitForTranscript: true,
          columnId: event.payload.columnId,
        }),
    }),
    defineListener({
      name: 'ai.assistant-on-voice-note',
      event: 'voice-note.transcribed',
      handle: (event, ctx) =>
        requestAnswer(deps, { tenantId: event.tenantId, cardId: event.payload.cardId, messageId: event.payload.messageId }, ctx, { waitForTranscript: false }),
    }),
    defineListener({
      name: 'ai.assistant-on-card-moved',
      event: 'card.moved',
      // The move switched the chat's AI on or off in its transaction: only chats it left on can have a question waiting.
      selectRelevant: relevantWhere((event) => event.payload.cardId, cardsWithAiOn),
      handle: (event, ctx) => answerWaitingQuestion(deps, event, ctx),
    }),
    defineListener({
      name: 'ai.pause-on-team-reply',
      event: 'team-message.sent',
      handle: (event, ctx) => pauseOnTeamReply(deps, event.tenantId, event.payload.cardId, ctx.recordDelivery),
    }),
  ];
}
