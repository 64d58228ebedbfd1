import type { z } from 'zod';

export interface JobContext {
  jobId: string;
  /** 1 on the first run, counting every claim (a run lost to a crash counts too). */
  attempt: number;
}

/** One job of a batch: its payload and its own attempt. */
export interface BatchItem<Payload> {
  payload: Payload;
  ctx: JobContext;
}

/** How one job of a batch ended badly: retried or failed for good as a lone job that threw `error` would be. */
export interface JobFailure {
  error: unknown;
}

/**
 * Jobs of one name the worker may run together (issue 16: a campaign's sends share their statements). A batch's jobs
 * never share an order key: the claim leaves a job waiting while an earlier one of its key is unfinished.
 */
export interface JobBatching<Payload> {
  maxSize: number;
  /** Answers each item's failure, or undefined when it completed, in the items' order. */
  handle(items: ReadonlyArray<BatchItem<Payload>>): Promise<ReadonlyArray<JobFailure | undefined>>;
}

export interface JobBackoff {
  baseMs: number;
  maxMs: number;
}

export interface JobDefinition<Payload extends z.ZodType = z.ZodType> {
  name: string;
  payload: Payload;
  // Method syntax on purpose: it lets a definition of any payload sit in a registry of JobDefinition.
  handler(payload: z.output<Payload>, ctx: JobContext): Promise<void>;
  maxAttempts: number;
  backoff: JobBackoff;
  /** How long a claim holds the job; the worker extends it every leaseMs/3 while the handler runs. */
  leaseMs: number;
  batching?: JobBatching<z.output<Payload>>;
}

export const JOB_DEFAULTS = {
  maxAttempts: 5,
  backoff: { baseMs: 1_000, maxMs: 5 * 60_000 },
  leaseMs: 60_000,
} as const satisfies Pick<JobDefinition, 'maxAttempts' | 'backoff' | 'leaseMs'>;

export function defineJob<Payload extends z.ZodType>(definition: {
  name: string;
  payload: Payload;
  handler: (payload: z.output<Payload>, ctx: JobContext) => Promise<void>;
  maxAttempts?: number;
  backoff?: JobBackoff;
  leaseMs?: number;
}): JobDefinition<Payload> {
  const maxAttempts = definition.maxAttempts ?? JOB_DEFAULTS.maxAttempts;
  const leaseMs = definition.leaseMs ?? JOB_DEFAULTS.leaseMs;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new Error(`job ${definition.name}: maxAttempts must be a positive integer`);
  if (!(leaseMs > 0)) throw new Error(`job ${definition.name}: leaseMs must be positive`);
  return {
    name: definition.name,
    payload: definition.payload,
    handler: definition.handler,
    maxAttempts,
    backoff: definition.backoff ?? JOB_DEFAULTS.backoff,
    leaseMs,
  };
}

/**
 * A job whose handler takes several jobs at once (up to `maxBatch`). A job run alone is a batch of one, so both take
 * the same path.
 */
export function defineBatchJob<Payload extends z.ZodType>(definition: {
  name: string;
  payload: Payload;
  maxBatch: number;
  handleBatch: JobBatching<z.output<Payload>>['handle'];
  maxAttempts?: number;
  backoff?: JobBackoff;
  leaseMs?: number;
}): JobDefinition<Payload> {
  const { maxBatch, handleBatch, ...rest } = definition;
  if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new Error(`job ${definition.name}: maxBatch must be a positive integer`);
  const job = defineJob({
    ...rest,
    handler: async (payload, ctx) => {
      const [failure] = await handleBatch([{ payload, ctx }]);
      if (failure) throw failure.error;
    },
  });
  return { ...job, batching: { maxSize: maxBatch, handle: handleBatch } };
}

/** Delay before the next attempt after `attempts` failed ones: exponential, capped, with up to 10% jitter. */
export function retryDelayMs(backoff: JobBackoff, attempts: number): number {
  const delay = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, attempts - 1));
  // Jitter spreads retries of jobs that failed together (e.g. a provider outage).
  return Math.round(delay + delay * 0.1 * Math.random());
}
