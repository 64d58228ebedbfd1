import { windowIsOpen } from '@embudo/contracts/http/chats';
import type { GeminiConfig } from '@embudo/contracts/http/funnels';
import { planIncludes } from '@embudo/contracts/http/plans';
import { z } from 'zod';
import type { Db, DbExecutor, Tx } from '../../../platform/db/database.ts';
import type { Logger } from '../../../platform/logger/logger.ts';
import type { JobQueue } from '../../../platform/queue/job-queue.ts';
import { defineJob, type JobContext } from '../../../platform/queue/job-definition.ts';
import {
  announceNote,
  type ChatEvents,
  emitNewMessage,
  latestCustomerMessageId,
  type OutboundDeps,
  storeOutbound,
  storeSystemNote,
} from '../../chats/index.ts';
import { type BoardEvents, type CardRow, columnAssistant, findCard, switchCardAiOff } from '../../funnels/index.ts';
import { findTenantById, type TenantRow } from '../../tenants/index.ts';
import { recordAiUsage } from '../../usage/index.ts';
import type { KnowledgeSearch } from '../knowledge/knowledge-search.ts';
import { AiModelError, type AiAnswer, type AiModel, type AiTool } from '../model/model-port.ts';
import { conversationContext } from './conversation-context.ts';

/** The name the assistant's internal notes carry. */
export const ASSISTANT_AUTHOR = 'Asistente IA';
/** Issue 15: at most 5 tool rounds per answer. */
export const MAX_TOOL_ROUNDS = 5;
export const ANSWER_MAX_ATTEMPTS = 3;
export const NO_MODEL = 'no hay un modelo de IA configurado.';
export const failedNote = (reason: string) => `La IA no pudo responder: ${reason}`;
export const blockedNote = 'La IA pasó la conversación a una persona: el modelo no quiso responder a este mensaje.';
export const windowClosedNote = (draft: string) =>
  `La IA no envió su respuesta porque la ventana de 24 horas está cerrada (envía una plantilla para reabrirla). Respuesta propuesta: ${draft}`;
export const takeoverNote = 'La IA se pausó en este chat porque alguien del equipo respondió. Actívala de nuevo con el interruptor del chat.';

/** How often an answer being worked on checks whether the customer wrote again. */
export const SUPERSEDE_CHECK_MS = 500;

class SupersededAnswer extends Error {
  constructor() {
    super('El cliente escribió de nuevo: esta respuesta se descarta.');
  }
}

/** Failures that may pass: worth another attempt before the note. */
const TRANSIENT = new Set<AiModelError['kind']>(['quota', 'timeout', 'unavailable']);

/** The chat a tool acts on. */
export interface AssistantConversation {
  tenantId: string;
  cardId: string;
  funnelId: string;
  columnId: string;
  timeZone: string;
}

export interface AssistantDeps {
  db: Db;
  log: Pick<Logger, 'warn' | 'error' | 'info'>;
  clock: () => Date;
  model: AiModel | null;
  outbound: Pick<OutboundDeps, 'enqueueSends'>;
  chatEvents: ChatEvents;
  boardEvents: Pick<BoardEvents, 'cardUpdated'>;
  knowledge: KnowledgeSearch;
  /** The tools the model may call for this chat (issue 15 item 2). */
  toolsFor: (conversation: AssistantConversation) => Promise<AiTool[]>;
}

interface Situation {
  tenant: TenantRow;
  card: CardRow;
  assistant: GeminiConfig;
}

/** Whether the column assistant answers on this card now: its column's assistant on, no flow bot there, the card's AI on, a plan with AI. */
export async function assistantSituation(executor: DbExecutor, tenantId: string, cardId: string): Promise<Situation | undefined> {
  const card = await findCard(executor, tenantId, cardId);
  if (!card || !card.aiEnabled || card.archived) return undefined;
  const column = await columnAssistant(executor, tenantId, card.columnId);
  if (!column?.assistant?.isEnabled || column.botId) return undefined;
  const tenant = await findTenantById(executor, tenantId);
  if (!tenant || !planIncludes(tenant.subscriptionPlan, 'ai_assistant')) return undefined;
  return { tenant, card, assistant: column.assistant };
}

