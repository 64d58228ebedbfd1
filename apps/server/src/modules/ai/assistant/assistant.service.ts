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
  recentMessages,
  storeOutbound,
  storeSystemNote,
} from '../../chats/index.ts';
import { type BoardEvents, type CardRow, columnAssistant, findCard, switchCardAiOff } from '../../funnels/index.ts';
import { findTenantById, type TenantRow } from '../../tenants/index.ts';
import { recordAiUsage } from '../../usage/index.ts';
import type { KnowledgeSearch } from '../knowledge/knowledge-search.ts';
import { AiModelError, type AiAnswer, type AiModel, type AiTool } from '../model/model-port.ts';
import { ASSISTANT_AUTHOR, type EffectRecorder, type LedgerAnswer, type ToolLedger } from '../tools/tool-ledger.ts';
import { conversationContext } from './conversation-context.ts';

export { ASSISTANT_AUTHOR };
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
  /** The tools the model may call for this chat (issue 15 item 2); what they change is recorded in the answer's ledger. */
  toolsFor: (conversation: AssistantConversation, ledger: EffectRecorder) => Promise<AiTool[]>;
  /** The ledger of one answer's tool calls (docs/decisions/0028). */
  ledgerFor: (answer: LedgerAnswer) => ToolLedger;
}

interface Situation {
  tenant: TenantRow;
  card: CardRow;
  assistant: GeminiConfig;
}

/**
 * Whether the column assistant answers on this card now: its column's assistant on, no flow bot there, the card's AI on, a plan with AI.
 * `columnId`: the column whose assistant started the answer, when its own move took the card elsewhere.
 */
export async function assistantSituation(executor: DbExecutor, tenantId: string, cardId: string, columnId?: string): Promise<Situation | undefined> {
  const card = await findCard(executor, tenantId, cardId);
  if (!card || card.archived) return undefined;
  // After its own move into a column without an assistant the card's AI is off, but no person took the chat: the
  // answer that moved it still finishes.
  const finishingOwnMove = columnId !== undefined && card.aiOffReason === null;
  if (!card.aiEnabled && !finishingOwnMove) return undefined;
  const column = await columnAssistant(executor, tenantId, columnId ?? card.columnId);
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

/**
 * An answer's tool calls are recorded by (message, call index): a retry gets what its calls did back instead of acting
 * again, and an answer that is not delivered undoes what they did (docs/decisions/0028).
 */
export async function answerCustomer(deps: AssistantDeps, request: AnswerRequest, ctx: JobContext) {
  const ledger = deps.ledgerFor(request);
  const answeringColumnId = await ledger.columnBeforeOwnMove();
  const situation = await assistantSituation(deps.db, request.tenantId, request.cardId, answeringColumnId);
  if (!situation || !(await isLatest(deps.db, request))) return ledger.dropAll();
  if (!deps.model) return cannotAnswer(deps, request, situation.assistant, failedNote(NO_MODEL));

  const { tenant, card, assistant } = situation;
  const conversation = {
    tenantId: tenant.id,
    cardId: card.id,
    funnelId: card.funnelId,
    columnId: answeringColumnId ?? card.columnId,
    timeZone: tenant.timezone,
  };
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
    answer = await deps.model.answer({
      ...context,
      tools: await deps.toolsFor(conversation, ledger),
      maxToolRounds: MAX_TOOL_ROUNDS,
      signal: superseded.signal,
      callTool: ledger.caller(assistant.fallbackReply || undefined),
    });
  } catch (error) {
    if (superseded.signal.aborted) return ledger.dropAll();
    return answerFailed(deps, request, error, ctx, ledger, assistant);
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
  if (!deliver) await ledger.dropAll();
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
    if (!recorded || !deliver) return { delivered: false };
    if (!text) return { delivered: true };
    if (!windowIsOpen(current.contactLastMessageAt, deps.clock().getTime())) {
      return {
        delivered: true,
        note: await storeSystemNote(tx, { tenantId: request.tenantId, cardId: request.cardId, authorName: ASSISTANT_AUTHOR, text: windowClosedNote(text) }),
      };
    }
    return {
      delivered: true,
      sent: await storeOutbound(deps.outbound, tx, { tenantId: request.tenantId, userId: null }, current, { type: 'text', text }, { sender: 'ai' }),
    };
  });
  // An earlier attempt may have gone further than this one: what it did beyond this answer's calls is undone.
  if (outcome.delivered) await ledger.keepFirst(answer.toolCalls.length);
  if (outcome.sent) emitNewMessage(deps.chatEvents, request.tenantId, outcome.sent.updatedCard, outcome.sent.message, false);
  if (outcome.note) await announceNote(deps.chatEvents, request.tenantId, outcome.note);
}

