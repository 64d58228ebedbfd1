import { createRequire } from 'node:module';
import pino from 'pino';
import { currentLogContext } from './log-context.ts';

export type Logger = pino.Logger;

/**
 * Fields never written to a log, wherever a log call puts them (one level deep): credentials, and what customers and
 * the team write (message texts, captions, transcripts, raw webhook bodies). Ids say which message a line is about.
 */
export const REDACTED_FIELDS = [
  'password',
  'token',
  'apiKey',
  'partnerPassword',
  'secret',
  'webhookSecret',
  'appSecret',
  'authorization',
  'cookie',
  'text',
  'caption',
  'body',
  'rawBody',
  'transcript',
] as const;

const REDACT_PATHS = ['req.headers.authorization', 'req.headers.cookie', ...REDACTED_FIELDS.flatMap((field) => [field, `*.${field}`])];

/** A webhook's secret path segment and any credential-looking query value, masked before a URL is logged. */
export function loggableUrl(url: string): string {
  const [path = '', query] = url.split('?', 2);
  const cleanPath = path.replace(/^(\/webhooks\/[^/]+\/[^/]+\/)[^/]+/, '$1[redacted]');
  if (query === undefined) return cleanPath;
  const cleanQuery = query.replace(/(^|&)([^=&]*(?:token|secret|key|password)[^=&]*)=[^&]*/gi, '$1$2=[redacted]');
  return `${cleanPath}?${cleanQuery}`;
}

interface LoggedRequest {
  method: string;
  url: string;
  ip?: string;
  headers?: Record<string, unknown>;
}

const serializers = {
  /** Fastify logs the request with this (ours wins over its default): no headers, the URL without secrets. */
  req: (request: LoggedRequest) =>
    typeof request?.url === 'string' ? { method: request.method, url: loggableUrl(request.url), remoteAddress: request.ip } : request,
};

/**
 * Every line carries the request id (and the job) it was written for, taken from the async context of the request or
 * job running (platform/logger/log-context.ts), unless the logger was bound to it already (Fastify's request logger).
 */
function mixin(_merge: object, _level: number, logger: pino.Logger): object {
  const context = currentLogContext();
  if (!context) return {};
  if (context.requestId && 'requestId' in logger.bindings()) return {};
  return context;
}

export interface LoggerOptions {
  /** Where lines go; stdout by default. */
  destination?: pino.DestinationStream;
  /** Human-readable lines (pino-pretty). Default: when stdout is a terminal and pino-pretty is installed (a dev dependency). */
  pretty?: boolean;
}

export function createLogger(level: string, options: LoggerOptions = {}): Logger {
  const settings: pino.LoggerOptions = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, serializers, mixin };
  const pretty = options.pretty ?? (process.stdout.isTTY === true && !process.env.CI);
  const destination = (pretty ? prettyStream(options.destination) : undefined) ?? options.destination;
  return destination ? pino(settings, destination) : pino(settings);
}

/** pino-pretty in this process (not a worker thread), or undefined where it is not installed (`npm ci --omit=dev`). */
function prettyStream(destination: pino.DestinationStream | undefined): pino.DestinationStream | undefined {
  let prettify: (line: string) => string;
  try {
    const pretty = createRequire(import.meta.url)('pino-pretty') as { prettyFactory: (options: object) => (line: string) => string };
    prettify = pretty.prettyFactory({ colorize: !destination, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  } catch {
    return undefined;
  }
  const target = destination ?? process.stdout;
  return { write: (line: string) => void target.write(prettify(line)) };
}
