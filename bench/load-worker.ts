/**
 * The worker thread of load-off-thread.ts: runs its requests and posts the result back. Requests go through node:http
 * with one kept-alive connection per request in flight, as a provider's many senders would hold them: undici's fetch
 * left a few requests of a 200-wide burst waiting in its own queue for seconds while the server answered every request
 * it had received within 0.1 s, so the answer times measured the client.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { load } from './load.ts';
import type { PlainRequests } from './load-off-thread.ts';

const { urls, total, concurrency, method = 'GET', headers = {}, bodies } = workerData as PlainRequests;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

function send(url: string, body: string | undefined, signal: AbortSignal): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method, agent, signal, headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => resolve(new Response(chunks.length > 0 ? Buffer.concat(chunks) : null, { status: answer.statusCode ?? 500 })));
        answer.on('error', reject);
      },
    );
    // A timed-out request fails as load() counts timeouts: with the signal's TimeoutError, not node's AbortError.
    request.on('error', (error) => reject(signal.aborted ? signal.reason : error));
    request.end(body);
  });
}

const result = await load({ total, concurrency, request: (index, signal) => send(urls[index % urls.length]!, bodies?.[index], signal) });
agent.destroy();
parentPort!.postMessage({ result, timeOrigin: performance.timeOrigin });