export const answerPayload = z.object({ tenantId: z.uuid(), cardId: z.uuid(), messageId: z.uuid() });
export type AnswerRequest = z.output<typeof answerPayload>;

/**
 * The answer job (never inside the webhook request). Debounce and supersede come from one rule: a job answers only
 * while its message is still the customer's newest in the chat. Back-to-back messages each enqueue a job due
 * `quietSeconds` after them; every job but the newest finds a newer message and stops, and an answer computed while
 * the customer wrote again is dropped (the newer message's job answers everything).
 */
export function createAnswerJob(deps: AssistantDeps) {
  return defineJob({
    name: 'ai.answer-customer',
    payload: answerPayload,
    maxAttempts: ANSWER_MAX_ATTEMPTS,
    backoff: { baseMs: 5_000, maxMs: 60_000 },
    leaseMs: 120_000,
    handler: (request, ctx) => answerCustomer(deps, request, ctx),
  });
}

export type AnswerJob = ReturnType<typeof createAnswerJob>;

/** Enqueues the answer to this customer message, due after the column's quiet window, in the caller's transaction. */
export async function scheduleAnswer(queue: JobQueue, job: AnswerJob, tx: Tx, request: AnswerRequest, quietSeconds: number) {
  await queue.enqueue(tx, job, request, { delayMs: quietSeconds * 1000, singletonKey: `ai-answer:${request.messageId}` });
}

const isLatest = async (executor: DbExecutor, request: AnswerRequest) =>
  (await latestCustomerMessageId(executor, request.tenantId, request.cardId)) === request.messageId;

export async function answerCustomer(deps: AssistantDeps, request: AnswerRequest, ctx: JobContext) {
  const situation = await assistantSituation(deps.db, request.tenantId, request.cardId);
  if (!situation || !(await isLatest(deps.db, request))) return;
  if (!deps.model) return leaveNote(deps, request, failedNote(NO_MODEL));

  const { tenant, card, assistant } = situation;
  const conversation = { tenantId: tenant.id, cardId: card.id, funnelId: card.funnelId, columnId: card.columnId, timeZone: tenant.timezone };
  const context = await conversationContext(deps.db, {
    tenantId: tenant.id,
    cardId: card.id,
    company: { name: tenant.name, timeZone: tenant.timezone },
    assistant,
    now: deps.clock(),
    knowledge: deps.knowledge,
  });
  let answer: AiAnswer;
  // A newer customer message supersedes this answer at once: the model call in flight is cancelled, so a chat has at
  // most one answer being worked on (the newer message's job starts after its quiet window).
  const superseded = new AbortController();
  const watch = setInterval(() => {
    isLatest(deps.db, request).then(
      (latest) => {
        if (!latest) superseded.abort(new SupersededAnswer());
      },
      () => undefined,
    );
  }, SUPERSEDE_CHECK_MS);
  try {
    answer = await deps.model.answer({ ...context, tools: await deps.toolsFor(conversation), maxToolRounds: MAX_TOOL_ROUNDS, signal: superseded.signal });
  } catch (error) {
    if (superseded.signal.aborted) return;
    return answerFailed(deps, request, error, ctx);
  } finally {
    clearInterval(watch);
  }

  const stillLatest = await isLatest(deps.db, request);
  const current = await findCard(deps.db, request.tenantId, request.cardId);
  const handedOver = answer.toolCalls.some((call) => call.name === 'hand_over_to_person');
  // A person who took over while the model thought has the last word; a hand-over the model made itself still says goodbye,
  // and so does a move to a column without an assistant (the model's own move_to_column: "te paso con Soporte").
  const deliver = stillLatest && current !== undefined && (current.aiEnabled || current.aiOffReason === null || handedOver);
  const text = answer.text.trim();
  const outcome = await deps.db.transaction(async (tx) => {
    const recorded = await recordAiUsage(tx, {
      tenantId: request.tenantId,
      cardId: request.cardId,
      kind: 'answer',
      model: answer.model,
      inputTokens: answer.usage.inputTokens,
      outputTokens: answer.usage.outputTokens,
      latencyMs: Math.round(answer.latencyMs),
      toolCalls: answer.toolCalls,
      answeredMessageId: deliver ? request.messageId : undefined,
    });
    if (!recorded || !deliver || !text) return undefined;
    if (!windowIsOpen(current.contactLastMessageAt, deps.clock().getTime())) {
      return {
        note: await storeSystemNote(tx, { tenantId: request.tenantId, cardId: request.cardId, authorName: ASSISTANT_AUTHOR, text: windowClosedNote(text) }),
      };
    }
    return { sent: await storeOutbound(deps.outbound, tx, { tenantId: request.tenantId, userId: null }, current, { type: 'text', text }, { sender: 'ai' }) };
  });
  if (outcome?.sent) emitNewMessage(deps.chatEvents, request.tenantId, outcome.sent.updatedCard, outcome.sent.message, false);
  if (outcome?.note) await announceNote(deps.chatEvents, request.tenantId, outcome.note);
}

