import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { sql } from 'drizzle-orm';
import type { Db } from './platform/db/database.ts';
import type { AppContext } from './platform/app-context.ts';
import { JobQueue } from './platform/queue/job-queue.ts';
import { EventBus } from './platform/events/index.ts';
import { createDiskMediaStorage } from './platform/storage/media-storage.ts';
import type { Logger } from './platform/logger/logger.ts';
import { registerErrorHandler } from './platform/errors/error-handler.ts';
import { recordRouteTable, registerRouteAccess, type RouteTableEntry } from './platform/http/route-access.ts';
import { registerRequestScope } from './platform/http/request-scope.ts';
import { registerApiDocs } from './platform/http/api-docs.ts';
import { exactResponseSerializerCompiler } from './platform/http/response-serializer.ts';
import { acceptEmptyJsonBodies, MAX_JSON_BODY_BYTES } from './platform/http/json-body-parser.ts';
import { MAX_UPLOAD_BYTES } from './platform/http/multipart-upload.ts';
import { createRealtime, type Realtime } from './platform/realtime/realtime.ts';
import { createMetrics, type Metrics } from './platform/metrics/metrics.ts';
import { meterAiModel } from './platform/metrics/ai-metering.ts';
import { registerOperationsRoutes } from './platform/operations/operations.routes.ts';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, JOBS_SHARE_OF_SHUTDOWN } from './platform/operations/shutdown.ts';
import { createRetentionJob, DEFAULT_RETENTION, RETENTION_EVERY_MS, type RetentionPolicy } from './platform/retention/retention.ts';
import { registerRequestContext, requestIdOptions } from './platform/http/request-id.ts';
import { assertMigrationsApplied } from './platform/db/migrations-status.ts';
import type { TrustProxy } from './platform/config/config.ts';
import { createSecretBox, type SecretBox } from './platform/crypto/secret-box.ts';
import { createOutboundHttp } from './platform/outbound-http/outbound-http.guard.ts';
import { createGupshupProvider } from './messaging-providers/gupshup/gupshup.provider.ts';
import { createGupshupMediaDownloader } from './messaging-providers/gupshup/gupshup-media.ts';
import { gupshupFailureInSpanish } from './messaging-providers/gupshup/gupshup-failure-codes.ts';
import { createGupshupPartnerClient, partnerCredentialsFrom } from './messaging-providers/gupshup/gupshup-partner.client.ts';
import { sandboxMediaDownloader } from './messaging-providers/sandbox/sandbox-media.ts';
import { FakeGupshup } from './messaging-providers/sandbox/fake-gupshup.ts';
import { FAKE_GUPSHUP_PREFIX, sandboxRoutes } from './messaging-providers/sandbox/sandbox-phone.routes.ts';
import { createDatabaseConversationStore } from './messaging-providers/sandbox/conversation-store.ts';
import { adminPlugin, gupshupCredentials, resolveAdminSession } from './modules/admin/index.ts';
import { agendaPlugin } from './modules/agenda/index.ts';
import { aiPlugin, createAiModel, indexKnowledgeFile, searchKnowledge, type AiModel, type AiModelSettings } from './modules/ai/index.ts';
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
import { bulkSendsPlugin, type BulkSendPace } from './modules/bulk-sends/index.ts';
import { chatsPlugin, createChatOutbound, sandboxPhoneCrm } from './modules/chats/index.ts';
import { funnelsPlugin } from './modules/funnels/index.ts';
import { templatesPlugin } from './modules/templates/index.ts';
import { allSandboxApps, sandboxApiKey } from './modules/tenants/index.ts';
import { actorOf, realtimeFunnelAccess, usersPlugin } from './modules/users/index.ts';
import { whatsappActivityPlugin } from './modules/whatsapp-activity/index.ts';

export interface AppOptions extends AiModelSettings {
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
  /** The assistant's, copilot's and transcripts' model; tests inject one. Unset: the AI_PROVIDER settings pick it (none without). */
  aiModel?: AiModel;
  /** URLs from the outside world (bot webhook and image nodes, inbound media) may reach loopback and private networks (tests, on-premise); refused by default. */
  allowPrivateOutbound?: boolean;
  /** How fast bulk sends go out; tests and the benchmark change it. */
  bulkSendPace?: BulkSendPace;
  /** Fail an answer its response schema would change (tests); production sends what the schema keeps. */
  exactResponses?: boolean;
  /** METRICS_TOKEN: GET /metrics from outside loopback needs it; unset, only loopback may read the metrics. */
  metricsToken?: string;
  /** SHUTDOWN_TIMEOUT_MS: running jobs get part of it to finish at close; the claims of the rest are handed back. */
  shutdownTimeoutMs?: number;
  /** How long finished jobs, refused webhook deliveries… are kept (the hourly retention job); sessions follow sessionLifetime. */
  retention?: Partial<Omit<RetentionPolicy, 'sessionLifetime'>>;
}

