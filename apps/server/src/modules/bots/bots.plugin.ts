import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context.ts';
import { registerTenantRoutes } from '../../platform/http/route-access.ts';
import { landingColumn } from '../autobot/index.ts';
import type { AiModel } from '../ai/index.ts';
import type { ScheduleDeps } from '../chats/index.ts';
import { realtimeBoardEvents } from '../funnels/index.ts';
import { createBotLive } from './bot-live.service.ts';
import type { BotRunDeps } from './bot-run-services.ts';
import { createBotTimerJob } from './bots.jobs.ts';
import { createBotListeners } from './bots.listeners.ts';
import { botsRoutes } from './bots.routes.ts';
import { createSmtpEmailSender } from './email-sender.ts';

export interface BotsPluginOptions extends AppContext {
  /** The chats module's outbound queue, through which live flows answer (and their AI schedules messages). */
  outbound: ScheduleDeps;
  /** SMTP server for the sendEmail node; unset, the node reports that e-mail is not configured. */
  smtpUrl?: string;
  /** The AI module's model for the aiPrompt node (the same one the column assistant uses); null, the node says AI is not configured. */
  aiModel: AiModel | null;
}

/** Bots Studio flows: the same runtime for the playground (routes) and live chats (listeners and the timer job). */
export const botsPlugin: FastifyPluginAsync<BotsPluginOptions> = async (app, options) => {
  const { db, box, queue, domainEvents, storage, log, outbound, smtpUrl, aiModel } = options;
  const boardEvents = realtimeBoardEvents(options.realtime);
  const run: BotRunDeps = {
    db,
    box,
    http: options.outboundHttp,
    email: smtpUrl ? createSmtpEmailSender(smtpUrl) : undefined,
    ai: aiModel ?? undefined,
  };
  // The timer job and the live runtime need each other: the job's handler reads `live` only when a timer fires.
  const timerJob = createBotTimerJob(() => live);
  const live = createBotLive({
    ...run,
    outbound,
    storage,
    boardEvents,
    log,
    enqueueTimer: (tx, payload, runAt) => queue.enqueue(tx, timerJob, payload, { runAt, singletonKey: `bot-timer:${payload.sessionId}:${payload.revision}` }),
    autobotWaitingRoom: (tenantId) => landingColumn(db, tenantId),
  });
  queue.register(timerJob);
  for (const listener of createBotListeners(live)) domainEvents.register(listener);
  await registerTenantRoutes(app, (scope) => scope.register(botsRoutes, { ...run, boardEvents }));
};
