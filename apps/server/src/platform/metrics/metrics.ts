import client from 'prom-client';
import type { JobObserver, QueueStats } from '../queue/job-queue.ts';

/** What became of one webhook delivery (GET /metrics, `embudo_webhook_deliveries_total`). */
export type WebhookOutcome = 'stored' | 'duplicate' | 'refused' | 'malformed';

/** Read when Prometheus scrapes: the pieces are built after the metrics, so they are attached later. */
export interface MetricSources {
  queueStats: () => Promise<QueueStats>;
  connectedSockets: () => number;
}

export interface Metrics {
  readonly registry: client.Registry;
  attach(sources: MetricSources): void;
  httpRequest(method: string, route: string, statusCode: number, seconds: number): void;
  webhookDelivery(outcome: WebhookOutcome): void;
  /** The job queue reports each run here. */
  readonly jobs: JobObserver;
  /** From storing an outbound message to the provider accepting it. */
  outboxLag(seconds: number): void;
  realtimeEmit(event: string): void;
  aiCall(provider: string, kind: 'answer' | 'transcript', outcome: 'ok' | 'error', usage?: { inputTokens: number; outputTokens: number }): void;
}

/** A scrape reads the queue once, however many of its series ask. */
const QUEUE_STATS_REUSE_MS = 1_000;

/**
 * Prometheus series of one app (its own registry, so several apps in one test process do not mix). Names follow
 * Prometheus' conventions: seconds, `_total` for counters, labels of bounded cardinality (route templates, job names).
 */
export function createMetrics(): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  let sources: MetricSources | undefined;
  let queueRead: { at: number; stats: Promise<QueueStats> } | undefined;
  const queueStats = () => {
    if (!sources) return Promise.resolve(undefined);
    if (!queueRead || Date.now() - queueRead.at > QUEUE_STATS_REUSE_MS) queueRead = { at: Date.now(), stats: sources.queueStats() };
    return queueRead.stats.catch(() => undefined);
  };

  const httpDuration = new client.Histogram({
    name: 'embudo_http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const webhookDeliveries = new client.Counter({
    name: 'embudo_webhook_deliveries_total',
    help: 'Provider webhook deliveries by outcome: stored (something new applied), duplicate (already known), refused (wrong secret or unknown company), malformed (unusable body, recorded).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of ['stored', 'duplicate', 'refused', 'malformed'] as const) webhookDeliveries.inc({ outcome }, 0);
  new client.Gauge({
    name: 'embudo_jobs',
    help: 'Jobs in the queue by state: due (waiting for a worker), scheduled (due later), running, failed (for good, until pruned).',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const stats = await queueStats();
      if (!stats) return;
      for (const state of ['due', 'scheduled', 'running', 'failed'] as const) this.set({ state }, stats[state]);
    },
  });
  new client.Gauge({
    name: 'embudo_jobs_oldest_due_age_seconds',
    help: 'How long the oldest due job has waited for a worker (0 when none waits).',
    registers: [registry],
    async collect() {
      const stats = await queueStats();
      if (stats) this.set(stats.oldestDueSeconds);
    },
  });
  const jobDuration = new client.Histogram({
    name: 'embudo_job_duration_seconds',
    help: 'Job runs by job name and outcome (completed, retried, failed for good).',
    labelNames: ['job', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  const jobFailures = new client.Counter({
    name: 'embudo_job_failures_total',
    help: 'Failed job runs by job name; final="true" when the job failed for good (no attempt left).',
    labelNames: ['job', 'final'] as const,
    registers: [registry],
  });
  const outboxLag = new client.Histogram({
    name: 'embudo_outbox_lag_seconds',
    help: 'From an outbound message being stored to the provider accepting it.',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
    registers: [registry],
  });
  new client.Gauge({
    name: 'embudo_realtime_connected_sockets',
    help: 'Socket.IO connections open on this process.',
    registers: [registry],
    collect() {
      if (sources) this.set(sources.connectedSockets());
    },
  });
  const realtimeEmits = new client.Counter({
    name: 'embudo_realtime_emits_total',
    help: 'Realtime events sent to rooms, by event name.',
    labelNames: ['event'] as const,
    registers: [registry],
  });
  const aiCalls = new client.Counter({
    name: 'embudo_ai_calls_total',
    help: 'Calls to the AI model by provider, kind (answer: assistant, copilot and bot prompts; transcript: voice notes) and outcome.',
    labelNames: ['provider', 'kind', 'outcome'] as const,
    registers: [registry],
  });
  const aiTokens = new client.Counter({
    name: 'embudo_ai_tokens_total',
    help: 'Tokens the AI model counted, by provider and direction (input, output).',
    labelNames: ['provider', 'direction'] as const,
    registers: [registry],
  });

  return {
    registry,
    attach: (attached) => {
      sources = attached;
    },
    httpRequest: (method, route, statusCode, seconds) => httpDuration.observe({ method, route, status_code: String(statusCode) }, seconds),
    webhookDelivery: (outcome) => webhookDeliveries.inc({ outcome }),
    jobs: {
      jobFinished: (job, outcome, seconds) => {
        jobDuration.observe({ job, outcome }, seconds);
        if (outcome !== 'completed') jobFailures.inc({ job, final: String(outcome === 'failed') });
      },
    },
    outboxLag: (seconds) => outboxLag.observe(Math.max(0, seconds)),
    realtimeEmit: (event) => realtimeEmits.inc({ event }),
    aiCall: (provider, kind, outcome, usage) => {
      aiCalls.inc({ provider, kind, outcome });
      if (usage) {
        aiTokens.inc({ provider, direction: 'input' }, usage.inputTokens);
        aiTokens.inc({ provider, direction: 'output' }, usage.outputTokens);
      }
    },
  };
}
