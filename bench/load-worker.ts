/** The worker thread of load-off-thread.ts: runs its requests and posts the result back. */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { load } from './load.ts';
import type { PlainRequests } from './load-off-thread.ts';

const { urls, total, concurrency, method = 'GET', headers = {}, bodies } = workerData as PlainRequests;
const result = await load({
  total,
  concurrency,
  request: (index, signal) => fetch(urls[index % urls.length]!, { method, headers, body: bodies?.[index], signal }),
});
parentPort!.postMessage({ result, timeOrigin: performance.timeOrigin });