async function answerFailed(deps: AssistantDeps, request: AnswerRequest, error: unknown, ctx: JobContext) {
  const kind = error instanceof AiModelError ? error.kind : undefined;
  if (kind && TRANSIENT.has(kind) && ctx.attempt < ANSWER_MAX_ATTEMPTS) throw error;
  deps.log.warn({ err: error, tenantId: request.tenantId, cardId: request.cardId }, 'the AI assistant could not answer');
  if (kind === 'blocked') {
    const switched = await deps.db.transaction(async (tx) => {
      const card = await switchCardAiOff({ events: deps.boardEvents }, tx, request.tenantId, request.cardId, 'handed_over');
      const note = await storeSystemNote(tx, { tenantId: request.tenantId, cardId: request.cardId, authorName: ASSISTANT_AUTHOR, text: blockedNote });
      return { card, note };
    });
    return announceNote(deps.chatEvents, request.tenantId, switched.note);
  }
  const reason = error instanceof Error && error.message ? error.message : 'error desconocido.';
  return leaveNote(deps, request, failedNote(reason));
}

async function leaveNote(deps: AssistantDeps, request: AnswerRequest, text: string) {
  const note = await storeSystemNote(deps.db, { tenantId: request.tenantId, cardId: request.cardId, authorName: ASSISTANT_AUTHOR, text });
  await announceNote(deps.chatEvents, request.tenantId, note);
}

/**
 * A team member wrote in the chat: the card's AI steps back, unless its column says not to ("Pausar la IA cuando
 * alguien del equipo responde" off). The switch moves on every open board and a note says why.
 */
export async function pauseOnTeamReply(
  deps: Pick<AssistantDeps, 'db' | 'boardEvents' | 'chatEvents'>,
  tenantId: string,
  cardId: string,
  recordDelivery: (tx: Tx) => Promise<boolean>,
) {
  const card = await findCard(deps.db, tenantId, cardId);
  if (!card?.aiEnabled) return;
  const column = await columnAssistant(deps.db, tenantId, card.columnId);
  if (!column?.assistant?.isEnabled || !column.assistant.pauseOnHumanReply) return;
  const note = await deps.db.transaction(async (tx) => {
    if (!(await recordDelivery(tx))) return undefined;
    const switched = await switchCardAiOff({ events: deps.boardEvents }, tx, tenantId, cardId, 'team_reply');
    return switched ? storeSystemNote(tx, { tenantId, cardId, authorName: ASSISTANT_AUTHOR, text: takeoverNote }) : undefined;
  });
  if (note) await announceNote(deps.chatEvents, tenantId, note);
}
