import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import type { Db, Tx } from './platform/db/database.ts';
import { JobQueue } from './platform/queue/job-queue.ts';
import { createDiskMediaStorage } from './platform/storage/media-storage.ts';
import { createGupshupProvider } from './messaging-providers/gupshup/gupshup.provider.ts';
import { createGupshupMediaDownloader } from './messaging-providers/gupshup/gupshup-media.ts';
import { sandboxMediaDownloader } from './messaging-providers/sandbox/sandbox-media.ts';
import { FakeGupshup } from './messaging-providers/sandbox/fake-gupshup.ts';
import { FAKE_GUPSHUP_PREFIX, sandboxRoutes } from './messaging-providers/sandbox/sandbox-phone.routes.ts';
import { createDatabaseConversationStore } from './messaging-providers/sandbox/conversation-store.ts';
import { createChatEvents } from './modules/chats/chat-events.ts';
import { createChatJobs, createScheduledJob } from './modules/chats/chats.jobs.ts';
import { chatsRoutes } from './modules/chats/chats.routes.ts';
import { funnelsRoutes } from './modules/funnels/funnels.routes.ts';
import { toCardUpdate } from './modules/funnels/cards.service.ts';
import { webhooksRoutes } from './modules/chats/webhooks.routes.ts';
import type { InboundBot } from './modules/chats/inbound.service.ts';
import type { BoardEvents } from './modules/funnels/board-edit.service.ts';
import { autobotRoutes } from './modules/autobot/autobot.routes.ts';
import { greetOnNextMessage, handleCustomerMessage, landingColumn } from './modules/autobot/autobot.service.ts';
import { allSandboxApps, sandboxApiKey } from './modules/chats/provider-settings.service.ts';
import { MAX_UPLOAD_BYTES } from './modules/chats/media-upload.ts';
import type { Logger } from './platform/logger/logger.ts';
import { registerErrorHandler } from './platform/errors/error-handler.ts';
import { recordRouteTable, registerRouteAccess, registerTenantRoutes, type RouteTableEntry } from './platform/http/route-access.ts';
import { acceptEmptyJsonBodies, MAX_JSON_BODY_BYTES } from './platform/http/json-body-parser.ts';
import { createRealtime, type Realtime } from './platform/realtime/realtime.ts';
import { defaultThrottleLimits, type ThrottleLimits } from './modules/auth/login-throttle.ts';
import { defaultSessionLifetime, type SessionLifetime, type SessionPolicy } from './modules/auth/session-lifetime.ts';
import type { TrustProxy } from './platform/config/config.ts';
import { resolveSession } from './modules/auth/auth.service.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { gupshupCredentials, resolveAdminSession } from './modules/admin/admin.service.ts';
import { createSecretBox } from './platform/crypto/secret-box.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { realtimeFunnelAccess } from './modules/users/users.service.ts';
import { templatesRoutes } from './modules/templates/templates.routes.ts';
import type { SandboxTemplateReviewer } from './modules/templates/templates.service.ts';
import { agendaRoutes } from './modules/agenda/agenda.routes.ts';
import { partnerCredentialsFrom } from './modules/templates/templates.service.ts';
import { createGupshupPartnerClient } from './messaging-providers/gupshup/gupshup-partner.client.ts';
import { createOutboundHttp } from './platform/outbound-http/outbound-http.guard.ts';
import { botsRoutes } from './modules/bots/bots.routes.ts';
import { createBotLive, type BotLive } from './modules/bots/bot-live.service.ts';
import { createBotTimerJob } from './modules/bots/bots.jobs.ts';
import { createSmtpEmailSender } from './modules/bots/email-sender.ts';
import { createGeminiResponder } from './modules/bots/ai-responder.ts';
import { createBatchUpdates, withBatchUpdates } from './modules/bulk-sends/batch-updates.ts';
import { createBulkSendJobs } from './modules/bulk-sends/bulk-sends.jobs.ts';
import { bulkSendsRoutes } from './modules/bulk-sends/bulk-sends.routes.ts';
import { DEFAULT_BULK_SEND_PACE, type BulkSendPace } from './modules/bulk-sends/bulk-sends.service.ts';

