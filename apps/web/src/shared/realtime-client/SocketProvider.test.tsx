import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Server } from 'socket.io';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClientToServerEvents, ServerToClientEvents } from '@embudo/contracts/realtime/events';
import { loadRealtimeClient } from './server-event.ts';
import { SocketProvider } from './SocketProvider.tsx';
import { useRealtime } from './use-realtime.ts';
import { useSocketEvent } from './use-socket-event.ts';
import { useRealSockets } from '../../test/fake-socket.ts';

useRealSockets();

// A real socket.io server on a random local port stands in for the Embudo server's realtime endpoint.
let httpServer: HttpServer;
let io: Server<ClientToServerEvents, ServerToClientEvents>;
let url: string;
let acceptedToken = 'good-token';

beforeEach(async () => {
  acceptedToken = 'good-token';
  httpServer = createServer();
  io = new Server(httpServer, { cors: { origin: true } });
  io.use((socket, next) => {
    const { token, tenantSlug } = socket.handshake.auth as Record<string, string>;
    if (token === acceptedToken && tenantSlug === 'acme') next();
    else next(new Error('Sesión inválida para este tenant.'));
  });
  io.on('connection', (socket) => {
    socket.on('join_tenant', (payload, ack) => {
      if (payload.token !== acceptedToken) {
        ack?.({ ok: false, message: 'no' });
        return;
      }
      void socket.join('tenant');
      ack?.({ ok: true });
      socket.emit('joined', { tenantSlug: payload.tenantSlug });
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await io.close();
});

function Status() {
  const { status, retry } = useRealtime();
  return (
    <button type="button" data-testid="status" data-status={status} onClick={retry}>
      {status}
    </button>
  );
}

function FunnelEvents() {
  useSocketEvent('funnels_updated', () => {
    document.body.dataset.funnelsUpdated = 'yes';
  });
  return null;
}

const status = () => screen.getByTestId('status').getAttribute('data-status');

describe('SocketProvider', () => {
  it('starts connecting and is connected once the server accepts join_tenant', async () => {
    render(
      <SocketProvider token="good-token" tenantSlug="acme" url={url}>
        <Status />
      </SocketProvider>,
    );
    expect(status()).toBe('connecting');
    await waitFor(() => expect(status()).toBe('connected'), { timeout: 5000 });
  });

  it('delivers server events to subscribers', async () => {
    render(
      <SocketProvider token="good-token" tenantSlug="acme" url={url}>
        <Status />
        <FunnelEvents />
      </SocketProvider>,
    );
    await waitFor(() => expect(status()).toBe('connected'), { timeout: 5000 });
    io.to('tenant').emit('funnels_updated', {});
    await waitFor(() => expect(document.body.dataset.funnelsUpdated).toBe('yes'), { timeout: 5000 });
  });

  it('is disconnected when the server refuses the token, and retry connects again', async () => {
    acceptedToken = 'another-token';
    render(
      <SocketProvider token="good-token" tenantSlug="acme" url={url}>
        <Status />
      </SocketProvider>,
    );
    await waitFor(() => expect(status()).toBe('disconnected'), { timeout: 5000 });

    acceptedToken = 'good-token';
    fireEvent.click(screen.getByTestId('status'));
    expect(status()).toBe('connecting');
    await waitFor(() => expect(status()).toBe('connected'), { timeout: 5000 });
  });

  it('ignores retry while connected', async () => {
    render(
      <SocketProvider token="good-token" tenantSlug="acme" url={url}>
        <Status />
      </SocketProvider>,
    );
    await waitFor(() => expect(status()).toBe('connected'), { timeout: 5000 });
    fireEvent.click(screen.getByTestId('status'));
    expect(status()).toBe('connected');
  });

  it('is disconnected when the server drops the connection', async () => {
    render(
      <SocketProvider token="good-token" tenantSlug="acme" url={url}>
        <Status />
      </SocketProvider>,
    );
    await waitFor(() => expect(status()).toBe('connected'), { timeout: 5000 });
    io.disconnectSockets(true);
    await waitFor(() => expect(status()).toBe('disconnected'), { timeout: 5000 });
  });

  it("opens no socket while the client's code is loading, is disconnected when it cannot load, and retry loads it again", async () => {
    let loads = 0;
    let finishLoading: () => void = () => undefined;
    const flakyLoad = () => {
      loads += 1;
      if (loads === 1) return Promise.reject(new Error('chunk failed'));
      return new Promise<Awaited<ReturnType<typeof loadRealtimeClient>>>((resolve) => (finishLoading = () => void loadRealtimeClient().then(resolve)));
    };
    render(
      <SocketProvider token="good-token" tenantSlug="acme" url={url} loadClient={flakyLoad}>
        <Status />
      </SocketProvider>,
    );
    await waitFor(() => expect(status()).toBe('disconnected'), { timeout: 5000 });

    fireEvent.click(screen.getByTestId('status'));
    expect(status()).toBe('connecting');
    await waitFor(() => expect(loads).toBe(2));
    expect(io.sockets.sockets.size).toBe(0);
    finishLoading();
    await waitFor(() => expect(status()).toBe('connected'), { timeout: 5000 });
  });
});
