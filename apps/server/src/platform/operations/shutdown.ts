import type { Logger } from '../logger/logger.ts';

export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 20_000;

/** The part of the shutdown budget running jobs get to finish; the rest hands back leases, drains requests, closes the database. */
export const JOBS_SHARE_OF_SHUTDOWN = 0.6;

export interface ShutdownOptions {
  /** Stops accepting, closes sockets, lets jobs and in-flight requests finish, closes the database (Fastify's close). */
  close: () => Promise<void>;
  timeoutMs: number;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  exit?: (code: number) => void;
  signals?: NodeJS.Signals[];
}

/**
 * SIGTERM or SIGINT closes the app gracefully and exits 0; if that takes longer than `timeoutMs` the process exits 1
 * at the deadline, and a second signal exits 1 at once (a person pressing Ctrl+C again, an orchestrator losing patience).
 */
export function exitGracefullyOnSignals(options: ShutdownOptions): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let shuttingDown = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (shuttingDown) {
      options.logger.warn({ signal }, 'second signal during shutdown: exiting now');
      exit(1);
      return;
    }
    shuttingDown = true;
    const started = performance.now();
    options.logger.info({ signal, timeoutMs: options.timeoutMs }, 'shutting down: no new requests; finishing requests and jobs');
    const deadline = setTimeout(() => {
      options.logger.error({ timeoutMs: options.timeoutMs }, 'shutdown deadline passed: exiting now');
      exit(1);
    }, options.timeoutMs);
    deadline.unref();
    options.close().then(
      () => {
        clearTimeout(deadline);
        options.logger.info({ ms: Math.round(performance.now() - started) }, 'shut down cleanly');
        exit(0);
      },
      (error: unknown) => {
        clearTimeout(deadline);
        options.logger.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  for (const signal of signals) process.on(signal, onSignal);
  return () => signals.forEach((signal) => process.off(signal, onSignal));
}
