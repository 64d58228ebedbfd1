import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWebhookServer } from '../../../test/fakes/fake-webhook-server.ts';
import { testNetwork } from '../../../test/fakes/test-network.ts';
import { createOutboundHttp, HOST_NOT_ALLOWED, HTTP_ONLY, INVALID_URL, OutboundTimeout, REFUSED_ADDRESS } from './outbound-http.guard.ts';

let server: Awaited<ReturnType<typeof startFakeWebhookServer>>;
let publicPort = 0;
const names = { 'public.test': ['93.184.215.14'], 'other.test': ['8.8.8.8'], 'secure.test': ['93.184.215.14'] };

beforeAll(async () => {
  server = await startFakeWebhookServer();
  publicPort = Number(new URL(server.url).port);
  server.route('/ok', { body: '{"ok":true}' });
  server.route('/big', { body: 'x'.repeat(4096) });
  server.route('/slow', { body: 'tarde', delayMs: 2_000 });
  server.route('/see-other', { status: 303, headers: { location: '/ok' }, body: '' });
  server.route('/temporary', { status: 307, headers: { location: '/ok' }, body: '' });
  server.route('/elsewhere', { status: 302, headers: { location: 'http://other.test/ok' }, body: '' });
  server.route('/same-origin', { status: 302, headers: { location: '/ok' }, body: '' });
});
afterAll(async () => server.close());

const network = () => testNetwork(publicPort, names);

describe('createOutboundHttp', () => {
  it('refuses loopback by literal address and by a name that resolves to it, unless the operator allows private networks', async () => {
    const guarded = createOutboundHttp();
    await expect(guarded({ url: `${server.url}/ok` })).rejects.toThrow(REFUSED_ADDRESS);
    await expect(guarded({ url: `${server.url.replace('127.0.0.1', 'localhost')}/ok` })).rejects.toThrow(REFUSED_ADDRESS);
    await expect(guarded({ url: 'http://[::1]:9/ok' })).rejects.toThrow(REFUSED_ADDRESS);
    expect(server.received).toHaveLength(0);

    const allowed = createOutboundHttp({ allowPrivateNetworks: true });
    const answer = await allowed({ url: `${server.url}/ok`, method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('{"ok":true}');
    expect(server.received.at(-1)).toMatchObject({ method: 'POST', path: '/ok', body: '{"a":1}' });
  });

  it('resolves a name once and connects to exactly the address it checked, with the name as Host', async () => {
    let answers = 0;
    const net = network();
    // A rebinding resolver: public on the first question, loopback on any later one.
    const lookup = async (hostname: string) => {
      answers += 1;
      return answers === 1 ? net.lookup(hostname) : [{ address: '127.0.0.1', family: 4 }];
    };
    const http = createOutboundHttp({ lookup, connect: net.connect });
    const answer = await http({ url: 'http://public.test/ok' });
    expect(answer.status).toBe(200);
    expect(answers).toBe(1);
    expect(net.dialled).toEqual([{ address: '93.184.215.14', port: 80 }]);
    expect(server.received.at(-1)?.headers.host).toBe('public.test');
  });

  it('follows redirects as browsers do: 303 becomes a GET without the body, 307 keeps the POST', async () => {
    const net = network();
    const http = createOutboundHttp({ lookup: net.lookup, connect: net.connect });
    const post = { method: 'POST' as const, body: '{"pedido":1}', headers: { 'content-type': 'application/json' } };
    expect((await http({ url: 'http://public.test/see-other', ...post })).status).toBe(200);
    expect(server.received.at(-1)).toMatchObject({ method: 'GET', path: '/ok', body: '' });
    expect(server.received.at(-1)?.headers['content-type']).toBeUndefined();
    expect((await http({ url: 'http://public.test/temporary', ...post })).status).toBe(200);
    expect(server.received.at(-1)).toMatchObject({ method: 'POST', path: '/ok', body: '{"pedido":1}' });
  });

  it("sends the caller's headers to the first origin only", async () => {
    const net = network();
    const http = createOutboundHttp({ lookup: net.lookup, connect: net.connect });
    const headers = { authorization: 'Bearer secreto' };
    await http({ url: 'http://public.test/same-origin', headers });
    expect(server.received.at(-1)?.headers.authorization).toBe('Bearer secreto');
    await http({ url: 'http://public.test/elsewhere', headers });
    expect(server.received.at(-1)).toMatchObject({ path: '/ok', headers: { host: 'other.test' } });
    expect(server.received.at(-1)?.headers.authorization).toBeUndefined();
    expect(net.dialled.at(-1)).toEqual({ address: '8.8.8.8', port: 80 });
  });

  it('reaches only the hosts an allow-list accepts, on every hop', async () => {
    const net = network();
    const http = createOutboundHttp({ lookup: net.lookup, connect: net.connect, allowHost: (host) => host === 'public.test' });
    expect((await http({ url: 'http://public.test/ok' })).status).toBe(200);
    await expect(http({ url: 'http://other.test/ok' })).rejects.toThrow(HOST_NOT_ALLOWED);
    const before = server.received.length;
    await expect(http({ url: 'http://public.test/elsewhere' })).rejects.toThrow(HOST_NOT_ALLOWED);
    expect(server.received.length).toBe(before + 1);
  });

  it('speaks TLS over the pinned connection, with the name for SNI and certificate checks', async () => {
    const fixtures = path.resolve(import.meta.dirname, '../../../test/fakes/tls');
    const serverNames: string[] = [];
    const secure = https.createServer(
      {
        key: fs.readFileSync(path.join(fixtures, 'secure-test.key')),
        cert: fs.readFileSync(path.join(fixtures, 'secure-test.crt')),
        SNICallback: (serverName, done) => {
          serverNames.push(serverName);
          done(null);
        },
      },
      (_request, response) => response.end('ok'),
    );
    await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
    try {
      const net = testNetwork((secure.address() as AddressInfo).port, names);
      const http = createOutboundHttp({ lookup: net.lookup, connect: net.connect });
      // The test certificate is self-signed: the client checks it, so the exchange stops at the handshake.
      await expect(http({ url: 'https://secure.test/' })).rejects.toThrow(/self[- ]signed/);
      expect(net.dialled).toEqual([{ address: '93.184.215.14', port: 443 }]);
      expect(serverNames).toEqual(['secure.test']);
    } finally {
      secure.closeAllConnections();
      await new Promise<void>((resolve) => secure.close(() => resolve()));
    }
  });

  it('refuses other protocols and malformed URLs', async () => {
    const guarded = createOutboundHttp({ allowPrivateNetworks: true });
    await expect(guarded({ url: 'file:///etc/passwd' })).rejects.toThrow(HTTP_ONLY);
    await expect(guarded({ url: 'no es una url' })).rejects.toThrow(INVALID_URL);
  });

  it('caps the size of the answer and the time it may take', async () => {
    const guarded = createOutboundHttp({ allowPrivateNetworks: true, maxResponseBytes: 1024, timeoutMs: 300 });
    await expect(guarded({ url: `${server.url}/big` })).rejects.toThrow('La respuesta supera el límite de 1 KB.');
    const slow = guarded({ url: `${server.url}/slow` });
    await expect(slow).rejects.toThrow('Sin respuesta en 0 s.');
    await expect(slow).rejects.toBeInstanceOf(OutboundTimeout);
  });
});
