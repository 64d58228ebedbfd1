import type { SecretBox } from '../../platform/crypto/secret-box.ts';
import type { Db } from '../../platform/db/database.ts';
import type { OutboundHttp } from '../../platform/outbound-http/outbound-http.guard.ts';
import type { AiModel } from '../ai/index.ts';
import { scheduleAiMessage, type ScheduleDeps } from '../chats/index.ts';
import { columnsOfFunnel, columnsOfTenant, listFunnelIds, type CardRow } from '../funnels/index.ts';
import { recordAiUsage } from '../usage/index.ts';
import { findUser } from '../users/index.ts';
import { bookSlot, nextFreeSlots } from './bot-agenda-slots.ts';
import { isUuid } from './bots.service.ts';
import type { EmailSender } from './email-sender.ts';
import type { RuntimeServices } from './runtime/node-executor.ts';

/** The name on what a flow's AI schedules. */
const FLOW_AI_AUTHOR = 'Asistente IA (bot)';

/** What every run of a flow needs from the app: the database and the ways out (HTTP, e-mail, AI). */
export interface BotRunDeps {
  db: Db;
  /** Opens the credentials sealed in a flow's nodes, to run it. */
  box: SecretBox;
  http: OutboundHttp;
  email?: EmailSender;
  /** The AI module's model for the aiPrompt node (AI_PROVIDER); unset, the node says AI is not configured. */
  ai?: AiModel;
}

/** The live chat a run answers: the aiPrompt node's schedule tool writes to it. */
export interface LiveChat {
  card: CardRow;
  schedule: ScheduleDeps;
}

/** The model, counting every answer's tokens on the company's usage (kind flow; no card in the playground). */
function meteredModel(model: AiModel, db: Db, tenantId: string, cardId: string | null): AiModel {
  return {
    provider: model.provider,
    label: model.label,
    transcribe: (audio) => model.transcribe(audio),
    async answer(request) {
      const answer = await model.answer(request);
      await recordAiUsage(db, {
        tenantId,
        cardId,
        kind: 'flow',
        model: answer.model,
        inputTokens: answer.usage.inputTokens,
        outputTokens: answer.usage.outputTokens,
        latencyMs: Math.round(answer.latencyMs),
        toolCalls: answer.toolCalls,
      });
      return answer;
    },
  };
}

/** A run's services for one tenant; `moveTo` decides what a redirect does (a live chat moves its card). */
export function runServicesFor(
  deps: BotRunDeps,
  tenantId: string,
  moveTo?: (column: { id: string; funnelId: string }) => void,
  live?: LiveChat,
): RuntimeServices {
  return {
    http: deps.http,
    email: deps.email,
    ai: deps.ai && meteredModel(deps.ai, deps.db, tenantId, live?.card.id ?? null),
    async redirectToColumn(columnId) {
      if (!isUuid(columnId)) return undefined;
      const [column] = await columnsOfTenant(deps.db, tenantId, [columnId]);
      if (!column) return undefined;
      moveTo?.({ id: column.id, funnelId: column.funnelId });
      return column.title;
    },
    async columnChoices() {
      const funnelIds = live ? [live.card.funnelId] : await listFunnelIds(deps.db, tenantId);
      return (await Promise.all(funnelIds.map((funnelId) => columnsOfFunnel(deps.db, tenantId, funnelId)))).flat();
    },
    async scheduleMessage(text, sendAt) {
      if (!live) return;
      await scheduleAiMessage(live.schedule, { tenantId, card: live.card, text, scheduledFor: sendAt, authorName: FLOW_AI_AUTHOR });
    },
    async memberName(userId) {
      return isUuid(userId) ? (await findUser(deps.db, tenantId, userId))?.name : undefined;
    },
    nextFreeSlots: (eventType) => nextFreeSlots(deps.db, tenantId, eventType),
    bookSlot: (slot, client) => bookSlot(deps.db, tenantId, slot, client),
  };
}
