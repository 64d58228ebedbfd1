import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWebhookServer } from '../../../test/fakes/fake-webhook-server.ts';
import { createOutboundHttp, isNonPublicAddress, REFUSED_ADDRESS } from './outbound-http.guard.ts';

let server: Awaited<ReturnType<typeof startFakeWebhookServer>>;
beforeAll(async () => {
  server = await startFakeWebhookServer();
  server.route('/ok', { body: '{"ok":true}' });
  server.route('/big', { body: 'x'.repeat(4096) });
  server.route('/slow', { body: 'tarde', delayMs: 2_000 });
});
afterAll(async () => server.close());

describe('isNonPublicAddress', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.9', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::2', '::ffff:127.0.0.1', 'no-ip'])('refuses %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });
  it.each(['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])('lets %s through', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });
});

describe('createOutboundHttp', () => {
  it('refuses loopback, by literal address and by a name that resolves to it, unless the operator allows private networks', async () => {
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

  it('refuses other protocols and malformed URLs', async () => {
    const guarded = createOutboundHttp({ allowPrivateNetworks: true });
    await expect(guarded({ url: 'file:///etc/passwd' })).rejects.toThrow('Solo se admiten URLs http o https.');
    await expect(guarded({ url: 'no es una url' })).rejects.toThrow('La URL no es válida.');
  });

  it('caps the size of the answer and the time it may take', async () => {
    const guarded = createOutboundHttp({ allowPrivateNetworks: true, maxResponseBytes: 1024, timeoutMs: 300 });
    await expect(guarded({ url: `${server.url}/big` })).rejects.toThrow('La respuesta supera el límite de 1 KB.');
    await expect(guarded({ url: `${server.url}/slow` })).rejects.toThrow('Sin respuesta en 0 s.');
  });
});
