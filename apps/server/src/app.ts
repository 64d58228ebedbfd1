import fs from 'node:fs';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { sql } from 'drizzle-orm';
import { isEmbedded, type Db } from './platform/db/database.ts';
import type { AppContext } from './platform/app-context.ts';
import { JobQueue } from './platform/queue/job-queue.ts';
import { EventBus, registerRequestAfterCommit } from './platform/events/index.ts';
import { createDiskMediaStorage } from './platform/storage/media-storage.ts';
import type { Logger } from './platform/logger/logger.ts';
import { registerErrorHandler } from './platform/errors/error-handler.ts';
import { recordRouteTable, registerRouteAccess, type RouteTableEntry } from './platform/http/route-access.ts';
import { registerRequestScope } from './platform/http/request-scope.ts';
import { registerApiDocs } from './platform/http/api-docs.ts';
import { readSpaDocuments } from './platform/http/spa-documents.ts';
import { registerWebBuild } from './platform/http/web-build.ts';
import { registerSecurityHeaders } from './platform/http/security-headers.ts';
import { exactResponseSerializerCompiler } from './platform/http/response-serializer.ts';
import { acceptEmptyJsonBodies, MAX_JSON_BODY_BYTES } from './platform/http/json-body-parser.ts';
import { MAX_UPLOAD_BYTES } from './platform/http/multipart-upload.ts';
import { createRealtime, type Realtime } from './platform/realtime/realtime.ts';
import { createMetrics, type Metrics } from './platform/metrics/metrics.ts';
import { meterAiModel } from './platform/metrics/ai-metering.ts';
import { registerOperationsRoutes } from './platform/operations/operations.routes.ts';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, JOBS_SHARE_OF_SHUTDOWN } from './platform/operations/shutdown.ts';
import { createRetentionJob, DEFAULT_RETENTION, RETENTION_EVERY_MS, type RetentionPolicy } from './platform/retention/retention.ts';
import { EmbeddedUpkeep } from './platform/maintenance/embedded-vacuum.ts';
import { registerRequestContext, requestIdOptions } from './platform/http/request-id.ts';
import { assertMigrationsApplied } from './platform/db/migrations-status.ts';
import type { TrustProxy } from './platform/config/config.ts';
import { createSecretBox } from './platform/crypto/secret-box.ts';
import { createOutboundHttp } from './platform/outbound-http/outbound-http.guard.ts';
import type { FakeGupshup } from './messaging-providers/sandbox/fake-gupshup.ts';
import type { FakeMetaCloud } from './messaging-providers/sandbox/fake-meta-cloud.ts';
import { internalUrl, setUpMessaging } from './messaging.ts';
import { adminPlugin, resolveAdminSession } from './modules/admin/index.ts';
import { agendaPlugin } from './modules/agenda/index.ts';
import {
  aiPlugin,
  createAiModel,
  createKnowledgeIndex,
  createKnowledgeSearch,
  KnowledgeReader,
  type AiModel,
  type AiModelSettings,
} from './modules/ai/index.ts';
import {
  authPlugin,
  defaultSessionLifetime,
  resolveSession,
  revokeAllSessions,
  type SessionLifetime,
  type SessionPolicy,
  type ThrottleLimits,
} from './modules/auth/index.ts';
import { autobotPlugin, landingColumn, waitingRoomArchive } from './modules/autobot/index.ts';
import { botsPlugin, columnBotsOf } from './modules/bots/index.ts';
import { bulkSendsPlugin } from './modules/bulk-sends/index.ts';
import { chatsPlugin, createChatOutbound, type WebhookIntake } from './modules/chats/index.ts';
import { funnelsPlugin } from './modules/funnels/index.ts';
import { templatesPlugin } from './modules/templates/index.ts';
import { actorOfSession, realtimeFunnelAccess, usersPlugin } from './modules/users/index.ts';
import { whatsappActivityPlugin } from './modules/whatsapp-activity/index.ts';

