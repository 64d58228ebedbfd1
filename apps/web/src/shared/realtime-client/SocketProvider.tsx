import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { io } from 'socket.io-client';
import { RealtimeContext, type AppSocket, type ConnectionStatus, type RealtimeApi } from './realtime-context.ts';

export interface SocketProviderProps {
  token: string;
  tenantSlug: string;
  /** Server address; the page's own origin when omitted. */
  url?: string;
  children: ReactNode;
}

/**
 * One socket per signed-in tenant session (a new token or slug opens a new one).
 * "connected" means the server accepted join_tenant, i.e. events of this tenant will arrive.
 */
export function SocketProvider({ token, tenantSlug, url, children }: SocketProviderProps) {
  const [socket, setSocket] = useState<AppSocket | null>(null);
  const [status, setStatus] = useState<ConnectionStatus>('connecting');

  useEffect(() => {
    const credentials = { token, tenantSlug };
    const options = { path: '/socket.io', query: credentials, auth: credentials };
    const next: AppSocket = url ? io(url, options) : io(options);
    setSocket(next);
    setStatus('connecting');

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

    return () => {
      next.removeAllListeners();
      next.io.removeAllListeners();
      next.disconnect();
    };
  }, [token, tenantSlug, url]);

  const retry = useCallback(() => {
    if (!socket || status !== 'disconnected') return;
    setStatus('connecting');
    if (socket.active) socket.disconnect();
    socket.connect();
  }, [socket, status]);

  const api = useMemo<RealtimeApi>(() => ({ socket, status, retry }), [socket, status, retry]);
  return <RealtimeContext.Provider value={api}>{children}</RealtimeContext.Provider>;
}
