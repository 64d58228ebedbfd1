import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context.ts';
import { registerTenantRoutes } from '../../platform/http/route-access.ts';
import { landingColumn } from '../autobot/index.ts';
import type { OutboundDeps } from '../chats/index.ts';
import { realtimeBoardEvents } from '../funnels/index.ts';
import { createGeminiResponder } from './ai-responder.ts';
import { createBotLive } from './bot-live.service.ts';
import type { BotRunDeps } from './bot-run-services.ts';
import { createBotTimerJob } from './bots.jobs.ts';
import { createBotListeners } from './bots.listeners.ts';
import { botsRoutes } from './bots.routes.ts';
import { createSmtpEmailSender } from './email-sender.ts';

export interface BotsPluginOptions extends AppContext {
  /** The chats module's outbound queue, through which live flows answer. */
  outbound: OutboundDeps;
  /** SMTP server for the sendEmail node; unset, the node reports that e-mail is not configured. */
  smtpUrl?: string;
  /** Gemini for the aiPrompt node; unset, the node says AI is not configured. */
  gemini?: { apiKey: string; baseUrl?: string };
}

/** Bots Studio flows: the same runtime for the playground (routes) and live chats (listeners and the timer job). */
export const botsPlugin: FastifyPluginAsync<BotsPluginOptions> = async (app, options) => {
  const { db, box, queue, domainEvents, storage, log, outbound, smtpUrl, gemini } = options;
  const boardEvents = realtimeBoardEvents(options.realtime);
  const run: BotRunDeps = {
    db,
    box,
    http: options.outboundHttp,
    email: smtpUrl ? createSmtpEmailSender(smtpUrl) : undefined,
    ai: gemini ? createGeminiResponder(gemini) : undefined,
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
