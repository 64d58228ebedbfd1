import { z } from 'zod';

/** GET /healthz: the process is alive and its event loop answers. Nothing else is checked. */
export const healthResponse = z.object({ status: z.literal('ok') }).describe('The process is alive.');

/** The parts GET /readyz checks; `redis` only when REDIS_URL is set. */
export const readinessParts = ['database', 'migrations', 'queue', 'redis'] as const;
export type ReadinessPart = (typeof readinessParts)[number];

export const readinessCheck = z.object({
  ok: z.boolean(),
  /** Why the part is not ready (English, for operators and logs). */
  detail: z.string().optional(),
});

/**
 * GET /readyz: 200 when every part answers, 503 naming the failing parts otherwise (a load balancer sends no
 * traffic to a process that is not ready). A process that is shutting down answers every new request 503 (Fastify).
 */
export const readinessResponse = z.object({
  status: z.enum(['ready', 'not_ready']),
  failing: z.array(z.enum(readinessParts)),
  checks: z.partialRecord(z.enum(readinessParts), readinessCheck),
});
export type ReadinessResponse = z.infer<typeof readinessResponse>;

/** GET /metrics: Prometheus' text exposition format; Fastify sends the string as it is. */
export const metricsResponse = { description: 'Prometheus text format 0.0.4.', content: { 'text/plain': { schema: z.string() } } };
