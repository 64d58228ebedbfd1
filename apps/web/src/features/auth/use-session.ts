import { useContext } from 'react';
import { SessionContext, type SessionApi } from './session-context.ts';

export function useSession(): SessionApi {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}
