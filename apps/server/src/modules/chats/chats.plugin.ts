import type { FastifyPluginAsync } from 'fastify';
import type { ProviderFailure, ProviderName, WhatsAppLines } from '../../messaging-providers/provider.ts';
import type { AppContext } from '../../platform/app-context.ts';
import type { Tx } from '../../platform/db/database.ts';
import { registerTenantRoutes } from '../../platform/http/route-access.ts';
import type { JobDefinition } from '../../platform/queue/job-definition.ts';
import { createChatEvents } from './chat-events.ts';
import { createChatJobs, createScheduledJob } from './chats.jobs.ts';
import { chatsRoutes } from './chats.routes.ts';
import { applyDeliveries, type InboundBot, type InboundDeps } from './inbound.service.ts';
import { throughputResendDelayMs } from './inbound-statuses.ts';
import { WebhookIntake } from './webhook-intake.ts';
import { WebhookEndpoints } from './webhook-endpoints.ts';
import type { OutboundDeps } from './outbound.service.ts';
import { webhooksRoutes } from './webhooks.routes.ts';
import { whatsappSettingsRoutes } from './whatsapp-settings.routes.ts';
import { DeliveryCounter } from './webhook-activity.ts';
import { SendPacer, slowsTheNumber } from '../send-pacing/index.ts';

export interface ChatProviderPorts {
  /** Each company's WhatsApp line through the provider it chose (the provider port, resolved by the composition root). */
  lines: WhatsAppLines;
  /** The auto-bot's waiting room, where a new chat lands (autobot sits above chats). */
  inboundBot?: InboundBot;
  /** How long a webhook's answer waits for its delivery to be applied; 0 (production): it answers once it is stored. */
  webhookAnswerWaitMs?: number;
}

/** The chats module's outbound queue: what chats, the auto-bot, flow bots and bulk sends write messages through. */
export type ChatOutbound = ReturnType<typeof createChatOutbound>;

/**
 * Builds the chat jobs and the enqueue functions that record them in the caller's transaction (outbox). Built once
 * in app.ts, since modules above chats send through it; the chats plugin registers its jobs.
 */
