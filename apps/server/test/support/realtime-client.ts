import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { serverEvents, type ClientToServerEvents, type JoinTenantAck, type ServerToClientEvents } from '@embudo/contracts/realtime/events';
import type { App } from '../../src/app.ts';

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export async function listenOnRandomPort(app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** Connects as the web client does: query token and tenantSlug, then join_tenant. */
export function connectClient(baseUrl: string, token: string, tenantSlug: string): TestSocket {
  return connect(baseUrl, { query: { token, tenantSlug }, transports: ['websocket'], reconnection: false, forceNew: true });
}

export function joinTenant(socket: TestSocket, tenantSlug: string, token: string): Promise<JoinTenantAck> {
  return new Promise((resolve, reject) => {
    const onConnect = () => socket.emit('join_tenant', { tenantSlug, token }, resolve);
    if (socket.connected) onConnect();
    else socket.once('connect', onConnect);
    socket.once('connect_error', reject);
  });
}

export function connectError(socket: TestSocket): Promise<Error> {
  return new Promise((resolve, reject) => {
    socket.once('connect_error', resolve);
    socket.once('connect', () => reject(new Error('connected although it should have been refused')));
  });
}

/** The next `event`, as sent; it fails when the payload does not match the event's schema in the contracts. */
export function nextEvent<E extends keyof ServerToClientEvents>(socket: TestSocket, event: E, timeoutMs = 5000) {
  return new Promise<Parameters<ServerToClientEvents[E]>[0]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${String(event)} within ${timeoutMs} ms`)), timeoutMs);
    (socket as unknown as { once(name: string, fn: (payload: unknown) => void): void }).once(String(event), (payload) => {
      clearTimeout(timer);
      const checked = serverEvents[event].safeParse(payload);
      if (checked.success) resolve(payload as Parameters<ServerToClientEvents[E]>[0]);
      else reject(new Error(`${String(event)} does not match its schema: ${checked.error.message}`));
    });
  });
}
