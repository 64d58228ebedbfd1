import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context.ts';
import { registerTenantRoutes } from '../../platform/http/route-access.ts';
import { createChatEvents, type ScheduleDeps } from '../chats/index.ts';
import { realtimeBoardEvents } from '../funnels/index.ts';
import { recordAiUsage } from '../usage/index.ts';
import { createAssistantListeners } from './assistant/assistant.listeners.ts';
import { type AssistantConversation, createAnswerJob } from './assistant/assistant.service.ts';
import { copilotRoutes } from './copilot/copilot.routes.ts';
import { type KnowledgeIndex, KNOWLEDGE_UPKEEP_EVERY_MS } from './knowledge/knowledge-index.ts';
import type { KnowledgeSearch } from './knowledge/knowledge-search.ts';
import type { AiModel } from './model/model-port.ts';
import { assistantTools } from './tools/assistant-tools.ts';
import { createToolLedger, type EffectRecorder, type LedgerAnswer } from './tools/tool-ledger.ts';
import { createVoiceNoteListeners } from './transcripts/voice-notes.ts';

export interface AiPluginOptions extends AppContext {
  /** Null when no AI_PROVIDER is configured: the assistant then leaves a note instead of answering. */
  model: AiModel | null;
  /** The chats module's outbox, through which the assistant answers as sender `ai` (and schedules messages). */
  outbound: ScheduleDeps;
  knowledge: KnowledgeSearch;
  /** Its jobs (passages' vectors, the upkeep) are registered here. */
  knowledgeIndex: Pick<KnowledgeIndex, 'embedJob' | 'upkeepJob'>;
}

/** The AI assistant (issue 15): column assistant answers, voice-note transcripts and the agent's copilot. */
export const aiPlugin: FastifyPluginAsync<AiPluginOptions> = async (app, options) => {
  const { db, log, clock, queue, domainEvents, realtime, storage, model, outbound, knowledge } = options;
  const chatEvents = createChatEvents(db, realtime);
  const boardEvents = realtimeBoardEvents(realtime);
  const toolsFor = (conversation: AssistantConversation, ledger: EffectRecorder) =>
    assistantTools({ db, chatEvents, boardEvents, domainEvents, clock, schedule: outbound, http: options.outboundHttp }, conversation, ledger);
  const ledgerFor = (answer: LedgerAnswer) => createToolLedger({ db, chatEvents, boardEvents, domainEvents }, answer);
  const assistant = { db, log, clock, model, outbound, chatEvents, boardEvents, knowledge, toolsFor, ledgerFor };
  const job = createAnswerJob(assistant);
  queue.register(job);
  queue.register(options.knowledgeIndex.embedJob);
  queue.every(options.knowledgeIndex.upkeepJob, KNOWLEDGE_UPKEEP_EVERY_MS);
  for (const listener of createAssistantListeners({ ...assistant, queue, job })) domainEvents.register(listener);
  const voiceNotes = createVoiceNoteListeners({
    db,
    storage,
    model,
    domainEvents,
    chatEvents,
    log,
    recordUsage: (tx, use) =>
      recordAiUsage(tx, {
        tenantId: use.tenantId,
        cardId: use.cardId,
        kind: 'transcript',
        model: use.model,
        inputTokens: use.usage.inputTokens,
        outputTokens: use.usage.outputTokens,
        latencyMs: use.latencyMs,
      }).then(() => undefined),
  });
  for (const listener of voiceNotes) domainEvents.register(listener);
  await registerTenantRoutes(app, (scope) => scope.register(copilotRoutes, { model, knowledge, chatEvents, clock }));
};
