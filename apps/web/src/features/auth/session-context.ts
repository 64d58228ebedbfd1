import { createContext } from 'react';
import type { SessionResponse, SessionUser } from '@embudo/contracts/http/auth';
import type { StoredSession } from '../../shared/api-client/auth-storage.ts';

export interface SessionApi {
  /** The signed-in tenant session, or null. */
  session: StoredSession | null;
  /** Stores the session answered by login or register. */
  signIn(session: SessionResponse): void;
  /** Replaces the stored user (e.g. after a profile change). */
  updateUser(user: SessionUser): void;
  /** After a password change the server revokes every session and hands out a fresh token. */
  replaceToken(token: string, user: SessionUser): void;
  /** Ends the session on the server (failure only logged), clears it here and goes to /login. */
  logout(): Promise<void>;
}

export const SessionContext = createContext<SessionApi | null>(null);
