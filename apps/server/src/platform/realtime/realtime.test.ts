import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sessions } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { createUser } from '../../modules/users/index.ts';
import { hashPassword } from '../auth/secrets.ts';
import { sandboxAppName } from '../../modules/tenants/index.ts';
import { PASSWORD_CHANGE_REQUIRED } from '../http/route-access.ts';
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
    const received = nextEvent(socket, 'batch_updated');
    t.app.realtime.emitToTenant(session.tenant.id, 'batch_updated', { batchId: 'batch-1' });
    expect(await received).toEqual({ batchId: 'batch-1' });
  });

  it('refuses a bad token', async () => {
    const session = await registerTenant(t.app);
    const error = await connectError(track(connectClient(baseUrl, 'invalid-token', session.tenant.slug)));
    expect(error.message).toBe('Sesión inválida para este tenant.');
  });

  it("refuses a slug that is not the session's tenant", async () => {
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

  it('does not encode an event nobody here can hear (one process, no socket in its rooms), and still sends it once one joins', async () => {
    const session = await registerTenant(t.app);
    const adapter = t.app.realtime.io.of('/').adapter;
    const broadcast = adapter.broadcast.bind(adapter);
    const broadcastRooms: string[][] = [];
    adapter.broadcast = (packet, options) => {
      broadcastRooms.push([...options.rooms]);
      broadcast(packet, options);
    };
    try {
      t.app.realtime.emitToTenant(session.tenant.id, 'funnels_updated', {});
      t.app.realtime.emitToFunnel(session.tenant.id, 'funnel-1', 'board_updated', { funnelId: 'funnel-1' });
      expect(broadcastRooms).toEqual([]);

      const socket = track(connectClient(baseUrl, session.token, session.tenant.slug));
      await joinTenant(socket, session.tenant.slug, session.token);
      const heard = nextEvent(socket, 'funnels_updated');
      t.app.realtime.emitToTenant(session.tenant.id, 'funnels_updated', {});
      expect(await heard).toEqual({});
      expect(broadcastRooms).toHaveLength(1);
    } finally {
      adapter.broadcast = broadcast;
    }
  });
  it("disconnects a user's sockets when the password changes", async () => {
    const session = await registerTenant(t.app);
    const socket = track(connectClient(baseUrl, session.token, session.tenant.slug));
    await joinTenant(socket, session.tenant.slug, session.token);
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    await t.app.inject({ method: 'PUT', url: '/api/auth/change-password', headers: bearer(session.token), payload: { newPassword: 'Nueva1234' } });
    expect(await disconnected).toBe('io server disconnect');
  });
});

describe('sessions and live connections', () => {
  const login = async (credentials: { email: string; password: string; tenantSlug: string }) =>
    (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: credentials })).json() as { token: string; tenant: { slug: string } };

  it("logout disconnects that session's socket at once: it stops receiving customers' messages; the user's other session keeps them", async () => {
    const owner = await registerTenant(t.app);
    const other = await login({ email: owner.user.email, password: owner.password, tenantSlug: owner.tenant.slug });
    const [loggedOut, stays] = (await Promise.all(
      [owner.token, other.token].map(async (token) => {
        const socket = track(connectClient(baseUrl, token, owner.tenant.slug));
        expect(await joinTenant(socket, owner.tenant.slug, token)).toEqual({ ok: true });
        return socket;
      }),
    )) as [TestSocket, TestSocket];
    const received: unknown[] = [];
    loggedOut.on('message:new', (payload) => received.push(payload));
    const disconnected = new Promise<string>((resolve) => loggedOut.once('disconnect', resolve));

    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(owner.token) })).statusCode).toBe(204);
    expect(await disconnected).toBe('io server disconnect');

    const arrives = nextEvent(stays, 'message:new');
    await t.app.sandboxPhone!.customerSends({
      appName: sandboxAppName(owner.tenant),
      phone: '5215511112222',
      name: 'Cliente',
      kind: 'text',
      text: 'Hola, ¿siguen abiertos?',
    });
    expect((await arrives).message).toMatchObject({ text: 'Hola, ¿siguen abiertos?' });
    expect(received).toEqual([]);
    expect(loggedOut.connected).toBe(false);
  });

  it('refuses the socket of a session that must still change its temporary password, at handshake and at join', async () => {
    const owner = await registerTenant(t.app);
    const agent = await createUser(t.database.db, {
      tenantId: owner.tenant.id,
      name: 'Agente Temporal',
      email: `temporal@${owner.tenant.slug}.test`,
      passwordHash: await hashPassword('TempPass1'),
      role: 'agent',
      forcePasswordChange: true,
    });
    const temporary = await login({ email: agent.email, password: 'TempPass1', tenantSlug: owner.tenant.slug });
    const refused = await connectError(track(connectClient(baseUrl, temporary.token, owner.tenant.slug)));
    expect(refused.message).toBe(PASSWORD_CHANGE_REQUIRED);

    // A socket opened with another session of the company cannot join with the temporary one either.
    const socket = track(connectClient(baseUrl, owner.token, owner.tenant.slug));
    expect(await joinTenant(socket, owner.tenant.slug, temporary.token)).toEqual({ ok: false, message: PASSWORD_CHANGE_REQUIRED });
  });

  it('refuses the socket of an expired session', async () => {
    const owner = await registerTenant(t.app);
    await t.database.db
      .update(sessions)
      .set({ lastUsedAt: new Date(Date.now() - 31 * 86_400_000) })
      .where(eq(sessions.userId, owner.user.id));
    const error = await connectError(track(connectClient(baseUrl, owner.token, owner.tenant.slug)));
    expect(error.message).toBe('Sesión inválida para este tenant.');
  });
});