export interface AppOptions extends AiModelSettings {
  db: Db;
  logger: Logger;
  /** Media files; tests pass a temporary folder. */
  mediaDir: string;
  /** How the outside world reaches this app (webhook URLs, media the provider fetches). */
  publicUrl?: string;
  providerMode?: 'sandbox' | 'live';
  /** Sandbox mode: the wait between a message's statuses from the fakes (SANDBOX_STATUS_STEP_MS, 400 ms by default). */
  sandboxStatusStepMs?: number;
  gupshupApiUrl?: string;
  /** Gupshup's partner API (templates, media samples); the sandbox uses the in-process fake. */
  gupshupPartnerUrl?: string;
  /** Meta's Graph API for companies on the Cloud API (META_GRAPH_URL, META_GRAPH_VERSION); the sandbox uses the in-process fake. */
  metaGraphUrl?: string;
  metaGraphVersion?: string;
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
  /** The one AI model: the column assistant, copilot, transcripts and the bots' aiPrompt node; tests inject one. Unset: the AI_PROVIDER settings pick it (none without). */
  aiModel?: AiModel;
  /** URLs from the outside world (bot webhook and image nodes, inbound media) may reach loopback and private networks (tests, on-premise); refused by default. */
  allowPrivateOutbound?: boolean;
  /** How long a webhook's answer waits for its delivery to be applied (tests wait, so what it stored is there when it answers); 0 by default. */
  webhookAnswerWaitMs?: number;
  /** Fail an answer its response schema would change (tests); production sends what the schema keeps. */
  exactResponses?: boolean;
  /** METRICS_TOKEN: GET /metrics from outside loopback needs it; unset, only loopback may read the metrics. */
  metricsToken?: string;
  /** SHUTDOWN_TIMEOUT_MS: running jobs get part of it to finish at close; the claims of the rest are handed back. */
  shutdownTimeoutMs?: number;
  /** Jobs this process runs at once, a batch counting as one (JOB_CONCURRENCY). */
  jobConcurrency?: number;
  /** How long finished jobs, refused webhook deliveries… are kept (the hourly retention job); sessions follow sessionLifetime. */
  retention?: Partial<Omit<RetentionPolicy, 'sessionLifetime'>>;
}

export type App = FastifyInstance & {
  realtime: Realtime;
  routeTable: RouteTableEntry[];
  queue: JobQueue;
  domainEvents: EventBus;
  metrics: Metrics;
  /** The webhook's durable intake (tests drain it). */
  webhookIntake: WebhookIntake;
  /** The embedded database's vacuum and analyze, when this process runs jobs on it (undefined on PostgreSQL). */
  embeddedUpkeep: EmbeddedUpkeep | undefined;
  /** Sandbox mode: the in-process fakes behind the sandbox phone (tests drive them). */
  sandboxPhone?: FakeGupshup;
  sandboxMeta?: FakeMetaCloud;
};

/** A hop count trusts that many proxies nearest to the server, as Fastify does for a number (its types omit it). */
function fastifyTrustProxy(trust: TrustProxy) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