export type App = FastifyInstance & {
  realtime: Realtime;
  routeTable: RouteTableEntry[];
  queue: JobQueue;
  domainEvents: EventBus;
  metrics: Metrics;
  sandboxPhone?: FakeGupshup;
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
    ...requestIdOptions,
  }).withTypeProvider<ZodTypeProvider>();
  registerRequestContext(app);
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
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: { 'img-src': ["'self'", 'data:', 'blob:'], 'media-src': ["'self'", 'data:', 'blob:'], 'connect-src': ["'self'", 'ws:', 'wss:'] },
    },
  });
  acceptEmptyJsonBodies(app);
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1 } });
  registerErrorHandler(app, options.webDist && fs.existsSync(options.webDist) ? path.join(options.webDist, 'index.html') : undefined);
  registerRouteAccess(
    app,
    sessionResolver,
    (token) => resolveAdminSession(db, token, sessionPolicy),
    (session) => actorOf(db, session.user),
  );
  registerRequestScope(app, db);
  const queue = new JobQueue({ db, logger: options.logger, observer: metrics.jobs });
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
  const fake = sandbox ? await registerSandboxPhone(app, options) : undefined;
  const provider = messagingProvider(app, options, context.box, sandbox);
  const outbound = createChatOutbound(context, {
    provider,
    downloadMedia: fake ? sandboxMediaDownloader(fake) : createGupshupMediaDownloader({ allowPrivateNetworks: options.allowPrivateOutbound ?? false }),
    // Live sends use the operator's Gupshup API key (platform settings); sandbox sends the key the fake issued the app.
    providerApiKey: async ({ appName }) => (sandbox ? sandboxApiKey(options.appSecret, appName) : ((await gupshupCredentials(db, context.box)).apiKey ?? '')),
  });

  // ---- Modules, bottom layer first; the options after the context are the ports a module gets from another ----
  await app.register(templatesPlugin, { ...context, templates: provider.templates });
  await app.register(funnelsPlugin, {
    ...context,
    columnBots: columnBotsOf(db),
    archiveLanding: waitingRoomArchive(db),
    indexToolFile: (file) => indexKnowledgeFile(db, file),
  });
  await app.register(usersPlugin, { ...context, revokeSessions: revokeAllSessions });
  await app.register(authPlugin, { ...context, throttle: options.throttle });
  await app.register(chatsPlugin, { ...context, outbound, inboundBot: { landingColumn } });
  await app.register(agendaPlugin, context);
  await app.register(autobotPlugin, { ...context, outbound });
  await app.register(aiPlugin, { ...context, model: aiModel, outbound, knowledge: searchKnowledge });
  await app.register(botsPlugin, {
    ...context,
    outbound,
    smtpUrl: options.smtpUrl,
    gemini: options.geminiApiKey ? { apiKey: options.geminiApiKey, baseUrl: options.geminiBaseUrl } : undefined,
  });
  await app.register(bulkSendsPlugin, { ...context, outbound, pace: options.bulkSendPace });
  await app.register(whatsappActivityPlugin, {
    ...context,
    explainProviderCode: gupshupFailureInSpanish,
    flushDeliveryCounts: () => outbound.deliveryCounter.flush(),
  });
  await app.register(adminPlugin, {
    ...context,
    throttle: options.throttle,
    sandboxReviewer: fake && { approve: (appId, providerTemplateId) => fake.approveTemplate(appId, providerTemplateId) },
  });

  if (options.webDist && fs.existsSync(options.webDist)) {
    await app.register(fastifyStatic, { root: options.webDist, wildcard: false, index: false });
  }
  return app as unknown as App;
}

/** The in-process sandbox answers on this very server, whatever port it got. */
function internalUrl(app: FastifyInstance) {
  const address = app.server.address();
  return typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : 'http://127.0.0.1:3000';
}

/** Gupshup, or in sandbox mode the in-process fake; templates, template media and read receipts go through its partner API. */
function messagingProvider(app: FastifyInstance, options: AppOptions, box: SecretBox, sandbox: boolean) {
  const fakeUrl = () => `${internalUrl(app)}${FAKE_GUPSHUP_PREFIX}`;
  const partner = createGupshupPartnerClient({
    baseUrl: sandbox ? fakeUrl : (options.gupshupPartnerUrl ?? 'https://partner.gupshup.io'),
    credentials: async () => partnerCredentialsFrom(await gupshupCredentials(options.db, box), sandbox),
  });
  return createGupshupProvider({ apiUrl: sandbox ? fakeUrl : (options.gupshupApiUrl ?? 'https://api.gupshup.io'), partner });
}

/** Sandbox mode: the fake WhatsApp provider and the sandbox phone, whose CRM view comes from the chats module. */
async function registerSandboxPhone(app: FastifyInstance, options: AppOptions) {
  const { db } = options;
  const fake = new FakeGupshup({
    apps: () => allSandboxApps(db, internalUrl(app), options.appSecret),
    publicUrl: () => `${internalUrl(app)}${FAKE_GUPSHUP_PREFIX}`,
    log: options.logger,
    store: createDatabaseConversationStore(db),
  });
  app.decorate('sandboxPhone', fake);
  app.addHook('onClose', async () => fake.close());
  await app.register(sandboxRoutes({ fake, crm: sandboxPhoneCrm(db) }));
  return fake;
}