export function createChatOutbound(context: AppContext, ports: ChatProviderPorts) {
  const { db, queue, domainEvents, storage, publicUrl, log } = context;
  const events = createChatEvents(db, context.realtime);
  const pacer = new SendPacer({ db, clock: context.clock });
  // A refusal for the number's throughput, answered to a send or reported afterwards by a status: its pace slows down.
  const slowDownOn = async (tenantId: string, failure: ProviderFailure) => (slowsTheNumber(failure) ? pacer.slowDown(tenantId) : undefined);
  const chatJobs = createChatJobs({
    db,
    events,
    domainEvents,
    storage,
    publicUrl,
    log,
    lines: ports.lines,
    observeOutboxLag: (seconds) => context.metrics.outboxLag(seconds),
    onRateLimited: slowDownOn,
  });
  const outbound = {
    db,
    lines: ports.lines,
    events,
    domainEvents,
    // The order key keeps one chat's sends in the order they were written, however many run at once.
    enqueueSends: (tx: Tx, sends: ReadonlyArray<{ tenantId: string; messageId: string; cardId: string }>) =>
      queue.enqueueMany(
        tx,
        sends.map(({ tenantId, messageId, cardId }) => ({
          definition: chatJobs.sendMessage,
          payload: { tenantId, messageId },
          options: { singletonKey: `send:${messageId}`, orderKey: `chat:${cardId}` },
        })),
      ),
    enqueueMediaDownload: (tx: Tx, input: { tenantId: string; messageId: string; url: string; contentType?: string; provider?: ProviderName }) =>
      queue.enqueue(tx, chatJobs.downloadMedia, input),
    enqueueReadReceipt: (tx: Tx, input: { tenantId: string; messageId: string }) =>
      queue.enqueue(tx, chatJobs.sendReadReceipt, input, { singletonKey: `read:${input.messageId}` }),
    // One chat's reactions go out in order, behind its sends, so the newest reaction is the one WhatsApp keeps.
    enqueueReaction: (tx: Tx, input: { tenantId: string; messageId: string; userId: string }) =>
      queue.enqueue(tx, chatJobs.sendReaction, input, { orderKey: `reaction:${input.messageId}:${input.userId}` }),
  } satisfies OutboundDeps & Record<string, unknown>;
  const scheduledJob = createScheduledJob(outbound);
  // Webhook deliveries per company and hour (the WhatsApp activity panel), written every few seconds.
  const deliveryCounter = new DeliveryCounter(db, log);
  const endpoints = new WebhookEndpoints(db, ports.lines, context.clock);
  const inbound: Omit<InboundDeps, 'intake' | 'endpoints'> = {
    ...outbound,
    bot: ports.inboundBot,
    // The chat's order key keeps it behind sends written after it was first sent; a key per resend, so the finished
    // first job (or a resend still recorded as running) never hides it.
    resendThrottled: (tx, { tenantId, messageId, cardId, resend }) =>
      queue.enqueue(
        tx,
        chatJobs.sendMessage,
        { tenantId, messageId },
        { singletonKey: `send:${messageId}:resend-${resend}`, orderKey: `chat:${cardId}`, delayMs: throughputResendDelayMs(resend) },
      ),
    onThrottled: async (tenantId, failure) => {
      try {
        await slowDownOn(tenantId, failure);
      } catch (error) {
        log.warn({ err: error, tenantId }, 'could not slow down the sending number after a refusal for throughput');
      }
    },
    log,
    deliveryCounter,
    onDelivery: (outcome) => context.metrics.webhookDelivery(outcome),
  };
  const intake = new WebhookIntake({
    db,
    log,
    clock: context.clock,
    answerWaitMs: ports.webhookAnswerWaitMs ?? 0,
    receiversOf: async (tenantId) => {
      const endpoint = await endpoints.of(tenantId);
      if (!endpoint) return undefined;
      const receivers = { gupshup: await endpoint.receiver('gupshup'), meta: await endpoint.receiver('meta') };
      return (provider) => receivers[provider];
    },
    apply: (tx, tenantId, receiverOf, rows) => applyDeliveries(inbound, tx, tenantId, receiverOf, rows),
    onApplied: (tenantId, applied, receivedAt) => {
      context.metrics.webhookDelivery(applied.outcome);
      for (const kind of applied.kinds) deliveryCounter.count(tenantId, kind, receivedAt);
    },
    afterCommit: () => queue.wakeAfterCommit(),
  });
  const jobs: JobDefinition[] = [chatJobs.sendMessage, chatJobs.downloadMedia, chatJobs.sendReadReceipt, chatJobs.sendReaction, scheduledJob];
  return {
    ...outbound,
    enqueueScheduled: (tx: Tx, input: { tenantId: string; scheduledId: string }, runAt: Date) =>
      queue.enqueue(tx, scheduledJob, input, { runAt, singletonKey: `scheduled:${input.scheduledId}` }),
    jobs,
    deliveryCounter,
    /** What the webhook routes need: the inbound side, with the intake that stores and applies deliveries. */
    inbound: { ...inbound, intake, endpoints } satisfies InboundDeps,
    intake,
  };
}

export interface ChatsPluginOptions extends AppContext {
  outbound: ChatOutbound;
  /** Whether this process applies deliveries left waiting (the job workers' processes). */
  runJobs?: boolean;
}

/** Messages, notes, scheduled sends, media and the provider's inbound webhook. */
export const chatsPlugin: FastifyPluginAsync<ChatsPluginOptions> = async (app, { db, box, queue, storage, publicUrl, sandbox, outbound, runJobs }) => {
  for (const job of outbound.jobs) queue.register(job);
  outbound.deliveryCounter.start();
  if (runJobs) app.addHook('onReady', async () => outbound.intake.start());
  // The intake's last batch commits (and counts its deliveries) before the counter writes its last figures.
  app.addHook('preClose', async () => {
    await outbound.intake.stop();
    await outbound.deliveryCounter.stop();
  });
  await app.register(webhooksRoutes({ ...outbound.inbound, storage }));
  await registerTenantRoutes(app, async (scope) => {
    await scope.register(chatsRoutes, { ...outbound, storage, publicUrl, sandbox });
    await scope.register(whatsappSettingsRoutes, { db, box, lines: outbound.lines, publicUrl, sandbox });
  });
};
