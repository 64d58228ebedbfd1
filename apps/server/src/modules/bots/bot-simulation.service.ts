import { and, eq, lt, sql } from 'drizzle-orm';
import type { BotConfig } from '@embudo/contracts/flows/flow';
import { SIMULATION_NOT_FOUND, type SimulateResponse } from '@embudo/contracts/http/bots';
import { botSessions } from '../../../db/schema/index.ts';
import { notFound } from '../../platform/errors/app-error.ts';
import { requireOwnerOrAdmin } from '../../platform/policy/policy.ts';
import { requireBot, type BotsScope } from './bots.service.ts';
import { runnableDraft } from './bot-secrets.ts';
import { runServicesFor, type BotRunDeps } from './bot-run-services.ts';
import { advanceFlow, newRunState } from './runtime/flow-runtime.ts';
import type { BotMessage } from './runtime/node-executor.ts';

/** Playground sessions nobody touched for this long are removed when a new one starts. */
const SIMULATION_TTL_MS = 24 * 60 * 60 * 1000;
export const SIMULATION_CONTACT = { contact_name: 'Cliente de prueba', contact_phone: '5210000000000' };
export const NO_REPLY = '(El bot no respondió a este mensaje.)';
/** After Asignar a Humano a live chat's bot stays silent; the playground says so instead of starting over. */
export const HANDED_TO_HUMAN = '[El chat está con una persona: el bot ya no responde. Reinicia la conversación para probarlo de nuevo.]';

/** How the playground shows what a live chat would send on WhatsApp. */
export function playgroundText(message: BotMessage): string {
  switch (message.type) {
    case 'text':
      return message.text;
    case 'image':
      return `🖼 Imagen: ${message.url}`;
    case 'options':
      return [message.text, ...message.options.map((option, index) => `${index + 1}. ${option.label}`)].filter(Boolean).join('\n');
  }
}

/**
 * POST /api/bots/{id}/simulate: runs the editor's unsaved flow through the live runtime, in a test
 * session kept on the server. A missing or finished session (or one of another bot) starts a new one.
 * Credentials the editor holds masked run with the bot's stored ones.
 */
export async function simulate(
  deps: BotRunDeps,
  scope: BotsScope,
  botId: string,
  input: { message: string; sessionId?: string | null; botConfig: BotConfig },
): Promise<SimulateResponse> {
  requireOwnerOrAdmin(scope.actor);
  const bot = await requireBot(scope.db, scope.tenantId, botId);
  const [existing] = input.sessionId
    ? await scope.db
        .select()
        .from(botSessions)
        .where(
          and(eq(botSessions.id, input.sessionId), eq(botSessions.tenantId, scope.tenantId), eq(botSessions.kind, 'simulation'), eq(botSessions.botId, bot.id)),
        )
        .limit(1)
    : [];
  const previous = existing?.state ?? newRunState({ ...SIMULATION_CONTACT });
  if (existing && previous.status === 'human') {
    await scope.db.update(botSessions).set({ updatedAt: new Date() }).where(eq(botSessions.id, existing.id));
    return { sessionId: existing.id, reply: HANDED_TO_HUMAN, replies: [HANDED_TO_HUMAN], options: [] };
  }

  const result = await advanceFlow(
    runnableDraft(deps.box, input.botConfig, bot.config),
    previous,
    { kind: 'message', answer: { text: input.message } },
    { mode: 'simulation', services: runServicesFor(deps, scope.tenantId) },
  );
  const lines = result.transcript.map((entry) => (entry.kind === 'message' ? playgroundText(entry.message) : entry.text));
  let sessionId = existing?.id;
  if (existing) {
    await scope.db.update(botSessions).set({ state: result.state, updatedAt: new Date() }).where(eq(botSessions.id, existing.id));
  } else {
    await scope.db
      .delete(botSessions)
      .where(and(eq(botSessions.kind, 'simulation'), lt(botSessions.updatedAt, sql`now() - ${SIMULATION_TTL_MS}::float8 * interval '1 millisecond'`)));
    const [row] = await scope.db
      .insert(botSessions)
      .values({ tenantId: scope.tenantId, kind: 'simulation', botId: bot.id, state: result.state })
      .returning({ id: botSessions.id });
    sessionId = row!.id;
  }
  const replies = lines.length > 0 ? lines : [NO_REPLY];
  return { sessionId: sessionId!, reply: replies.join('\n\n'), replies, options: result.state.status === 'waiting_input' ? (result.waitingOptions ?? []) : [] };
}

/** DELETE /api/bots/simulation/{sessionId}: the playground's reset. */
export async function endSimulation(scope: BotsScope, sessionId: string): Promise<void> {
  requireOwnerOrAdmin(scope.actor);
  const removed = await scope.db
    .delete(botSessions)
    .where(and(eq(botSessions.id, sessionId), eq(botSessions.tenantId, scope.tenantId), eq(botSessions.kind, 'simulation')))
    .returning({ id: botSessions.id });
  if (removed.length === 0) throw notFound(SIMULATION_NOT_FOUND);
}
