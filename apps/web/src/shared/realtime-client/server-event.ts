import type { ServerEventName, ServerEventPayload, serverEvents as ServerEventContracts } from '@embudo/contracts/realtime/events';
import type { io as OpenSocket } from 'socket.io-client';

let contracts: typeof ServerEventContracts | undefined;

/**
 * Loads the socket's client and the contracts its events are checked against, together and on demand: building every
 * event's schema and evaluating socket.io with the shell's code held the board's first paint. SocketProvider opens
 * the socket once both are here, so no event arrives before its contract.
 */
export async function loadRealtimeClient(): Promise<typeof OpenSocket> {
  const [client, events] = await Promise.all([import('socket.io-client'), import('@embudo/contracts/realtime/events')]);
  contracts = events.serverEvents;
  return client.io;
}

/**
 * A server event's payload checked against its contract, or undefined: a payload that does not match is
 * dropped (with a warning while developing) rather than half-applied to the screen.
 */
export function readServerEvent<E extends ServerEventName>(event: E, payload: unknown): ServerEventPayload<E> | undefined {
  if (!contracts) throw new Error('Server events are read only from a socket opened by loadRealtimeClient.');
  const checked = contracts[event].safeParse(payload);
  // The schema indexed by a generic event name is a union to TypeScript; it is the schema of `event`.
  if (checked.success) return checked.data as ServerEventPayload<E>;
  // `env` is undefined outside Vite (the bench runs the board's realtime under Node).
  if (import.meta.env?.DEV) console.warn(`Evento "${event}" ignorado: no coincide con su contrato.`, checked.error.issues);
  return undefined;
}
