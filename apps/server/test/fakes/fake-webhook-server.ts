import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface FakeRoute {
  status?: number;
  contentType?: string;
  /** More answer headers, e.g. a redirect's `location`. */
  headers?: Record<string, string>;
  body: string | Buffer;
  /** Answers only once this long has passed (timeouts). */
  delayMs?: number;
}

/** A local HTTP server for bot webhook, image, media and Gemini calls: routes set by the test, requests kept to inspect. */
export async function startFakeWebhookServer() {
  const routes = new Map<string, FakeRoute | ((request: ReceivedRequest) => FakeRoute)>();
  const received: ReceivedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry: ReceivedRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(entry);
      const found = routes.get(entry.path.split('?')[0]!);
      const route = typeof found === 'function' ? found(entry) : (found ?? { status: 404, body: 'not found' });
      const answer = () => {
        response.writeHead(route.status ?? 200, { 'content-type': route.contentType ?? 'application/json', ...route.headers });
        response.end(route.body);
      };
      if (route.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!response.destroyed) answer();
        }, route.delayMs);
        timers.add(timer);
      } else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    route: (path: string, route: FakeRoute | ((request: ReceivedRequest) => FakeRoute)) => routes.set(path, route),
    close: async () => {
      timers.forEach(clearTimeout);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
