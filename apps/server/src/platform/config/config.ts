import { z } from 'zod';
import path from 'node:path';

const booleanFlag = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1');

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
  GEMINI_API_KEY: z.string().min(1).optional(),
  GEMINI_BASE_URL: urlWithProtocol(['http:', 'https:']).optional(),
  SMTP_URL: urlWithProtocol(['smtp:', 'smtps:']).optional(),
  PUBLIC_URL: urlWithProtocol(['http:', 'https:']).optional(),
  OUTBOUND_ALLOW_PRIVATE: booleanFlag.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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
  return resolveConfig(parsed.data);
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
    geminiApiKey: env.GEMINI_API_KEY,
    geminiBaseUrl: env.GEMINI_BASE_URL,
    smtpUrl: env.SMTP_URL,
    /** Bot webhook and image nodes may call loopback and private addresses (off unless the operator says so). */
    outboundAllowPrivate: env.OUTBOUND_ALLOW_PRIVATE ?? false,
    logLevel: env.LOG_LEVEL,
    /** Base URL the outside world (provider webhooks, media fetches) uses to reach this app. */
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    mode: embedded ? ('embedded' as const) : ('server' as const),
  };
}
