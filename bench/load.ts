/**
 * The load generator: `total` requests (or as many as fit in a time) with a number in flight at once, their answer
 * times, failures and timeouts. It imports nothing of the app, so a worker thread can run it (load-off-thread.ts).
 */
import { performance } from 'node:perf_hooks';
import type { PlainAnswer } from './keep-alive-client.ts';

/** A webhook answer later than this counts as timed out (and the request is abandoned). */
export const WEBHOOK_TIMEOUT_MS = 120_000;

export interface LoadResult {
  /** Answer times of every request that answered, ms. */
  latencies: number[];
  /** When each of those requests started, ms after `startedAt` (same order as `latencies`). */
  startOffsets: number[];
  elapsedMs: number;
  /** When the last answer came (performance.now()). */
  endedAt: number;
  startedAt: number;
  ok: number;
  /** Answers with a status ≥ 400 and requests that failed, by status or error name. */
  failures: Map<string, number>;
  /** Requests abandoned after `timeoutMs`. */
  timeouts: number;
}

/**
 * Runs `total` requests (or, with `untilMs`, as many as fit in that time; or until `stop()` says so) with
 * `concurrency` in flight at once. `request(i, signal)` makes the i-th request.
 */
export async function load(options: {
  total?: number;
  untilMs?: number;
  stop?: () => boolean;
  concurrency: number;
  /**
   * Request i starts `i × intervalMs` after the first, whether or not earlier ones have answered (up to `concurrency`
   * in flight): a stalled server then meets the requests that arrive during the stall, as it would from real clients.
   */
  intervalMs?: number;
  timeoutMs?: number;
  /** Resolves with the answer; load() reads its body to the end (a fetch Response, or keep-alive-client's answer). */
  request: (index: number, signal: AbortSignal) => Promise<PlainAnswer>;
}): Promise<LoadResult> {
  const { concurrency, timeoutMs = WEBHOOK_TIMEOUT_MS } = options;
  const total = options.total ?? Number.POSITIVE_INFINITY;
  const result: LoadResult = {
    latencies: [],
    startOffsets: [],
    elapsedMs: 0,
    endedAt: 0,
    startedAt: performance.now(),
    ok: 0,
    failures: new Map(),
    timeouts: 0,
  };
  const stopAt = options.untilMs === undefined ? Number.POSITIVE_INFINITY : result.startedAt + options.untilMs;
  const fail = (reason: string) => result.failures.set(reason, (result.failures.get(reason) ?? 0) + 1);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total && performance.now() < stopAt && !options.stop?.()) {
        const index = next++;
        if (options.intervalMs !== undefined) {
          const due = result.startedAt + index * options.intervalMs;
          if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
        }
        const started = performance.now();
        try {
          const answer = await options.request(index, AbortSignal.timeout(timeoutMs));
          await answer.arrayBuffer();
          result.latencies.push(performance.now() - started);
          result.startOffsets.push(started - result.startedAt);
          if (answer.status >= 400) fail(String(answer.status));
          else result.ok += 1;
        } catch (error) {
          if (error instanceof Error && error.name === 'TimeoutError') result.timeouts += 1;
          else fail(error instanceof Error ? error.name : 'error');
        }
        result.endedAt = performance.now();
      }
    }),
  );
  result.elapsedMs = result.endedAt - result.startedAt;
  return result;
}
