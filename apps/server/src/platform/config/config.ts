import { z } from 'zod';
import path from 'node:path';
import { isIP } from 'node:net';

const booleanFlag = z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' }).transform((value) => value === 'true' || value === '1');

const urlWithProtocol = (protocols: string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { error: `must be a URL starting with ${protocols.join(' or ')}//` },
  );

/**
 * Which proxies' X-Forwarded-For is believed (Fastify's trustProxy): none (false), the nearest n hops, or
 * the listed proxy addresses. Never `true`: that would let any client pick the address sign-ins are throttled by.
 */
export type TrustProxy = false | number | string[];

// proxy-addr's names for whole ranges, accepted beside addresses and CIDRs.
const namedProxyRanges = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddressOrRange(entry: string): boolean {
  if (namedProxyRanges.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const proxyList = (value: string) => value.split(',').map((entry) => entry.trim());

function parseTrustProxy(value: string): TrustProxy | undefined {
  if (value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = proxyList(value);
  return entries.every(isProxyAddressOrRange) ? entries : undefined;
}

const trustProxy = z
  .string()
  .refine((value) => parseTrustProxy(value) !== undefined, {
    error:
      'must be false, a hop count such as 1, or a comma-separated list of proxy addresses or CIDRs such as 10.0.0.0/8 (never true: any client could pick its address)',
  })
  .transform((value) => parseTrustProxy(value)!);

const sessionDays = z.coerce
  .number({ error: 'must be a number of days' })
  .positive({ error: 'must be a positive number of days' })
  .max(3650, { error: 'must be at most 3650 days' });

const retentionDays = z.coerce
  .number({ error: 'must be a number of days' })
  .positive({ error: 'must be a positive number of days' })
  .max(3650, { error: 'must be at most 3650 days' });

const envSchema = z.object({
  PORT: z.coerce.number({ error: 'must be a number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: urlWithProtocol(['postgres:', 'postgresql:']).optional(),
  REDIS_URL: urlWithProtocol(['redis:', 'rediss:']).optional(),
  APP_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  ADMIN_EMAIL: z.email({ error: 'must be an e-mail address' }).optional(),
  ADMIN_PASSWORD: z.string().min(8, { error: 'must be at least 8 characters' }).optional(),
  SEED_DEMO: booleanFlag.optional(),
  PROVIDER_MODE: z.enum(['sandbox', 'live'], { error: 'must be sandbox or live' }).optional(),
  GUPSHUP_API_URL: urlWithProtocol(['http:', 'https:']).default('https://api.gupshup.io'),
  GUPSHUP_PARTNER_URL: urlWithProtocol(['http:', 'https:']).default('https://partner.gupshup.io'),
  /** Meta's Graph API version for the Cloud API (meta-cloud.md §1), e.g. v25.0. */
  META_GRAPH_VERSION: z
    .string()
    .regex(/^v\d{1,3}\.\d{1,3}$/, { error: 'must be a Graph API version such as v25.0' })
    .default('v25.0'),
  META_GRAPH_URL: urlWithProtocol(['http:', 'https:']).default('https://graph.facebook.com'),
  GEMINI_API_KEY: z.string().min(1).optional(),
  GEMINI_BASE_URL: urlWithProtocol(['http:', 'https:']).optional(),
  AI_PROVIDER: z.enum(['gemini', 'openai', 'sandbox'], { error: 'must be gemini, openai or sandbox' }).optional(),
  GEMINI_MODEL: z.string().min(1).default('gemini-2.5-flash'),
  GEMINI_EMBEDDING_MODEL: z.string().min(1).default('gemini-embedding-001'),
  OPENAI_BASE_URL: urlWithProtocol(['http:', 'https:']).optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_MODEL: z.string().min(1).optional(),
  OPENAI_TRANSCRIBE_MODEL: z.string().min(1).default('whisper-1'),
  /** Unset: the OpenAI-compatible model offers no embeddings and knowledge retrieval stays lexical. */
  OPENAI_EMBEDDING_MODEL: z.string().min(1).optional(),
  SMTP_URL: urlWithProtocol(['smtp:', 'smtps:']).optional(),
  PUBLIC_URL: urlWithProtocol(['http:', 'https:']).optional(),
  OUTBOUND_ALLOW_PRIVATE: booleanFlag.optional(),
  TRUST_PROXY: trustProxy.optional(),
  SESSION_IDLE_DAYS: sessionDays.default(30),
  SESSION_MAX_DAYS: sessionDays.default(90),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  METRICS_TOKEN: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  /** Sandbox mode: the wait between the statuses the fakes send for one message (enqueued, sent, delivered, read). */
  SANDBOX_STATUS_STEP_MS: z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(0).max(600_000).default(400),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(1_000).max(600_000).default(20_000),
  /** Jobs one process runs at once (listeners...; a batch of up to ten sends counts as one). */
  JOB_CONCURRENCY: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1, { error: 'must be at least 1' })
    .max(200, { error: 'must be at most 200' })
    .default(10),
  /** Database connections jobs may hold at once; the rest stay free for requests. Default: PGlite 1, PostgreSQL half the pool. */
  JOB_DB_CONNECTIONS: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1, { error: 'must be at least 1' })
    .max(1000, { error: 'must be at most 1000' })
    .optional(),
  JOB_RETENTION_DAYS: retentionDays.default(7),
  FAILED_JOB_RETENTION_DAYS: retentionDays.default(30),
  WEBHOOK_REJECTION_RETENTION_DAYS: retentionDays.default(7),
});

export type AppConfig = ReturnType<typeof resolveConfig>;

export class ConfigError extends Error {}

/** Parses the environment once; a bad value fails with one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`Invalid configuration: ${variable} ${issue.message}`);
  }
  if (parsed.data.SESSION_IDLE_DAYS > parsed.data.SESSION_MAX_DAYS) {
    throw new ConfigError('Invalid configuration: SESSION_IDLE_DAYS must not exceed SESSION_MAX_DAYS');
  }
  const aiProblem = aiProviderProblem(parsed.data);
  if (aiProblem) throw new ConfigError(`Invalid configuration: ${aiProblem}`);
  return resolveConfig(parsed.data);
}

/**
 * The AI model (issue 15): AI_PROVIDER when set; otherwise Gemini when GEMINI_API_KEY is set, the sandbox model in
 * embedded mode (no key needed to try the assistant), else none.
 */
function aiProvider(env: z.infer<typeof envSchema>): 'gemini' | 'openai' | 'sandbox' | null {
  if (env.AI_PROVIDER) return env.AI_PROVIDER;
  if (env.GEMINI_API_KEY) return 'gemini';
  return env.DATABASE_URL === undefined ? 'sandbox' : null;
}

function aiProviderProblem(env: z.infer<typeof envSchema>): string | undefined {
  if (env.AI_PROVIDER === 'gemini' && !env.GEMINI_API_KEY) return 'GEMINI_API_KEY is required when AI_PROVIDER is gemini';
  if (env.AI_PROVIDER === 'openai') {
    if (!env.OPENAI_MODEL) return 'OPENAI_MODEL is required when AI_PROVIDER is openai';
    if (!env.OPENAI_BASE_URL && !env.OPENAI_API_KEY)
      return 'OPENAI_BASE_URL or OPENAI_API_KEY is required when AI_PROVIDER is openai (a local server needs only its URL)';
  }
  return undefined;
}

function resolveConfig(env: z.infer<typeof envSchema>) {
  const embedded = env.DATABASE_URL === undefined;
  return {
    port: env.PORT,
    host: env.HOST,
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    appSecret: env.APP_SECRET,
    adminEmail: env.ADMIN_EMAIL,
    adminPassword: env.ADMIN_PASSWORD,
    seedDemo: env.SEED_DEMO ?? embedded,
    providerMode: env.PROVIDER_MODE ?? (embedded ? 'sandbox' : 'live'),
    gupshupApiUrl: env.GUPSHUP_API_URL,
    gupshupPartnerUrl: env.GUPSHUP_PARTNER_URL,
    metaGraphVersion: env.META_GRAPH_VERSION,
    metaGraphUrl: env.META_GRAPH_URL,
    geminiApiKey: env.GEMINI_API_KEY,
    geminiBaseUrl: env.GEMINI_BASE_URL,
    aiProvider: aiProvider(env),
    geminiModel: env.GEMINI_MODEL,
    geminiEmbeddingModel: env.GEMINI_EMBEDDING_MODEL,
    /** Unset with a key: OpenAI itself. */
    openaiBaseUrl: env.OPENAI_BASE_URL ?? (env.OPENAI_API_KEY ? 'https://api.openai.com/v1' : undefined),
    openaiApiKey: env.OPENAI_API_KEY,
    openaiModel: env.OPENAI_MODEL,
    openaiTranscribeModel: env.OPENAI_TRANSCRIBE_MODEL,
    openaiEmbeddingModel: env.OPENAI_EMBEDDING_MODEL,
    smtpUrl: env.SMTP_URL,
    /** Bot webhook and image nodes may call loopback and private addresses (off unless the operator says so). */
    outboundAllowPrivate: env.OUTBOUND_ALLOW_PRIVATE ?? false,
    /** Off unless the operator names the proxy in front (request.ip is then the socket's address). */
    trustProxy: env.TRUST_PROXY ?? false,
    sessionIdleDays: env.SESSION_IDLE_DAYS,
    sessionMaxDays: env.SESSION_MAX_DAYS,
    logLevel: env.LOG_LEVEL,
    metricsToken: env.METRICS_TOKEN,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    sandboxStatusStepMs: env.SANDBOX_STATUS_STEP_MS,
    jobConcurrency: env.JOB_CONCURRENCY,
    jobDbConnections: env.JOB_DB_CONNECTIONS,
    retention: {
      completedJobsDays: env.JOB_RETENTION_DAYS,
      failedJobsDays: env.FAILED_JOB_RETENTION_DAYS,
      webhookRejectionsDays: env.WEBHOOK_REJECTION_RETENTION_DAYS,
    },
    /** Base URL the outside world (provider webhooks, media fetches) uses to reach this app. */
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    mode: embedded ? ('embedded' as const) : ('server' as const),
  };
}
