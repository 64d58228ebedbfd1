import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../logger/logger.ts';

type Work = () => Promise<void>;

/** The work a unit (a request, a job, a batch of webhook deliveries) has asked to run once its transactions committed. */
const pending = new AsyncLocalStorage<Work[]>();

/**
 * Runs `unit` collecting what it defers with `deferAfterCommit`; answers its result and the deferred work, which the
 * caller runs (`runDeferred`) once the unit's transactions have committed. A unit that fails drops it.
 */
export async function collectAfterCommit<T>(unit: () => Promise<T>): Promise<{ result: T; deferred: Work[] }> {
  const deferred: Work[] = [];
  const result = await pending.run(deferred, unit);
  return { result, deferred };
}

/**
 * Requests are units too: what a request defers runs once it has answered (its transactions have committed by then).
 * Registered before the routes, so every hook and handler after it runs inside the request's scope.
 */
export function registerRequestAfterCommit(app: FastifyInstance, log: Pick<Logger, 'warn'>) {
  app.decorateRequest('deferredAfterCommit', null);
  app.addHook('onRequest', (request, _reply, done) => {
    const deferred: Work[] = [];
    request.deferredAfterCommit = deferred;
    pending.run(deferred, done);
  });
  app.addHook('onResponse', async (request) => {
    if (request.deferredAfterCommit)
      await runDeferred(request.deferredAfterCommit, (error) => log.warn({ err: error }, 'work deferred after a request failed'));
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    deferredAfterCommit: Work[] | null;
  }
}

/** Defers `work` to the end of the current unit; false when no unit collects (the caller must do it another way). */
export function deferAfterCommit(work: Work): boolean {
  const deferred = pending.getStore();
  if (!deferred) return false;
  deferred.push(work);
  return true;
}

/** Runs deferred work in order; a failure is reported and never stops the rest. */
export async function runDeferred(deferred: Work[], onError: (error: unknown) => void): Promise<void> {
  for (const work of deferred.splice(0)) {
    try {
      await work();
    } catch (error) {
      onError(error);
    }
  }
}
