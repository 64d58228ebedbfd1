import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { RealtimeContext, type AppSocket, type ConnectionStatus, type RealtimeApi } from './realtime-context.ts';
import { afterNextPaint } from './after-next-paint.ts';
import { loadRealtimeClient } from './server-event.ts';

export interface SocketProviderProps {
  token: string;
  tenantSlug: string;
  /** Server address; the page's own origin when omitted. */
  url?: string;
  /** Where the socket's client comes from (a test makes it fail). */
  loadClient?: typeof loadRealtimeClient;
  children: ReactNode;
}

/**
 * One socket per signed-in tenant session (a new token or slug opens a new one).
 * "connected" means the server accepted join_tenant, i.e. events of this tenant will arrive.
 */
export function SocketProvider({ token, tenantSlug, url, loadClient = loadRealtimeClient, children }: SocketProviderProps) {
  const [socket, setSocket] = useState<AppSocket | null>(null);
  const [status, setStatus] = useState<ConnectionStatus>('connecting');

  // Bumped by retry() when the client's code itself failed to load: the effect tries again.
  const [loadAttempt, setLoadAttempt] = useState(0);

  useEffect(() => {
    const credentials = { token, tenantSlug };
    const options = { path: '/socket.io', query: credentials, auth: credentials };
    let opened: AppSocket | null = null;
    let closed = false;
    setStatus('connecting');

    const open = (io: Awaited<ReturnType<typeof loadRealtimeClient>>) => {
      const next: AppSocket = url ? io(url, options) : io(options);
      opened = next;
      setSocket(next);
      next.on('connect', () => {
        next.emit('join_tenant', credentials, (answer) => {
          if (!next.connected) return;
          if (answer?.ok) {
            setStatus('connected');
          } else {
            setStatus('disconnected');
            next.disconnect();
          }
        });
      });
      next.on('joined', () => setStatus('connected'));
      next.on('join_error', () => setStatus('disconnected'));
      next.on('disconnect', () => setStatus(next.active ? 'connecting' : 'disconnected'));
      next.on('connect_error', () => setStatus('disconnected'));
      next.io.on('reconnect_attempt', () => setStatus('connecting'));
    };
    // The client's code (socket.io and every event's contract) is read and evaluated after the page's first frame:
    // loaded as the shell mounted, it held the board's first cards from the screen by 30–130 ms (traced).
    const cancelLoad = afterNextPaint(() => {
      loadClient().then(
        (io) => !closed && open(io),
        () => !closed && setStatus('disconnected'),
      );
    });

    return () => {
      closed = true;
      cancelLoad();
      if (!opened) return;
      opened.removeAllListeners();
      opened.io.removeAllListeners();
      opened.disconnect();
    };
  }, [token, tenantSlug, url, loadClient, loadAttempt]);

  const retry = useCallback(() => {
    if (status !== 'disconnected') return;
    setStatus('connecting');
    if (!socket) {
      setLoadAttempt((attempt) => attempt + 1);
      return;
    }
    if (socket.active) socket.disconnect();
    socket.connect();
  }, [socket, status]);

  const api = useMemo<RealtimeApi>(() => ({ socket, status, retry }), [socket, status, retry]);
  return <RealtimeContext.Provider value={api}>{children}</RealtimeContext.Provider>;
}
