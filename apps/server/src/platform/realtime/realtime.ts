import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import type { ClientToServerEvents, ServerToClientEvents } from '@embudo/contracts/realtime/events';
import type { Logger } from '../logger/logger.ts';
import type { AuthenticatedSession } from '../../modules/auth/auth.service.ts';

interface SocketData {
  session: AuthenticatedSession;
}

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

const tenantRoom = (tenantId: string) => `tenant:${tenantId}`;
const userRoom = (userId: string) => `user:${userId}`;

export const REALTIME_REFUSED = 'Sesión inválida para este tenant.';

export interface Realtime {
  io: RealtimeServer;
  emitToTenant<E extends keyof ServerToClientEvents>(tenantId: string, event: E, ...args: Parameters<ServerToClientEvents[E]>): void;
  /** Ends the sockets of a user whose sessions were revoked (password change, deactivation). */
  disconnectUser(userId: string): void;
  /** Live sockets of this process (the admin dashboard sums them across processes later). */
  connectionCount(): number;
  close(): Promise<void>;
}

function readHandshake(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

export function createRealtime(options: {
  httpServer: HttpServer;
  resolveSession: (token: string | undefined) => Promise<AuthenticatedSession | null>;
  redisUrl?: string;
  logger: Logger;
}): Realtime {
  const io: RealtimeServer = new Server(options.httpServer, { serveClient: false, cors: { origin: false } });
  const redisClients: Redis[] = [];
  if (options.redisUrl) {
    const pub = new Redis(options.redisUrl, { lazyConnect: false, maxRetriesPerRequest: null });
    const sub = pub.duplicate();
    for (const client of [pub, sub]) client.on('error', (error) => options.logger.warn({ err: error }, 'redis adapter error'));
    redisClients.push(pub, sub);
    io.adapter(createAdapter(pub, sub));
  }

  const authenticate = async (token: unknown, tenantSlug: unknown) => {
    const session = await options.resolveSession(readHandshake(token));
    return session && session.tenant.slug === readHandshake(tenantSlug) ? session : null;
  };

  // The handshake carries token and tenantSlug (query, or auth for clients that prefer it).
  io.use(async (socket, next) => {
    const { query, auth } = socket.handshake;
    const session = await authenticate(auth.token ?? query.token, auth.tenantSlug ?? query.tenantSlug).catch(() => null);
    if (!session) return next(new Error(REALTIME_REFUSED));
    socket.data.session = session;
    next();
  });

  io.on('connection', (socket) => {
    void socket.join(userRoom(socket.data.session.user.id));
    socket.on('join_tenant', async (payload, ack) => {
      const session = await authenticate(payload?.token, payload?.tenantSlug).catch(() => null);
      if (!session || session.tenant.id !== socket.data.session.tenant.id) {
        ack?.({ ok: false, message: REALTIME_REFUSED });
        socket.emit('join_error', { message: REALTIME_REFUSED });
        socket.disconnect(true);
        return;
      }
      await socket.join(tenantRoom(session.tenant.id));
      ack?.({ ok: true });
      socket.emit('joined', { tenantSlug: session.tenant.slug });
    });
  });

  return {
    io,
    emitToTenant: (tenantId, event, ...args) => {
      io.to(tenantRoom(tenantId)).emit(event, ...args);
    },
    disconnectUser: (userId) => {
      io.in(userRoom(userId)).disconnectSockets(true);
    },
    connectionCount: () => io.engine.clientsCount,
    close: async () => {
      await io.close();
      await Promise.all(redisClients.map((client) => client.quit().catch(() => undefined)));
    },
  };
}
