import { useEffect, useRef } from 'react';
import type { ServerEventName, ServerEventPayload } from '@embudo/contracts/realtime/events';
import { readServerEvent } from './server-event.ts';
import { useRealtime } from './use-realtime.ts';

type UntypedSocket = { on(event: string, listener: (payload: unknown) => void): void; off(event: string, listener: (payload: unknown) => void): void };

/** Runs `handler` on every `event` from the server while the component is mounted, with its payload checked. */
export function useSocketEvent<E extends ServerEventName>(event: E, handler: (payload: ServerEventPayload<E>) => void) {
  const { socket } = useRealtime();
  const handlerRef = useRef(handler);
  useEffect(() => {
    handlerRef.current = handler;
  });

  useEffect(() => {
    if (!socket) return;
    const listener = (payload: unknown) => {
      const checked = readServerEvent(event, payload);
      if (checked !== undefined) handlerRef.current(checked);
    };
    // socket.io's typed `on` cannot relate a generic event name to its listener; readServerEvent types the payload.
    const untyped = socket as unknown as UntypedSocket;
    untyped.on(event, listener);
    return () => untyped.off(event, listener);
  }, [socket, event]);
}
