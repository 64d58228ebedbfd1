import { useEffect, useRef } from 'react';
import { useRealtime } from './use-realtime.ts';

/**
 * Runs `onJoin` each time the socket is joined while the component is mounted, except for a join already made when it
 * mounted. Events are not replayed: what the component read before a join (while the socket was still joining at first,
 * or while it was down) may have missed some, so it is read again. A component mounted on a joined socket read after
 * that join, and catches up only on the next.
 */
export function useOnJoin(onJoin: () => void) {
  const { status } = useRealtime();
  const callback = useRef(onJoin);
  useEffect(() => {
    callback.current = onJoin;
  });
  const joinedAtMount = useRef(status === 'connected');
  useEffect(() => {
    if (status !== 'connected') return;
    if (joinedAtMount.current) joinedAtMount.current = false;
    else callback.current();
  }, [status]);
}
