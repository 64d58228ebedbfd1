import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { connectClient, connectError, joinTenant, listenOnRandomPort, nextEvent, type TestSocket } from '../../../test/support/realtime-client.ts';

let t: TestApp;
let baseUrl: string;
const sockets: TestSocket[] = [];
const track = (socket: TestSocket) => (sockets.push(socket), socket);

beforeAll(async () => {
  t = await buildTestApp();
  baseUrl = await listenOnRandomPort(t.app);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await t.close();
});

describe('realtime connection', () => {
  it('accepts the session token with its tenant slug and delivers tenant events after join_tenant', async () => {
    const session = await registerTenant(t.app);
    const socket = track(connectClient(baseUrl, session.token, session.tenant.slug));
    expect(await joinTenant(socket, session.tenant.slug, session.token)).toEqual({ ok: true });
    const received = nextEvent(socket, 'card_updated');
    t.app.realtime.emitToTenant(session.tenant.id, 'card_updated', { id: 'card-1', unreadCount: 2 });
    expect(await received).toEqual({ id: 'card-1', unreadCount: 2 });
  });

  it('refuses a bad token', async () => {
    const session = await registerTenant(t.app);
    const error = await connectError(track(connectClient(baseUrl, 'invalid-token', session.tenant.slug)));
    expect(error.message).toBe('Sesión inválida para este tenant.');
  });

  it('refuses a slug that is not the session\'s tenant', async () => {
    const a = await registerTenant(t.app);
    const b = await registerTenant(t.app);
    const error = await connectError(track(connectClient(baseUrl, a.token, b.tenant.slug)));
    expect(error.message).toBe('Sesión inválida para este tenant.');
  });

  it('refuses a join_tenant for another tenant and disconnects', async () => {
    const a = await registerTenant(t.app);
    const b = await registerTenant(t.app);
    const socket = track(connectClient(baseUrl, a.token, a.tenant.slug));
    const ack = await joinTenant(socket, b.tenant.slug, b.token);
    expect(ack.ok).toBe(false);
  });

  it('keeps tenants apart: an event of one tenant never reaches another', async () => {
    const a = await registerTenant(t.app);
    const b = await registerTenant(t.app);
    const socketA = track(connectClient(baseUrl, a.token, a.tenant.slug));
    const socketB = track(connectClient(baseUrl, b.token, b.tenant.slug));
    await joinTenant(socketA, a.tenant.slug, a.token);
    await joinTenant(socketB, b.tenant.slug, b.token);
    const leaked: unknown[] = [];
    socketB.on('funnels_updated', (payload) => leaked.push(payload));
    const toA = nextEvent(socketA, 'funnels_updated');
    t.app.realtime.emitToTenant(a.tenant.id, 'funnels_updated', {});
    await toA;
    // B's own event arrives after A's on the same server, so if A's had leaked it would be here by now.
    const toB = nextEvent(socketB, 'board_updated');
    t.app.realtime.emitToTenant(b.tenant.id, 'board_updated', { funnelId: 'f' });
    await toB;
    expect(leaked).toEqual([]);
  });

  it('disconnects a user\'s sockets when the password changes', async () => {
    const session = await registerTenant(t.app);
    const socket = track(connectClient(baseUrl, session.token, session.tenant.slug));
    await joinTenant(socket, session.tenant.slug, session.token);
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    await t.app.inject({ method: 'PUT', url: '/api/auth/change-password', headers: bearer(session.token), payload: { newPassword: 'Nueva1234' } });
    expect(await disconnected).toBe('io server disconnect');
  });
});
