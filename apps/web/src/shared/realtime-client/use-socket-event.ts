import { useEffect, useRef } from 'react';
import type { ServerEventName, ServerToClientEvents } from '@embudo/contracts/realtime/events';
import { useRealtime } from './use-realtime.ts';

/** Runs `handler` on every `event` from the server while the component is mounted. */
export function useSocketEvent<E extends ServerEventName>(event: E, handler: ServerToClientEvents[E]) {
  const { socket } = useRealtime();
  const handlerRef = useRef(handler);
  useEffect(() => {
    handlerRef.current = handler;
  });

  useEffect(() => {
    if (!socket) return;
    const listener = ((...args: Parameters<ServerToClientEvents[E]>) =>
      (handlerRef.current as (...a: Parameters<ServerToClientEvents[E]>) => void)(...args)) as ServerToClientEvents[E];
    // socket.io's typed `on` cannot relate a generic event name to its listener; the map above keeps callers typed.
    (socket as unknown as { on(e: string, l: unknown): void }).on(event, listener);
    return () => {
      (socket as unknown as { off(e: string, l: unknown): void }).off(event, listener);
    };
  }, [socket, event]);
}
