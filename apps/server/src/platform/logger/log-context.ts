import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What every log line written while serving one request, or running one job, says about where it comes from.
 * The request id travels into the jobs the request enqueues (the `jobs.request_id` column) and from there into
 * every job and domain event those jobs create in turn, so one id follows a customer's message from the webhook
 * through the listeners to the provider's answer.
 */
export interface LogContext {
  requestId?: string;
  jobId?: string;
  job?: string;
}

const storage = new AsyncLocalStorage<LogContext>();

export function currentLogContext(): LogContext | undefined {
  return storage.getStore();
}

export function runWithLogContext<T>(context: LogContext, fn: () => T): T {
  return storage.run(context, fn);
}