/**
 * A transient failure with attempts left is retried (what the tools did stays for the retry to find). Otherwise the
 * answer is dropped with what its tools did; the reason goes to a note, never to the customer, who reads the
 * column's neutral sentence instead.
 */
async function answerFailed(deps: AssistantDeps, request: AnswerRequest, error: unknown, ctx: JobContext, ledger: ToolLedger, assistant: GeminiConfig) {
  const kind = error instanceof AiModelError ? error.kind : undefined;
  if (kind && TRANSIENT.has(kind) && ctx.attempt < ANSWER_MAX_ATTEMPTS) throw error;
  deps.log.warn({ err: error, tenantId: request.tenantId, cardId: request.cardId }, 'the AI assistant could not answer');
  await ledger.dropAll();
  if (kind === 'blocked') {
    const switched = await deps.db.transaction(async (tx) => {
      const card = await switchCardAiOff({ events: deps.boardEvents }, tx, request.tenantId, request.cardId, 'handed_over');
      const note = await storeSystemNote(tx, { tenantId: request.tenantId, cardId: request.cardId, authorName: ASSISTANT_AUTHOR, text: blockedNote });
      return { card, note };
    });
    await announceNote(deps.chatEvents, request.tenantId, switched.note);
    // The chat is now a person's: the customer is told someone will answer.
    return sendFallbackReply(deps, request, assistant.fallbackReply, { aiSwitchedOff: true });
  }
  const reason = error instanceof Error && error.message ? error.message : 'error desconocido.';
  return cannotAnswer(deps, request, assistant, failedNote(reason));
}

/** The team reads why in a note; the customer, if still waiting, the column's neutral sentence. */
async function cannotAnswer(deps: AssistantDeps, request: AnswerRequest, assistant: GeminiConfig, noteText: string) {
  const note = await storeSystemNote(deps.db, { tenantId: request.tenantId, cardId: request.cardId, authorName: ASSISTANT_AUTHOR, text: noteText });
  await announceNote(deps.chatEvents, request.tenantId, note);
  await sendFallbackReply(deps, request, assistant.fallbackReply, { aiSwitchedOff: false });
}

/** Recent messages read to tell whether the business's last word is already the neutral sentence. */
const FALLBACK_LOOKBACK = 20;

/**
 * Sends the neutral sentence while the customer waits for an answer: their message is still the newest, the chat is
 * the AI's (or was just handed to a person by the failure itself), the 24-hour window is open, and the business's
 * last word is not already that sentence — during an outage the customer reads it once, not after every message.
 */
async function sendFallbackReply(deps: AssistantDeps, request: AnswerRequest, sentence: string, options: { aiSwitchedOff: boolean }) {
  const text = sentence.trim();
  if (!text || !(await isLatest(deps.db, request))) return;
  const card = await findCard(deps.db, request.tenantId, request.cardId);
  if (!card || card.archived || (!card.aiEnabled && !options.aiSwitchedOff)) return;
  if (!windowIsOpen(card.contactLastMessageAt, deps.clock().getTime())) return;
  const recent = await recentMessages(deps.db, request.tenantId, request.cardId, FALLBACK_LOOKBACK);
  const lastOfBusiness = [...recent].reverse().find((message) => message.sender !== 'contact');
  if (lastOfBusiness?.sender === 'ai' && lastOfBusiness.text === text) return;
  const sent = await deps.db.transaction((tx) =>
    storeOutbound(deps.outbound, tx, { tenantId: request.tenantId, userId: null }, card, { type: 'text', text }, { sender: 'ai' }),
  );
  emitNewMessage(deps.chatEvents, request.tenantId, sent.updatedCard, sent.message, false);
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