export interface AppOptions {
  db: Db;
  logger: Logger;
  /** Media files; tests pass a temporary folder. */
  mediaDir: string;
  /** How the outside world reaches this app (webhook URLs, media the provider fetches). */
  publicUrl?: string;
  providerMode?: 'sandbox' | 'live';
  gupshupApiUrl?: string;
  /** Gupshup's partner API (templates, media samples); the sandbox uses the in-process fake. */
  gupshupPartnerUrl?: string;
  /** Key for secrets at rest (APP_SECRET or the one generated into DATA_DIR). */
  appSecret: string;
  /** Start the job workers when the app is ready (tests drive the queue by hand instead). */
  runJobs?: boolean;
  redisUrl?: string;
  /** Folder of the built SPA; when present it is served with a fallback to index.html. */
  webDist?: string;
  throttle?: ThrottleLimits;
  /** Idle and absolute lifetime of tenant and operator sessions (SESSION_IDLE_DAYS, SESSION_MAX_DAYS). */
  sessionLifetime?: SessionLifetime;
  /** Which proxies' X-Forwarded-For to believe (TRUST_PROXY); by default none, so request.ip is the socket's address. */
  trustProxy?: TrustProxy;
  /** The time sign-in throttling and session expiry are judged by; tests move it. */
  clock?: () => Date;
  /** SMTP server for the bot sendEmail node; unset, the node reports that e-mail is not configured. */
  smtpUrl?: string;
  /** Gemini for the bot aiPrompt node; unset, the node says AI is not configured. */
  geminiApiKey?: string;
  geminiBaseUrl?: string;
  /** URLs from the outside world (bot webhook and image nodes, inbound media) may reach loopback and private networks (tests, on-premise); refused by default. */
  allowPrivateOutbound?: boolean;
  /** How fast bulk sends go out; tests and the benchmark change it. */
  bulkSendPace?: BulkSendPace;
}

export type App = FastifyInstance & { realtime: Realtime; routeTable: RouteTableEntry[]; queue: JobQueue; sandboxPhone?: FakeGupshup };

/** A hop count trusts that many proxies nearest to the server, as Fastify does for a number (its types omit it). */
function fastifyTrustProxy(trust: TrustProxy) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

