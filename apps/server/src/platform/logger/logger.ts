import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: { paths: ['req.headers.authorization', '*.password', '*.token', '*.apiKey', '*.partnerPassword'], censor: '[redacted]' },
  });
}
