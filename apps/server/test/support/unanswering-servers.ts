import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Two HTTP servers that never answer a send properly, as a provider's API may fail: one reads the request and stays
 * silent, the other starts an answer and cuts it short. A send to either may have reached the provider, so a client
 * must report it as uncertain.
 */
export async function startUnansweringServers() {
  const received: string[] = [];
  const silent = http.createServer((request) => {
    request.resume();
    received.push(request.url ?? '');
  });
  const cutShort = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"status":');
      setImmediate(() => response.destroy());
    });
  });
  const servers = [silent, cutShort];
  for (const server of servers) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    urls: servers.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    /** The paths the silent server was asked for. */
    received,
    close() {
      for (const server of servers) {
        server.closeAllConnections();
        server.close();
      }
    },
  };
}
