import { replaceEqualDeep, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { onPasswordChangeRequired, onSessionExpired, SESSION_EXPIRED_MESSAGE } from '../../shared/api-client/api-client.ts';
import { ApiError } from '../../shared/api-client/api-error.ts';
import { clearTenantSession, storageKeys, writeTenantSession, type StoredSession } from '../../shared/api-client/auth-storage.ts';
import { readTenantSession } from '../../shared/api-client/stored-tenant-session.ts';
import { useToast } from '../../shared/ui/use-toast.ts';
import { authApi } from './auth.api.ts';
import { SessionContext, type SessionApi } from './session-context.ts';

/** Holds the tenant session: restored from local storage on load, then checked with GET /api/auth/me. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [session, setSessionState] = useState<StoredSession | null>(readTenantSession);
  const [restored] = useState(session);
  const restoredToken = restored?.token ?? null;
  const sessionRef = useRef(session);

  const setSession = useCallback((next: StoredSession | null) => {
    sessionRef.current = next;
    if (next) writeTenantSession(next);
    else clearTenantSession();
    setSessionState(next);
  }, []);

  const endLocally = useCallback(() => {
    setSession(null);
    queryClient.clear();
  }, [queryClient, setSession]);

  // Only the session found in storage at load needs checking; a fresh sign-in is valid by construction.
  const me = useQuery({
    queryKey: ['auth', 'me', restoredToken],
    queryFn: () => authApi.me(),
    enabled: restoredToken !== null && session?.token === restoredToken,
    staleTime: Infinity,
    retry: false,
  });

  useEffect(() => {
    // Refresh the restored session only while nothing newer (a sign-in, a profile edit) replaced it.
    const current = sessionRef.current;
    if (!me.data || !current || current !== restored) return;
    const user = replaceEqualDeep(current.user, me.data.user);
    const tenant = replaceEqualDeep(current.tenant, me.data.tenant);
    // Nearly always nothing changed: keeping the same session spares every screen a render (the board and all its
    // cards, often right as it first paints).
    if (user === current.user && tenant === current.tenant) return;
    setSession({ ...current, user, tenant });
  }, [me.data, restored, setSession]);

  useEffect(() => {
    // 401 is handled by the API client; other refusals also mean the stored session is no good.
    // Network trouble or a server error does not sign anyone out.
    const error = me.error;
    if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) {
      endLocally();
      void navigate('/login', { replace: true });
    }
  }, [me.error, endLocally, navigate]);

  useEffect(
    () =>
      onSessionExpired((scope) => {
        if (scope !== 'tenant') return;
        const hadSession = sessionRef.current !== null;
        endLocally();
        if (hadSession) toast.error(SESSION_EXPIRED_MESSAGE);
      }),
    [endLocally, toast],
  );

  useEffect(
    () =>
      onPasswordChangeRequired(() => {
        const current = sessionRef.current;
        if (current && !current.user.force_password_change) setSession({ ...current, user: { ...current.user, force_password_change: true } });
      }),
    [setSession],
  );

  // Another tab signed in or out: follow it.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== null && event.key !== storageKeys.token && event.key !== storageKeys.user && event.key !== storageKeys.tenant) return;
      const stored = readTenantSession();
      sessionRef.current = stored;
      setSessionState(stored);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const api = useMemo<SessionApi>(
    () => ({
      session,
      signIn: ({ token, user, tenant }) => {
        queryClient.clear();
        setSession({ token, user, tenant });
      },
      updateUser: (user) => {
        const current = sessionRef.current;
        if (current) setSession({ ...current, user });
      },
      replaceToken: (token, user) => {
        const current = sessionRef.current;
        if (current) setSession({ ...current, token, user });
      },
      logout: async () => {
        try {
          await authApi.logout();
        } catch (error) {
          console.warn('Logout request failed', error);
        }
        endLocally();
        void navigate('/login');
      },
    }),
    [session, queryClient, setSession, endLocally, navigate],
  );

  return <SessionContext.Provider value={api}>{children}</SessionContext.Provider>;
}
