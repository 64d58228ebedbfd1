import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { joinTenantPayload, type ClientToServerEvents, type ServerToClientEvents } from '@embudo/contracts/realtime/events';
import type { Logger } from '../logger/logger.ts';
import type { AuthenticatedSession } from '../auth/authenticated-session.ts';
import { PASSWORD_CHANGE_REQUIRED } from '../http/route-access.ts';

interface SocketData {
  session: AuthenticatedSession;
}

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

const tenantRoom = (tenantId: string) => `tenant:${tenantId}`;
const userRoom = (userId: string) => `user:${userId}`;
const sessionRoom = (sessionId: string) => `session:${sessionId}`;
const funnelRoom = (funnelId: string) => `funnel:${funnelId}`;
/** Owners and admins see every funnel, including ones created after they joined. */
const allFunnelsRoom = (tenantId: string) => `tenant:${tenantId}:all-funnels`;
const isFunnelRoom = (room: string) => room.startsWith('funnel:') || room.endsWith(':all-funnels');

/** Which funnels' events a user may receive, read fresh from the database at join and on change. */
export type FunnelAccess = { all: true } | { all: false; funnelIds: readonly string[] };

export const REALTIME_REFUSED = 'Sesión inválida para este tenant.';

type EventArgs<E extends keyof ServerToClientEvents> = Parameters<ServerToClientEvents[E]>;

export interface Realtime {
  io: RealtimeServer;
  /** Tenant-wide events (funnels_updated, batch_updated): every joined member receives them. */
  emitToTenant<E extends keyof ServerToClientEvents>(tenantId: string, event: E, ...args: EventArgs<E>): void;
  /** Events of one funnel's board, cards and messages: only members who may see that funnel receive them. */
  emitToFunnel<E extends keyof ServerToClientEvents>(tenantId: string, funnelId: string, event: E, ...args: EventArgs<E>): void;
  emitToUser<E extends keyof ServerToClientEvents>(userId: string, event: E, ...args: EventArgs<E>): void;
  /** Re-reads a user's funnel access and moves their joined sockets (on any process) to the matching rooms. */
  refreshUserAccess(userId: string): Promise<void>;
  /** Ends the sockets of a user whose sessions were revoked (password change, deactivation). */
  disconnectUser(userId: string): void;
  /** Ends the sockets opened with one session (logout), on every process. */
  disconnectSession(sessionId: string): void;
  /** Live sockets of this process (the admin dashboard sums them across processes later). */
  connectionCount(): number;
  /** Throws unless the Redis adapter's connection answers a PING (readiness); a no-op without Redis. */
  pingRedis(timeoutMs: number): Promise<void>;
  /** Whether the realtime events go through Redis (REDIS_URL). */
  readonly usesRedis: boolean;
  /** Cuts every socket so its client reconnects elsewhere (shutdown); leaves the HTTP server to its owner. */
  close(): Promise<void>;
  /**
   * Closes the Redis connections, once nothing emits any more (shutdown, after the jobs stopped): a job still running
   * when the sockets were cut may announce what it did, and must not find the connection closed.
   */
  closeBroker(): Promise<void>;
}

