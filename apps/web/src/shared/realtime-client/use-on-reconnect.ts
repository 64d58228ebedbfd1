import { useEffect, useRef } from 'react';
import { useRealtime } from './use-realtime.ts';

/**
 * Runs `onReconnect` each time the socket is joined again after having been joined: events missed while the
 * connection was down are not replayed, so what they would have changed is read again.
 */
export function useOnReconnect(onReconnect: () => void) {
  const { status } = useRealtime();
  const callback = useRef(onReconnect);
  useEffect(() => {
    callback.current = onReconnect;
  });
  const wasConnected = useRef(false);
  useEffect(() => {
    if (status !== 'connected') return;
    if (wasConnected.current) callback.current();
    wasConnected.current = true;
  }, [status]);
}
