import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorResponse } from '@embudo/contracts/http/common';
import { healthResponse, metricsResponse, readinessResponse, type ReadinessPart, type ReadinessResponse } from '@embudo/contracts/http/operations';
import { secretMatches } from '../auth/secrets.ts';
import { notFound, unauthorized } from '../errors/app-error.ts';
import { bearerToken } from '../http/route-access.ts';
import type { Metrics } from '../metrics/metrics.ts';

/** One part of readiness: resolves when it is fine, throws (or rejects) saying why not. */
export type ReadinessProbe = () => Promise<void>;

export interface OperationsOptions {
  /** Checked in parallel on every GET /readyz; an absent part (Redis without REDIS_URL) is not listed. */
  probes: Partial<Record<ReadinessPart, ReadinessProbe>>;
  metrics: Metrics;
  /** METRICS_TOKEN: required from callers outside loopback; unset, /metrics answers loopback callers only. */
  metricsToken?: string;
}

/** How long one readiness part may take before it counts as not answering. */
export const PROBE_TIMEOUT_MS = 2_000;

function withTimeout(probe: ReadinessProbe): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    probe(),
    new Promise<void>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** The error and its cause (drivers wrap the socket's error: "Failed query: select 1" caused by ECONNREFUSED). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  const first = error.message.split('\n')[0]!;
  return cause ? `${first} (${cause})` : first;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** The socket comes from this machine and no proxy forwarded the request (a proxy on this host would look local). */
function fromLoopback(request: FastifyRequest): boolean {
  const forwarded = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  return !forwarded && LOOPBACK.test(request.socket.remoteAddress ?? '');
}

/**
 * Operations routes, outside /api: GET /healthz (the process answers), GET /readyz (every part it needs answers;
 * 503 naming the failing parts) and GET /metrics (Prometheus). They need no session: load balancers and Prometheus
 * call them. /metrics is off outside loopback unless METRICS_TOKEN is set, and then needs it as a bearer token.
 */
export async function registerOperationsRoutes(app: FastifyInstance, options: OperationsOptions) {
  // Once the shutdown starts, a request that was in flight answers with `Connection: close` and its connection is
  // dropped once idle: a keep-alive connection would otherwise hold the server open until its keep-alive timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
  app.addHook('onResponse', async () => {
    if (closing) app.server.closeIdleConnections();
  });

  app.get('/healthz', { schema: { response: { 200: healthResponse } } }, async () => ({ status: 'ok' as const }));

  app.get('/readyz', { schema: { response: { 200: readinessResponse, 503: readinessResponse } } }, async (_request, reply) => {
    const parts = Object.entries(options.probes) as [ReadinessPart, ReadinessProbe][];
    const results = await Promise.all(
      parts.map(async ([part, probe]) => {
        try {
          await withTimeout(probe);
          return [part, { ok: true }] as const;
        } catch (error) {
          return [part, { ok: false, detail: describe(error) }] as const;
        }
      }),
    );
    const checks: ReadinessResponse['checks'] = Object.fromEntries(results);
    const failing = (Object.keys(checks) as ReadinessPart[]).filter((part) => !checks[part]!.ok);
    const body: ReadinessResponse = { status: failing.length === 0 ? 'ready' : 'not_ready', failing, checks };
    return reply.status(failing.length === 0 ? 200 : 503).send(body);
  });

  app.get('/metrics', { schema: { response: { 200: metricsResponse, 401: errorResponse, 404: errorResponse } } }, async (request, reply) => {
    if (!fromLoopback(request)) {
      if (!options.metricsToken) throw notFound();
      const given = bearerToken(request);
      if (!given || !secretMatches(options.metricsToken, given)) throw unauthorized('Token de métricas inválido.');
    }
    const text = await options.metrics.registry.metrics();
    return reply.type(options.metrics.registry.contentType).send(text);
  });

  // Every answered request, by route template (unmatched paths as one label, so scanners cannot grow the series).
  app.addHook('onResponse', async (request, reply) => {
    options.metrics.httpRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
  });
}
