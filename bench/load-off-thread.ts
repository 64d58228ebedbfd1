/**
 * Plain HTTP load from a worker thread. Real webhooks and API calls come from outside the server's process; made from
 * the server's own thread, the client's half of every request (fetch, its streams and timers) took as much of that
 * thread as the server's handling of a cheap request, and the figures measured the bench as much as the server.
 */
import { performance } from 'node:perf_hooks';
import { moduleWorker } from '../apps/server/src/platform/threads/module-worker.ts';
import type { LoadResult } from './load.ts';

export interface PlainRequests {
  /** Request i goes to urls[i % urls.length]. */
  urls: string[];
  /** As many as fit in `untilMs`, or until the stop signal, when not given. */
  total?: number;
  /** Stops starting requests after this long (see `load`). */
  untilMs?: number;
  concurrency: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Request i sends bodies[i]. */
  bodies?: string[];
  /** Request i starts i × intervalMs after the first (see `load`). */
  intervalMs?: number;
}

/**
 * Runs the requests in a worker thread; its times come back on this thread's clock. Once `stopWhen` resolves, no
 * request is started any more.
 */
export function loadOffThread(requests: PlainRequests, stopWhen?: Promise<unknown>): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = moduleWorker(new URL('./load-worker.ts', import.meta.url), { workerData: requests });
    void stopWhen?.then(() => worker.postMessage('stop'));
    worker.once('message', ({ result, timeOrigin }: { result: LoadResult; timeOrigin: number }) => {
      const shift = timeOrigin - performance.timeOrigin;
      resolve({ ...result, startedAt: result.startedAt + shift, endedAt: result.endedAt + shift });
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load worker exited with ${code}`));
    });
  });
}
