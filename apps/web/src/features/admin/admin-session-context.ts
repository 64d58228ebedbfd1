import { createContext } from 'react';
import type { AdminSession } from './admin.api.ts';

export interface AdminSessionApi {
  session: AdminSession | null;
  /** True while a session restored from storage is being verified with the server. */
  verifying: boolean;
  signIn(session: AdminSession): void;
  logout(): Promise<void>;
}

export const AdminSessionContext = createContext<AdminSessionApi | null>(null);
