import { createContext } from 'react';
import type { Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@embudo/contracts/realtime/events';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Spec 01 §4: the states the shell's connection button shows. */
export type ConnectionStatus = 'connected' | 'connecting' | 'disconnected';

export interface RealtimeApi {
  socket: AppSocket | null;
  status: ConnectionStatus;
  /** Reconnects, but only when disconnected. */
  retry(): void;
}

export const RealtimeContext = createContext<RealtimeApi | null>(null);
