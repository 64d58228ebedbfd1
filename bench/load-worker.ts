/**
 * The worker thread of load-off-thread.ts: runs its requests and posts the result back. Requests go over one
 * kept-alive connection per request in flight, as a provider's many senders would hold them, through the lean
 * client of keep-alive-client.ts (undici's fetch left a few requests of a 200-wide burst waiting in its own queue for
 * seconds, and node:http's client capped the rate of cheap requests below what the server could answer).
 */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { KeepAliveClient } from './keep-alive-client.ts';
import { load } from './load.ts';
import type { PlainRequests } from './load-off-thread.ts';

const { urls, total, untilMs, concurrency, method = 'GET', headers = {}, bodies, intervalMs } = workerData as PlainRequests;
const client = new KeepAliveClient(headers);
// The caller's stop signal (loadOffThread's stopWhen); the port alone must not keep this thread alive.
let stopped = false;
parentPort!.once('message', () => (stopped = true));
parentPort!.unref();

const result = await load({
  total,
  untilMs,
  stop: () => stopped,
  concurrency,
  intervalMs,
  request: (index, signal) => client.request(method, urls[index % urls.length]!, bodies?.[index], signal),
});
client.close();
parentPort!.postMessage({ result, timeOrigin: performance.timeOrigin });
