import type { NoteDto } from '@embudo/contracts/http/chats';
import { geminiConfigSchema } from '@embudo/contracts/http/funnels';
import { PLAN_FEATURE_MISSING, planIncludes } from '@embudo/contracts/http/plans';
import { badGateway, forbidden, serviceUnavailable } from '../../../platform/errors/app-error.ts';
import type { RequestScope } from '../../../platform/http/request-scope.ts';
import { announceNote, type ChatEvents, storeSystemNote, writableCard } from '../../chats/index.ts';
import { columnAssistant } from '../../funnels/index.ts';
import { findTenantById } from '../../tenants/index.ts';
import { recordAiUsage } from '../../usage/index.ts';
import { conversationContext } from '../assistant/conversation-context.ts';
import type { KnowledgeSearch } from '../knowledge/knowledge-search.ts';
import { AiModelError, type AiAnswer, type AiModel } from '../model/model-port.ts';

export const COPILOT_AUTHOR = 'Copiloto IA';
export const COPILOT_NO_MODEL = 'La IA no está disponible: no hay un modelo de IA configurado.';
export const copilotFailed = (reason: string) => `La IA no pudo responder: ${reason}`;

const SUGGEST_TASK =
  'Tarea: redacta la próxima respuesta del equipo para este cliente, lista para enviar por WhatsApp. Devuelve solo el texto del mensaje, sin comillas ni explicaciones.';
export const SUMMARY_TASK =
  'Tarea: resume esta conversación para el equipo en 3 a 5 viñetas breves: qué quiere el cliente, qué se le respondió y qué queda pendiente. Devuelve solo el resumen.';

export interface CopilotDeps {
  model: AiModel | null;
  knowledge: KnowledgeSearch;
  chatEvents: ChatEvents;
  clock: () => Date;
}

/** The column's prompt and knowledge when it has an assistant; otherwise a neutral one (the copilot helps on every chat). */
const NO_ASSISTANT = geminiConfigSchema.parse({ isEnabled: false });

async function askCopilot(deps: CopilotDeps, scope: RequestScope, cardId: string, task: string): Promise<AiAnswer> {
  const card = await writableCard(scope.db, scope, cardId);
  const tenant = (await findTenantById(scope.db, scope.tenantId))!;
  if (!planIncludes(tenant.subscriptionPlan, 'ai_assistant')) throw forbidden(PLAN_FEATURE_MISSING.ai_assistant(tenant.subscriptionPlan));
  if (!deps.model) throw serviceUnavailable(COPILOT_NO_MODEL);
  const assistant = (await columnAssistant(scope.db, scope.tenantId, card.columnId))?.assistant ?? NO_ASSISTANT;
  const context = await conversationContext(scope.db, {
    tenantId: scope.tenantId,
    cardId: card.id,
    company: { name: tenant.name, timeZone: tenant.timezone },
    assistant,
    now: deps.clock(),
    knowledge: deps.knowledge,
  });
  // The chat's name when it is the customer's (not their number): a summary says who they are, a draft may greet them.
  const customer = card.titleSource === 'phone' ? [] : [`Nombre del cliente: ${card.title}.`];
  const instructions = [context.instructions, ...customer, task].join('\n\n');
  try {
    // No tools: the copilot only drafts words for a person; it never acts on the chat.
    const answer = await deps.model.answer({ instructions, turns: context.turns, tools: [] });
    await recordAiUsage(scope.db, {
      tenantId: scope.tenantId,
      cardId: card.id,
      kind: 'copilot',
      model: answer.model,
      inputTokens: answer.usage.inputTokens,
      outputTokens: answer.usage.outputTokens,
      latencyMs: Math.round(answer.latencyMs),
    });
    return answer;
  } catch (error) {
    if (error instanceof AiModelError) throw badGateway(copilotFailed(error.message));
    throw error;
  }
}

/** "Sugerir respuesta": a draft for the composer, never sent by itself. */
export async function suggestReply(deps: CopilotDeps, scope: RequestScope, cardId: string): Promise<{ text: string }> {
  return { text: (await askCopilot(deps, scope, cardId, SUGGEST_TASK)).text.trim() };
}

/** "Resumir conversación": the summary is kept as an internal note of the chat. */
export async function summarizeConversation(deps: CopilotDeps, scope: RequestScope, cardId: string): Promise<{ note: NoteDto }> {
  const answer = await askCopilot(deps, scope, cardId, SUMMARY_TASK);
  const text = answer.text.trim() || 'La IA no encontró nada que resumir.';
  // Bullets start on their own line, so the note reads as a list.
  const noteText = text.includes('\n') ? `Resumen:\n${text}` : `Resumen: ${text}`;
  const note = await storeSystemNote(scope.db, { tenantId: scope.tenantId, cardId, authorName: COPILOT_AUTHOR, text: noteText });
  await announceNote(deps.chatEvents, scope.tenantId, note);
  return { note };
}
