import { createHmac } from 'node:crypto';
import { ProviderError } from '../provider.ts';
import { metaCode, metaFailure, metaRetryable } from './meta-errors.ts';
import { callService, ServiceCallUncertain, type ServiceAnswer } from '../../platform/outbound-http/service-http.ts';

/**
 * Meta's Graph API as the Cloud API uses it (meta-cloud.md §1): `{graphUrl}/{version}/…`, a bearer token, JSON
 * bodies, and errors as `{ error: { message, type, code, error_data: { details }, fbtrace_id } }` (§2.8). Every
 * call carries `appsecret_proof` (HMAC-SHA256 of the token keyed with the app secret) when the app secret is known,
 * so an app that requires it works and a wrong app secret shows at once.
 */

export interface GraphClientOptions {
  /** `https://graph.facebook.com`, or the fake's URL; lazy, since the in-process sandbox only knows its port once it listens. */
  graphUrl: string | (() => string);
  /** META_GRAPH_VERSION, e.g. `v25.0`. */
  version: string;
  timeoutMs?: number;
}

export interface GraphCredentials {
  accessToken: string;
  appSecret?: string;
}

export interface GraphRequest {
  method?: 'GET' | 'POST' | 'DELETE';
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  /** A raw body with its own headers (the resumable upload's file bytes). */
  raw?: { body: Uint8Array; headers: Record<string, string> };
  /** The resumable upload authenticates with `OAuth <token>` instead of `Bearer`. */
  authScheme?: 'Bearer' | 'OAuth';
}

export type GraphAnswer = Record<string, unknown>;

const DEFAULT_TIMEOUT_MS = 15_000;

export function appSecretProof(accessToken: string, appSecret: string) {
  return createHmac('sha256', appSecret).update(accessToken).digest('hex');
}

/** Meta's error object, when the answer carries one. */
function graphError(body: GraphAnswer) {
  const error = body.error;
  if (!error || typeof error !== 'object') return undefined;
  const fields = error as Record<string, unknown>;
  const details = (fields.error_data as { details?: unknown } | undefined)?.details;
  return {
    code: metaCode(fields.code),
    message: typeof fields.message === 'string' ? fields.message : undefined,
    details: typeof details === 'string' ? details : undefined,
  };
}

export function createGraphClient(options: GraphClientOptions) {
  const base = () => `${(typeof options.graphUrl === 'string' ? options.graphUrl : options.graphUrl()).replace(/\/$/, '')}/${options.version}`;

  return {
    base,
    async call(credentials: GraphCredentials, path: string, request: GraphRequest = {}): Promise<GraphAnswer> {
      const url = new URL(`${base()}${path}`);
      for (const [key, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
      if (credentials.appSecret) url.searchParams.set('appsecret_proof', appSecretProof(credentials.accessToken, credentials.appSecret));
      const headers: Record<string, string> = {
        authorization: `${request.authScheme ?? 'Bearer'} ${credentials.accessToken}`,
        accept: 'application/json',
        ...(request.json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...request.raw?.headers,
      };
      let response: ServiceAnswer;
      try {
        response = await callService(url, {
          method: request.method ?? (request.json !== undefined || request.raw ? 'POST' : 'GET'),
          headers,
          body: request.raw ? request.raw.body : request.json !== undefined ? JSON.stringify(request.json) : undefined,
          timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        });
      } catch (error) {
        // A refused connection never reached Meta; a timeout or an answer cut short may have, so resending could duplicate.
        const uncertain = error instanceof ServiceCallUncertain;
        throw new ProviderError(`Meta no respondió: ${(error as Error).message}`, true, undefined, uncertain);
      }
      let answer: GraphAnswer = {};
      try {
        const parsed = response.text ? (JSON.parse(response.text) as unknown) : {};
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) answer = parsed as GraphAnswer;
      } catch {
        // A proxy's HTML page: reported by its status below.
      }
      const error = graphError(answer);
      if (response.ok && !error) return answer;
      const message = error ? `(#${error.code ?? '?'}) ${error.details ?? error.message ?? 'Error de Meta'}` : `Meta respondió ${response.status}`;
      // An outage says nothing about the message; a Meta error always does.
      const failure = error || response.status < 500 ? metaFailure(error?.code) : undefined;
      throw new ProviderError(message, metaRetryable(error?.code, response.status), response.status, false, failure);
    },
  };
}

export type GraphClient = ReturnType<typeof createGraphClient>;
