import type { JobQueue } from '../../../platform/queue/job-queue.ts';
import { defineListener, relevantWhere, type ListenerContext } from '../../../platform/events/index.ts';
import { findMessageKind } from '../../chats/index.ts';
import { cardsWithAiOn } from '../../funnels/index.ts';
import { type AnswerJob, type AnswerRequest, assistantSituation, type AssistantDeps, pauseOnTeamReply, scheduleAnswer } from './assistant.service.ts';

/**
 * Enqueues the answer when the assistant is on for the chat. A voice note waits for its transcript when one is coming
 * (a model is configured): `voice-note.transcribed` then asks for the answer, so the assistant reads the customer's words.
 */
async function requestAnswer(
  deps: AssistantDeps & { queue: JobQueue; job: AnswerJob },
  request: AnswerRequest,
  ctx: ListenerContext,
  waitForTranscript: boolean,
) {
  const situation = await assistantSituation(deps.db, request.tenantId, request.cardId);
  if (!situation) return;
  if (waitForTranscript && deps.model && (await findMessageKind(deps.db, request.tenantId, request.messageId)) === 'audio') return;
  await deps.db.transaction(async (tx) => {
    if (!(await ctx.recordDelivery(tx))) return;
    await scheduleAnswer(deps.queue, deps.job, tx, request, situation.assistant.quietSeconds);
  });
}

export function createAssistantListeners(deps: AssistantDeps & { queue: JobQueue; job: AnswerJob }) {
  return [
    defineListener({
      name: 'ai.assistant-on-customer-message',
      event: 'customer-message.stored',
      // Most chats have the assistant switched off: their messages need no job.
      selectRelevant: relevantWhere((event) => event.payload.cardId, cardsWithAiOn),
      handle: (event, ctx) => requestAnswer(deps, { tenantId: event.tenantId, cardId: event.payload.cardId, messageId: event.payload.messageId }, ctx, true),
    }),
    defineListener({
      name: 'ai.assistant-on-voice-note',
      event: 'voice-note.transcribed',
      handle: (event, ctx) => requestAnswer(deps, { tenantId: event.tenantId, cardId: event.payload.cardId, messageId: event.payload.messageId }, ctx, false),
    }),
    defineListener({
      name: 'ai.pause-on-team-reply',
      event: 'team-message.sent',
      handle: (event, ctx) => pauseOnTeamReply(deps, event.tenantId, event.payload.cardId, ctx.recordDelivery),
    }),
  ];
}