export function createRealtime(options: {
  httpServer: HttpServer;
  resolveSession: (token: string | undefined) => Promise<AuthenticatedSession | null>;
  funnelAccessOf: (tenantId: string, userId: string) => Promise<FunnelAccess>;
  redisUrl?: string;
  logger: Logger;
  /** Told of every event sent to a room (metrics). */
  onEmit?: (event: string) => void;
}): Realtime {
  const counted = (event: string) => options.onEmit?.(event);
  const io: RealtimeServer = new Server(options.httpServer, { serveClient: false, cors: { origin: false } });
  const redisClients: Redis[] = [];
  if (options.redisUrl) {
    // Auto-pipelining: the events one batch of work announces go to Redis in one write, not one write (and one wake-up
    // of Redis) per event, which cost 7% of a busy ingest process.
    const pub = new Redis(options.redisUrl, { lazyConnect: false, maxRetriesPerRequest: null, enableAutoPipelining: true });
    const sub = pub.duplicate({ enableAutoPipelining: false });
    for (const client of [pub, sub]) client.on('error', (error) => options.logger.warn({ err: error }, 'redis adapter error'));
    redisClients.push(pub, sub);
    io.adapter(createAdapter(pub, sub));
  }

  /** The live session of this token and tenant, or the reason it may not use the socket. */
  const authenticate = async (token: unknown, tenantSlug: unknown): Promise<AuthenticatedSession | { refused: string }> => {
    const payload = joinTenantPayload.safeParse({ token, tenantSlug });
    if (!payload.success) return { refused: REALTIME_REFUSED };
    const session = await options.resolveSession(payload.data.token).catch(() => null);
    if (!session || session.tenant.slug !== payload.data.tenantSlug) return { refused: REALTIME_REFUSED };
    // A temporary password opens nothing but the forced-change screen; customers' messages included.
    if (session.user.forcePasswordChange) return { refused: PASSWORD_CHANGE_REQUIRED };
    return session;
  };

  // The handshake carries token and tenantSlug (query, or auth for clients that prefer it).
  io.use((socket, next) => {
    const { query, auth } = socket.handshake;
    authenticate(auth.token ?? query.token, auth.tenantSlug ?? query.tenantSlug).then((session) => {
      if ('refused' in session) return next(new Error(session.refused));
      socket.data.session = session;
      next();
    }, next);
  });

  const funnelRoomsOf = async (tenantId: string, userId: string) => {
    const access = await options.funnelAccessOf(tenantId, userId);
    return access.all ? [allFunnelsRoom(tenantId)] : access.funnelIds.map(funnelRoom);
  };

  io.on('connection', (socket) => {
    void socket.join([userRoom(socket.data.session.user.id), sessionRoom(socket.data.session.sessionId)]);
    socket.on('join_tenant', async (payload, ack) => {
      const session = await authenticate(payload?.token, payload?.tenantSlug);
      if ('refused' in session || session.tenant.id !== socket.data.session.tenant.id) {
        const message = 'refused' in session ? session.refused : REALTIME_REFUSED;
        ack?.({ ok: false, message });
        socket.emit('join_error', { message });
        socket.disconnect(true);
        return;
      }
      await socket.join([tenantRoom(session.tenant.id), ...(await funnelRoomsOf(session.tenant.id, session.user.id))]);
      ack?.({ ok: true });
      socket.emit('joined', { tenantSlug: session.tenant.slug });
    });
  });

  /**
   * Whether an event for these rooms would reach nobody: none of their sockets is connected here, and no other process
   * shares the rooms (no Redis). Socket.IO encodes an event before it looks for sockets, which on an ingest announcing
   * every message cost more than the rest of the announcement.
   */
  const heardByNobody = (rooms: string[]) => !options.redisUrl && rooms.every((room) => !io.of('/').adapter.rooms.get(room)?.size);
  const emitTo = <E extends keyof ServerToClientEvents>(rooms: string[], event: E, args: EventArgs<E>) => {
    counted(event);
    if (heardByNobody(rooms)) return;
    // A socket in several of the rooms still receives the event once.
    io.to(rooms).emit(event, ...args);
  };

  return {
    io,
    emitToTenant: (tenantId, event, ...args) => emitTo([tenantRoom(tenantId)], event, args),
    emitToFunnel: (tenantId, funnelId, event, ...args) => emitTo([funnelRoom(funnelId), allFunnelsRoom(tenantId)], event, args),
    emitToUser: (userId, event, ...args) => emitTo([userRoom(userId)], event, args),
    refreshUserAccess: async (userId) => {
      const sockets = await io.in(userRoom(userId)).fetchSockets();
      for (const socket of sockets) {
        const tenantId = socket.data.session.tenant.id;
        // Sockets that have not joined their tenant yet get their rooms at join time.
        if (!socket.rooms.has(tenantRoom(tenantId))) continue;
        const wanted = await funnelRoomsOf(tenantId, userId);
        for (const room of socket.rooms) if (isFunnelRoom(room) && !wanted.includes(room)) socket.leave(room);
        socket.join(wanted);
      }
    },
    disconnectUser: (userId) => {
      io.in(userRoom(userId)).disconnectSockets(true);
    },
    disconnectSession: (sessionId) => {
      io.in(sessionRoom(sessionId)).disconnectSockets(true);
    },
    connectionCount: () => io.engine.clientsCount,
    usesRedis: redisClients.length > 0,
    pingRedis: async (timeoutMs) => {
      const [pub] = redisClients;
      if (!pub) return;
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          pub.ping(),
          new Promise((_resolve, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
      } finally {
        clearTimeout(timer);
      }
    },
    close: async () => {
      // Every client's connection is cut (not a "server disconnect", after which socket.io clients stay away), so the
      // browsers reconnect at once, to another process or to this one restarted. The HTTP server is left to Fastify,
      // which stops accepting and lets in-flight requests finish before the database closes.
      // New handshakes are refused from now on (the clients retry with backoff), so nobody reconnects to this process.
      io.engine.opts.allowRequest = (_request, answer) => answer('the server is shutting down', false);
      io.engine.close();
    },
    closeBroker: async () => {
      // Not the adapter's close(): it sends UNSUBSCRIBE without awaiting the answer, and a connection closed before the
      // answer came rejected that promise with nobody to catch it ('Connection is closed.', an unhandled rejection seen
      // in a loaded CI run); QUIT ends the subscriptions anyway. A connection still being made is let finish first
      // (briefly), for the same reason: the adapter subscribed on it without awaiting, and dropping it rejects that.
      // And the events emitted last go out first: the publisher auto-pipelines, sending on the next turn of the event
      // loop, so a QUIT sent now would go before them and Redis would close without answering them.
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.all(
        redisClients.map(async (client) => {
          if (client.status === 'connecting' || client.status === 'connect') await readyWithin(client, REDIS_CLOSE_WAIT_MS);
          // QUIT waits for a connection that may never come (Redis down): a client that is not connected is just dropped.
          if (client.status === 'ready') await client.quit().catch(() => undefined);
          else client.disconnect();
        }),
      );
    },
  };
}

/** How long closing waits for a Redis connection still being made. */
const REDIS_CLOSE_WAIT_MS = 2_000;

function readyWithin(client: Redis, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      client.off('end', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    client.once('ready', done);
    client.once('end', done);
  });
}
