import { AiModelError, type AiFailureKind } from './model-port.ts';

/** How an adapter talks HTTP to its model: retries, per-request timeout, and a sleep tests replace. */
export interface ModelHttpOptions {
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
  /** Per attempt, reading the answer included. */
  timeoutMs: number;
  /** Attempts in all (the first one included) for quota and unavailable failures. */
  maxAttempts: number;
  /** First backoff; each retry doubles it. */
  baseDelayMs: number;
  /** No wait is longer than this, whatever the server asks for. */
  maxDelayMs: number;
}

export const DEFAULT_MODEL_HTTP: Omit<ModelHttpOptions, 'fetch'> = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  timeoutMs: 30_000,
  maxAttempts: 3,
  baseDelayMs: 1_000,
  maxDelayMs: 20_000,
};

/** The defaults with whatever the adapter's caller set (tests: a sleep that records, short timeouts). */
export function modelHttpOptions(overrides: Partial<ModelHttpOptions>): ModelHttpOptions {
  const { fetch: customFetch, sleep, timeoutMs, maxAttempts, baseDelayMs, maxDelayMs } = overrides;
  return {
    fetch: customFetch ?? fetch,
    sleep: sleep ?? DEFAULT_MODEL_HTTP.sleep,
    timeoutMs: timeoutMs ?? DEFAULT_MODEL_HTTP.timeoutMs,
    maxAttempts: maxAttempts ?? DEFAULT_MODEL_HTTP.maxAttempts,
    baseDelayMs: baseDelayMs ?? DEFAULT_MODEL_HTTP.baseDelayMs,
    maxDelayMs: maxDelayMs ?? DEFAULT_MODEL_HTTP.maxDelayMs,
  };
}

/** What a non-2xx answer means: the failure kind, whether another attempt may help, and how long the server asks us to wait. */
export interface HttpFailure {
  kind: AiFailureKind;
  retryable: boolean;
  retryAfterMs?: number;
  message: string;
}

export interface ModelHttpRequest {
  url: string;
  headers: Record<string, string>;
  body: string | FormData;
  signal?: AbortSignal;
  /** Maps a non-2xx answer (status, body text, headers) to a failure. */
  classify: (status: number, bodyText: string, headers: Headers) => HttpFailure;
  /** Names the model in error messages ("Gemini", "OpenAI"). */
  service: string;
}

/** POSTs and returns the parsed JSON answer, retrying quota and unavailable failures with exponential backoff. */
export async function postWithRetries(options: ModelHttpOptions, request: ModelHttpRequest): Promise<unknown> {
  for (let attempt = 1; ; attempt++) {
    const failure = await attemptOnce(options, request);
    if (!('kind' in failure)) return failure.json;
    if (!failure.retryable || attempt >= options.maxAttempts) throw new AiModelError(failure.kind, failure.message);
    const backoff = options.baseDelayMs * 2 ** (attempt - 1);
    await options.sleep(Math.min(failure.retryAfterMs ?? backoff, options.maxDelayMs));
    if (request.signal?.aborted) throw request.signal.reason;
  }
}

async function attemptOnce(options: ModelHttpOptions, request: ModelHttpRequest): Promise<HttpFailure | { json: unknown }> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  let response: Response;
  let text: string;
  try {
    response = await options.fetch(request.url, { method: 'POST', headers: request.headers, body: request.body, signal });
    text = await response.text();
  } catch (error) {
    if (request.signal?.aborted) throw request.signal.reason;
    if (timeout.aborted) throw new AiModelError('timeout', `${request.service} no respondió en ${Math.round(options.timeoutMs / 1000)} s`);
    return {
      kind: 'unavailable',
      retryable: true,
      message: `${request.service} no está disponible: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (!response.ok) return request.classify(response.status, text, response.headers);
  try {
    return { json: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'unavailable', retryable: false, message: `${request.service} respondió algo que no es JSON` };
  }
}

/** The kind every HTTP status maps to unless the provider's body says more: 429 quota, 5xx (and 408) unavailable, other 4xx rejected. */
export function failureForStatus(status: number): Pick<HttpFailure, 'kind' | 'retryable'> {
  if (status === 429) return { kind: 'quota', retryable: true };
  if (status >= 500 || status === 408) return { kind: 'unavailable', retryable: true };
  return { kind: 'rejected', retryable: false };
}
