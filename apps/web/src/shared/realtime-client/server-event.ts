import { serverEvents, type ServerEventName, type ServerEventPayload } from '@embudo/contracts/realtime/events';

/**
 * A server event's payload checked against its contract, or undefined: a payload that does not match is
 * dropped (with a warning while developing) rather than half-applied to the screen.
 */
export function readServerEvent<E extends ServerEventName>(event: E, payload: unknown): ServerEventPayload<E> | undefined {
  const checked = serverEvents[event].safeParse(payload);
  // The schema indexed by a generic event name is a union to TypeScript; it is the schema of `event`.
  if (checked.success) return checked.data as ServerEventPayload<E>;
  // `env` is undefined outside Vite (the bench runs the board's realtime under Node).
  if (import.meta.env?.DEV) console.warn(`Evento "${event}" ignorado: no coincide con su contrato.`, checked.error.issues);
  return undefined;
}
