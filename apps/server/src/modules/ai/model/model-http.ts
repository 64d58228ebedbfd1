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

/** One provider's reading of its failures. */
export interface ModelHttpPolicy {
  /** Names the model in error messages ("Gemini", "OpenAI"). */
  service: string;
  /** Maps a non-2xx answer (status, body text, headers) to a failure. */
  classify: (status: number, bodyText: string, headers: Headers) => HttpFailure;
}

/**
 * The fetch the SDK's providers are given. It owns the transport policy: a timeout per attempt (reading the answer
 * included), retries of quota and unavailable failures with exponential backoff or the wait the server asks for,
 * and every failure thrown as an AiModelError, which the SDK passes through untouched. The SDK's own retries stay
 * off: they read neither Google's `RetryInfo` (it is in the body, not a header) nor a billing stop, have no cap on a
 * wait, and sleep for real where tests need an injected sleep.
 */
export function createModelFetch(options: ModelHttpOptions, policy: ModelHttpPolicy): typeof fetch {
  return async (input, init) => {
    const callerSignal = init?.signal ?? undefined;
    for (let attempt = 1; ; attempt++) {
      const outcome = await attemptOnce(options, policy, input, init);
      if (outcome instanceof Response) return outcome;
      if (!outcome.retryable || attempt >= options.maxAttempts) throw new AiModelError(outcome.kind, outcome.message);
      const backoff = options.baseDelayMs * 2 ** (attempt - 1);
      await options.sleep(Math.min(outcome.retryAfterMs ?? backoff, options.maxDelayMs));
      if (callerSignal?.aborted) throw callerSignal.reason;
    }
  };
}

async function attemptOnce(
  options: ModelHttpOptions,
  policy: ModelHttpPolicy,
  input: Parameters<typeof fetch>[0],
  init: RequestInit | undefined,
): Promise<HttpFailure | Response> {
  const callerSignal = init?.signal ?? undefined;
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
  let response: Response;
  let text: string;
  try {
    response = await options.fetch(input, { ...init, signal });
    text = await response.text();
  } catch (error) {
    if (callerSignal?.aborted) throw callerSignal.reason;
    if (timeout.aborted) throw new AiModelError('timeout', `${policy.service} no respondió en ${Math.round(options.timeoutMs / 1000)} s`);
    return {
      kind: 'unavailable',
      retryable: true,
      message: `${policy.service} no está disponible: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (!response.ok) return policy.classify(response.status, text, response.headers);
  // The body was read inside the timeout; the SDK reads this copy.
  return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The kind every HTTP status maps to unless the provider's body says more: 429 quota, 5xx (and 408) unavailable, other 4xx rejected. */
export function failureForStatus(status: number): Pick<HttpFailure, 'kind' | 'retryable'> {
  if (status === 429) return { kind: 'quota', retryable: true };
  if (status >= 500 || status === 408) return { kind: 'unavailable', retryable: true };
  return { kind: 'rejected', retryable: false };
}

/**
 * Any failure of an SDK call in the port's terms. The model fetch already threw AiModelErrors for HTTP failures;
 * what is left is an answer the SDK could not read (not JSON, not the provider's shape) or a call the model made
 * against the rules (a tool call where none was allowed): the model is not usable right now.
 */
export function aiModelErrorOf(error: unknown, service: string): AiModelError {
  if (error instanceof AiModelError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new AiModelError('unavailable', `${service} dio una respuesta que no se pudo usar: ${detail}`);
}