export async function buildApp(options: AppOptions): Promise<App> {
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger, trustProxy: fastifyTrustProxy(options.trustProxy ?? false), bodyLimit: MAX_JSON_BODY_BYTES,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('routeTable', recordRouteTable(app));
  const { db } = options;
  const clock = options.clock ?? (() => new Date());
  const sessionPolicy: SessionPolicy = { lifetime: options.sessionLifetime ?? defaultSessionLifetime, clock };
  const sessionResolver = (token: string | undefined) => resolveSession(db, token, sessionPolicy);
  const realtime = createRealtime({
    httpServer: app.server, resolveSession: sessionResolver, redisUrl: options.redisUrl, logger: options.logger,
    funnelAccessOf: (tenantId, userId) => realtimeFunnelAccess(db, tenantId, userId),
  });
  app.decorate('realtime', realtime);
  app.addHook('preClose', async () => realtime.close());

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: { 'img-src': ["'self'", 'data:', 'blob:'], 'media-src': ["'self'", 'data:', 'blob:'], 'connect-src': ["'self'", 'ws:', 'wss:'] },
    },
  });
  acceptEmptyJsonBodies(app);
  registerErrorHandler(app, options.webDist && fs.existsSync(options.webDist) ? path.join(options.webDist, 'index.html') : undefined);
  registerRouteAccess(app, sessionResolver, (token) => resolveAdminSession(db, token, sessionPolicy));

  const sandbox = (options.providerMode ?? 'sandbox') === 'sandbox';
  // The in-process sandbox answers on this very server, whatever port it got.
  const internalUrl = () => {
    const address = app.server.address();
    return typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : 'http://127.0.0.1:3000';
  };
  const publicUrl = () => options.publicUrl ?? internalUrl();
  const box = createSecretBox(options.appSecret);
  // Templates, template media and read receipts go through Gupshup's partner API; the sandbox uses the in-process fake.
  const partner = createGupshupPartnerClient({
    baseUrl: sandbox ? () => `${internalUrl()}${FAKE_GUPSHUP_PREFIX}` : options.gupshupPartnerUrl ?? 'https://partner.gupshup.io',
    credentials: async () => partnerCredentialsFrom(await gupshupCredentials(db, box), sandbox),
  });
  const provider = createGupshupProvider({ apiUrl: sandbox ? () => `${internalUrl()}${FAKE_GUPSHUP_PREFIX}` : options.gupshupApiUrl ?? 'https://api.gupshup.io', partner });
  const storage = createDiskMediaStorage(options.mediaDir);
  // The batch dashboard follows the chat events of its messages (statuses, replies) without chats knowing of it.
  const batchUpdates = createBatchUpdates({
    db, log: options.logger, emitToTenant: (tenantId, batchId) => realtime.emitToTenant(tenantId, 'batch_updated', { batchId }),
  });
  app.addHook('preClose', async () => batchUpdates.close());
  const events = withBatchUpdates(createChatEvents(db, realtime), batchUpdates);
  const queue = new JobQueue({ db, logger: options.logger });
  app.decorate('queue', queue);
  const fake = sandbox
    ? new FakeGupshup({
      apps: () => allSandboxApps(db, internalUrl(), options.appSecret),
      publicUrl: () => `${internalUrl()}${FAKE_GUPSHUP_PREFIX}`,
      log: options.logger,
      store: createDatabaseConversationStore(db),
    })
    : undefined;
  const chatJobs = createChatJobs({
    db, provider, events, storage, sandbox, publicUrl, log: options.logger,
    downloadMedia: fake ? sandboxMediaDownloader(fake) : createGupshupMediaDownloader({ allowPrivateNetworks: options.allowPrivateOutbound ?? false }),
    // Live sends use the operator's Gupshup API key (platform settings); sandbox sends the key the fake issued the app.
    providerApiKey: async ({ appName }) => (sandbox ? sandboxApiKey(options.appSecret, appName) : (await gupshupCredentials(db, box)).apiKey ?? ''),
  });
  queue.register(chatJobs.sendMessage);
  queue.register(chatJobs.downloadMedia);
  queue.register(chatJobs.sendReadReceipt);
  if (options.runJobs) {
    app.addHook('onReady', async () => queue.start());
  }
  app.addHook('preClose', async () => queue.stop());

  const chatDeps = {
    db, provider, events,
    enqueueSend: (tx: Tx, input: { tenantId: string; messageId: string }) => queue.enqueue(tx, chatJobs.sendMessage, input, { singletonKey: `send:${input.messageId}` }),
    enqueueMediaDownload: (tx: Tx, input: { tenantId: string; messageId: string; url: string; contentType?: string }) => queue.enqueue(tx, chatJobs.downloadMedia, input),
    enqueueReadReceipt: (tx: Tx, input: { tenantId: string; messageId: string }) => queue.enqueue(tx, chatJobs.sendReadReceipt, input, { singletonKey: `read:${input.messageId}` }),
  };
  const scheduledJob = createScheduledJob(chatDeps);
  queue.register(scheduledJob);
  const bulkSendDeps = { ...chatDeps, pace: options.bulkSendPace ?? DEFAULT_BULK_SEND_PACE, updates: batchUpdates };
  const bulkSendJobs = createBulkSendJobs({ ...bulkSendDeps, log: options.logger });
  queue.register(bulkSendJobs.sendChunk);
  const scheduleDeps = {
    ...chatDeps,
    enqueueScheduled: (tx: Tx, input: { tenantId: string; scheduledId: string }, runAt: Date) => queue.enqueue(tx, scheduledJob, input, { runAt, singletonKey: `scheduled:${input.scheduledId}` }),
  };
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1 } });
  // Bots Studio flows: the same runtime for the playground and live chats.
  const botRunDeps = {
    db,
    box,
    http: createOutboundHttp({ allowPrivateNetworks: options.allowPrivateOutbound ?? false }),
    email: options.smtpUrl ? createSmtpEmailSender(options.smtpUrl) : undefined,
    ai: options.geminiApiKey ? createGeminiResponder({ apiKey: options.geminiApiKey, baseUrl: options.geminiBaseUrl }) : undefined,
  };
  // The live runtime and its timer job need each other; the job reads it once both exist.
  let botLive: BotLive | undefined;
  const botTimerJob = createBotTimerJob(() => botLive!);
  queue.register(botTimerJob);
  const boardEvents: BoardEvents = {
    boardUpdated: (tenantId, funnelId) => realtime.emitToFunnel(tenantId, funnelId, 'board_updated', { funnelId }),
    funnelsUpdated: (tenantId) => realtime.emitToTenant(tenantId, 'funnels_updated', {}),
    cardUpdated: (tenantId, card) => realtime.emitToFunnel(tenantId, card.funnelId, 'card_updated', toCardUpdate(card)),
    cardEnteredColumn: (tenantId, card) =>
      void botLive!.cardEnteredColumn(tenantId, card).catch((error: unknown) => options.logger.error({ err: error, tenantId, cardId: card.id }, 'column bot failed on entry')),
  };
  botLive = createBotLive({
    ...botRunDeps, outbound: chatDeps, storage, boardEvents, log: options.logger,
    enqueueTimer: (tx, payload, runAt) => queue.enqueue(tx, botTimerJob, payload, { runAt, singletonKey: `bot-timer:${payload.sessionId}:${payload.revision}` }),
    autobotWaitingRoom: (tenantId) => landingColumn(db, tenantId),
  });
  const autobotDeps = { db, outbound: chatDeps, boardEvents };
  const inboundBot: InboundBot = {
    landingColumn,
    // The customer's message is already stored and announced; a bot failure must not fail the webhook.
    // The menu auto-bot answers in its waiting room; a column's flow bot everywhere else.
    afterCustomerMessage: async (tenantId, card, message, created) => {
      await handleCustomerMessage(autobotDeps, tenantId, card, message, created).catch((error: unknown) => options.logger.error({ err: error, tenantId, cardId: card.id }, 'auto-bot failed'));
      await botLive!.afterCustomerMessage(tenantId, card, message).catch((error: unknown) => options.logger.error({ err: error, tenantId, cardId: card.id }, 'column bot failed'));
    },
  };
  await app.register(webhooksRoutes({ ...chatDeps, storage, bot: inboundBot }));
  let sandboxReviewer: SandboxTemplateReviewer | undefined;
  if (fake) {
    app.decorate('sandboxPhone', fake);
    app.addHook('onClose', async () => fake.close());
    await app.register(sandboxRoutes({ fake, db }));
    sandboxReviewer = { approve: (appId, providerTemplateId) => fake.approveTemplate(appId, providerTemplateId) };
  }

  const templatesDeps = { db, sandbox, storage, partner };
  await app.register(adminRoutes, {
    db, box, clock,
    throttle: options.throttle ?? defaultThrottleLimits,
    activeConnections: () => realtime.connectionCount(),
    onUserSessionsEnded: (userId) => realtime.disconnectUser(userId),
    sandboxReviewer,
    log: options.logger,
  });

  await app.register(authRoutes, {
    db, clock,
    throttle: options.throttle ?? defaultThrottleLimits,
    onPasswordChanged: (_tenantId, userId) => realtime.disconnectUser(userId),
    onLogout: (sessionId) => realtime.disconnectSession(sessionId),
  });
  await registerTenantRoutes(app, async (scope) => {
    await scope.register(usersRoutes, {
      db,
      onSessionsRevoked: (userId) => realtime.disconnectUser(userId),
      onAccessChanged: async (user) => {
        await realtime.refreshUserAccess(user.id);
        realtime.emitToUser(user.id, 'user_updated', user);
        realtime.emitToUser(user.id, 'funnels_updated', {});
      },
    });
    await scope.register(funnelsRoutes, {
      db, storage,
      events: boardEvents,
      archiveLanding: { column: (tenantId) => landingColumn(db, tenantId), returned: (tenantId, cardId) => greetOnNextMessage(db, tenantId, cardId) },
    });
    await scope.register(autobotRoutes, { db });
    await scope.register(chatsRoutes, { ...scheduleDeps, storage, publicUrl, sandbox });
    await scope.register(templatesRoutes, templatesDeps);
    await scope.register(agendaRoutes, { db });
    await scope.register(botsRoutes, { ...botRunDeps, boardEvents });
    await scope.register(bulkSendsRoutes, {
      ...bulkSendDeps,
      enqueueChunk: (tx, payload, delayMs) => queue.enqueue(tx, bulkSendJobs.sendChunk, payload, { delayMs, singletonKey: `batch:${payload.batchId}:${payload.chunk}` }),
    });
  });

  if (options.webDist && fs.existsSync(options.webDist)) {
    await app.register(fastifyStatic, { root: options.webDist, wildcard: false, index: false });
  }
  return app as unknown as App;
}