export async function buildApp(options: AppOptions): Promise<App> {
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    bodyLimit: MAX_JSON_BODY_BYTES,
    // Opening the embedded database and migrating it can take more than Fastify's 10 s on a loaded 2-core machine.
    pluginTimeout: 60_000,
    ...requestIdOptions,
  }).withTypeProvider<ZodTypeProvider>();
  registerRequestContext(app);
  registerRequestAfterCommit(app, options.logger);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(options.exactResponses ? exactResponseSerializerCompiler : serializerCompiler);
  app.decorate('routeTable', recordRouteTable(app));
  await registerApiDocs(app);

  // ---- Platform pieces ----
  const { db } = options;
  const clock = options.clock ?? (() => new Date());
  const sessionPolicy: SessionPolicy = { lifetime: options.sessionLifetime ?? defaultSessionLifetime, clock };
  const sessionResolver = (token: string | undefined) => resolveSession(db, token, sessionPolicy);
  const metrics = createMetrics();
  app.decorate('metrics', metrics);
  const realtime = createRealtime({
    httpServer: app.server,
    resolveSession: sessionResolver,
    redisUrl: options.redisUrl,
    logger: options.logger,
    funnelAccessOf: (tenantId, userId) => realtimeFunnelAccess(db, tenantId, userId),
    onEmit: (event) => metrics.realtimeEmit(event),
  });
  app.decorate('realtime', realtime);
  app.addHook('preClose', async () => realtime.close());
  // After every preClose hook (the jobs and the webhook intake stop there, and may still announce what they did).
  app.addHook('onClose', async () => realtime.closeBroker());
  // The web build, when there is one to serve (the API alone runs without it).
  const webDist = options.webDist && fs.existsSync(options.webDist) ? options.webDist : undefined;
  const spaDocuments = webDist ? readSpaDocuments(webDist) : undefined;
  registerSecurityHeaders(app, spaDocuments?.inlineScriptSources);
  acceptEmptyJsonBodies(app);
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1 } });
  registerErrorHandler(app, spaDocuments?.documentFor);
  registerRouteAccess(
    app,
    sessionResolver,
    (token) => resolveAdminSession(db, token, sessionPolicy),
    async (session) => actorOfSession(session),
  );
  registerRequestScope(app, db);
  const queue = new JobQueue({ db, logger: options.logger, observer: metrics.jobs, concurrency: options.jobConcurrency });
  app.decorate('queue', queue);
  const retention = { ...DEFAULT_RETENTION, ...options.retention, sessionLifetime: sessionPolicy.lifetime };
  queue.every(createRetentionJob({ db, policy: retention, logger: options.logger, clock }), RETENTION_EVERY_MS);
  metrics.attach({ queueStats: () => queue.stats(), connectedSockets: () => realtime.connectionCount() });
  await registerOperationsRoutes(app, {
    metrics,
    metricsToken: options.metricsToken,
    probes: {
      database: async () => void (await db.execute(sql`select 1`)),
      migrations: () => assertMigrationsApplied(db),
      ...(options.runJobs
        ? {
            queue: async () => {
              if (!queue.isRunning()) throw new Error('the job worker is not running');
            },
          }
        : {}),
      ...(realtime.usesRedis ? { redis: () => realtime.pingRedis(1_500) } : {}),
    },
  });
  if (options.runJobs) app.addHook('onReady', async () => queue.start());
  // The process that runs jobs keeps the embedded database's tables vacuumed; one started without them (a bench timing
  // its stages) starts it with its workers.
  const embeddedUpkeep = isEmbedded(db) ? new EmbeddedUpkeep({ db, logger: options.logger }) : undefined;
  app.decorate('embeddedUpkeep', embeddedUpkeep);
  if (embeddedUpkeep) {
    if (options.runJobs) app.addHook('onReady', async () => embeddedUpkeep.start());
    app.addHook('preClose', async () => embeddedUpkeep.stop());
  }
  const jobsStopMs = (options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS) * JOBS_SHARE_OF_SHUTDOWN;
  app.addHook('preClose', async () => queue.stop({ timeoutMs: jobsStopMs }));
  // A request's transaction has committed by the time it answers: what it enqueued runs at once.
  app.addHook('onResponse', async () => queue.wakeAfterCommit());
  // Domain events: producers write them in their transaction; the listeners each plugin registers react from the queue.
  const domainEvents = new EventBus({ db, queue, logger: options.logger });
  app.decorate('domainEvents', domainEvents);
  const sandbox = (options.providerMode ?? 'sandbox') === 'sandbox';
  const context: AppContext = {
    db,
    log: options.logger,
    clock,
    queue,
    domainEvents,
    realtime,
    metrics,
    sandbox,
    storage: createDiskMediaStorage(options.mediaDir),
    box: createSecretBox(options.appSecret),
    outboundHttp: createOutboundHttp({ allowPrivateNetworks: options.allowPrivateOutbound ?? false }),
    publicUrl: () => options.publicUrl ?? internalUrl(app),
  };
  const chosenModel = options.aiModel ?? createAiModel(options);
  const aiModel = chosenModel && meterAiModel(chosenModel, metrics);
  options.logger.info({ aiProvider: aiModel?.provider ?? 'none', aiModel: aiModel?.label }, 'AI model');
  // Each company's WhatsApp line through the provider it chose; in sandbox mode the fakes and the sandbox phone too.
  const messaging = await setUpMessaging(app, { ...options, box: context.box, sandbox });
  if (messaging.fakeGupshup) app.decorate('sandboxPhone', messaging.fakeGupshup);
  if (messaging.fakeMeta) app.decorate('sandboxMeta', messaging.fakeMeta);
  const { lines } = messaging;
  const outbound = createChatOutbound(context, { lines, inboundBot: { landingColumn }, webhookAnswerWaitMs: options.webhookAnswerWaitMs });
  app.decorate('webhookIntake', outbound.intake);

  // Knowledge files are parsed on a thread of their own: a large PDF is seconds of CPU.
  const knowledgeReader = new KnowledgeReader();
  app.addHook('onClose', async () => knowledgeReader.stop());
  // Indexed inside the upload (passages and word features), vectors by a job; the ai plugin registers its jobs.
  const knowledgeIndex = createKnowledgeIndex({ db, model: aiModel, log: options.logger, storage: context.storage }, queue);
  const knowledgeSearch = createKnowledgeSearch({ model: aiModel, log: options.logger });

  // ---- Modules, bottom layer first; the options after the context are the ports a module gets from another ----
  await app.register(templatesPlugin, { ...context, lines });
  await app.register(funnelsPlugin, {
    ...context,
    columnBots: columnBotsOf(db),
    archiveLanding: waitingRoomArchive(db),
    toolFiles: { read: knowledgeReader.read, index: knowledgeIndex.indexFile, states: knowledgeIndex.fileStates },
  });
  await app.register(usersPlugin, { ...context, revokeSessions: revokeAllSessions });
  await app.register(authPlugin, { ...context, throttle: options.throttle });
  await app.register(chatsPlugin, { ...context, outbound, runJobs: options.runJobs });
  await app.register(agendaPlugin, context);
  await app.register(autobotPlugin, { ...context, outbound });
  await app.register(aiPlugin, { ...context, model: aiModel, outbound, knowledge: knowledgeSearch, knowledgeIndex });
  await app.register(botsPlugin, {
    ...context,
    outbound,
    smtpUrl: options.smtpUrl,
    aiModel,
  });
  await app.register(bulkSendsPlugin, { ...context, outbound });
  await app.register(whatsappActivityPlugin, {
    ...context,
    flushDeliveryCounts: () => outbound.deliveryCounter.flush(),
  });
  await app.register(adminPlugin, {
    ...context,
    throttle: options.throttle,
    sandboxReviewer: messaging.sandboxReviewer,
  });

  if (webDist) registerWebBuild(app, webDist);
  return app as unknown as App;
}
