import path from 'node:path';
import { ConfigError, loadConfig } from './platform/config/config.ts';
import { resolveAppSecret } from './platform/config/app-secret.ts';
import { openDatabase } from './platform/db/database.ts';
import { DataDirLockedError } from './platform/db/data-dir-lock.ts';
import { createLogger } from './platform/logger/logger.ts';
import { buildApp } from './app.ts';
import { SERVER_ROOT } from './platform/paths/server-root.ts';
import { exitGracefullyOnSignals } from './platform/operations/shutdown.ts';
import { daysToSessionLifetime } from './modules/auth/index.ts';
import { bootstrapPlatformAdmin } from './modules/admin/index.ts';
import { DEMO_SIGN_IN, seedDemoTenant } from '../db/seeds/demo-seed.ts';

/** The web app's build (`npm run build`), served with the API from this one process. */
const webDist = path.join(SERVER_ROOT, '../web/dist');

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const appSecret = resolveAppSecret(config.appSecret, config.dataDir);
  const database = await openDatabase(config, (error) => logger.warn({ err: error }, 'idle database connection lost'));

  const admin = await bootstrapPlatformAdmin(database.db, { email: config.adminEmail, password: config.adminPassword });
  const seeded = config.seedDemo ? await seedDemoTenant(database.db) : false;

  const app = await buildApp({
    db: database.db,
    logger,
    redisUrl: config.redisUrl,
    webDist,
    runJobs: true,
    appSecret,
    mediaDir: path.join(config.dataDir, 'media'),
    publicUrl: process.env.PUBLIC_URL ? config.publicUrl : undefined,
    providerMode: config.providerMode,
    sandboxStatusStepMs: config.sandboxStatusStepMs,
    gupshupApiUrl: config.gupshupApiUrl,
    gupshupPartnerUrl: config.gupshupPartnerUrl,
    metaGraphVersion: config.metaGraphVersion,
    metaGraphUrl: config.metaGraphUrl,
    smtpUrl: config.smtpUrl,
    geminiApiKey: config.geminiApiKey,
    geminiBaseUrl: config.geminiBaseUrl,
    allowPrivateOutbound: config.outboundAllowPrivate,
    aiProvider: config.aiProvider,
    geminiModel: config.geminiModel,
    geminiEmbeddingModel: config.geminiEmbeddingModel,
    openaiBaseUrl: config.openaiBaseUrl,
    openaiApiKey: config.openaiApiKey,
    openaiModel: config.openaiModel,
    openaiTranscribeModel: config.openaiTranscribeModel,
    openaiEmbeddingModel: config.openaiEmbeddingModel,
    trustProxy: config.trustProxy,
    sessionLifetime: daysToSessionLifetime(config.sessionIdleDays, config.sessionMaxDays),
    metricsToken: config.metricsToken,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    jobConcurrency: config.jobConcurrency,
    retention: config.retention,
  });
  app.addHook('onClose', async () => database.close());
  await app.listen({ port: config.port, host: config.host });

  const address = app.server.address();
  const url = `http://localhost:${typeof address === 'object' && address ? address.port : config.port}`;
  // From the process's start (node's own boot included) to listening.
  const startedIn = (performance.now() / 1000).toFixed(2);
  const lines = [`Embudo is running at ${url} (${config.mode} mode, ${database.kind}, Node ${process.version}), started in ${startedIn} s`];
  if (config.seedDemo) {
    lines.push(
      `Demo sign-in${seeded ? '' : ' (seeded earlier)'}: ${url}/login  company slug "${DEMO_SIGN_IN.tenantSlug}", email ${DEMO_SIGN_IN.email}, password ${DEMO_SIGN_IN.password}`,
    );
  }
  if (admin?.generatedPassword) {
    lines.push(`Platform operator created (shown once): ${url}/admin/login  email ${admin.email}, password ${admin.generatedPassword}`);
  }
  process.stdout.write(`\n${lines.join('\n')}\n\n`);

  exitGracefullyOnSignals({ close: () => app.close(), timeoutMs: config.shutdownTimeoutMs, logger });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`Embudo failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  }
  process.exit(1);
});
