import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { onSessionExpired, SESSION_EXPIRED_MESSAGE } from '../../shared/api-client/api-client.ts';
import { ApiError } from '../../shared/api-client/api-error.ts';
import { storageKeys } from '../../shared/api-client/auth-storage.ts';
import { useToast } from '../../shared/ui/use-toast.ts';
import { adminApi, adminKeys, type AdminSession } from './admin.api.ts';
import { clearAdminSession, readAdminSession, writeAdminSession } from './admin-storage.ts';
import { AdminSessionContext, type AdminSessionApi } from './admin-session-context.ts';

/**
 * Holds the platform operator's session (spec 02 §4 Admin auth): restored from local storage on load and
 * verified with GET /api/admin/me; an invalid token logs the operator out to /admin/login.
 */
export function AdminSessionProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [session, setSessionState] = useState<AdminSession | null>(readAdminSession);
  const [restored] = useState(session);
  const restoredToken = restored?.token ?? null;
  const sessionRef = useRef(session);

  const setSession = useCallback((next: AdminSession | null) => {
    sessionRef.current = next;
    if (next) writeAdminSession(next);
    else clearAdminSession();
    setSessionState(next);
  }, []);

  const endLocally = useCallback(() => {
    setSession(null);
    queryClient.removeQueries({ queryKey: adminKeys.all });
  }, [queryClient, setSession]);

  const checking = restoredToken !== null && session?.token === restoredToken;
  const me = useQuery({
    queryKey: adminKeys.me(restoredToken),
    queryFn: () => adminApi.me(),
    enabled: checking,
    staleTime: Infinity,
    retry: false,
  });

  useEffect(() => {
    const current = sessionRef.current;
    if (me.data?.user && current && current === restored) setSession({ ...current, user: me.data.user });
  }, [me.data, restored, setSession]);

  useEffect(() => {
    // A 401 is handled by the API client (it clears storage and goes to /admin/login); any other refusal
    // also means the stored token is no good. Network trouble or a server error keeps the operator in.
    const error = me.error;
    if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) {
      endLocally();
      void navigate('/admin/login', { replace: true });
    }
  }, [me.error, endLocally, navigate]);

  useEffect(
    () =>
      onSessionExpired((scope) => {
        if (scope !== 'admin') return;
        const hadSession = sessionRef.current !== null;
        endLocally();
        if (hadSession) toast.error(SESSION_EXPIRED_MESSAGE);
      }),
    [endLocally, toast],
  );

  // Another tab signed the operator in or out: follow it.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== null && event.key !== storageKeys.adminToken && event.key !== storageKeys.adminUser) return;
      const stored = readAdminSession();
      sessionRef.current = stored;
      setSessionState(stored);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const value = useMemo<AdminSessionApi>(
    () => ({
      session,
      verifying: checking && me.isPending,
      signIn: (next) => {
        queryClient.removeQueries({ queryKey: adminKeys.all });
        setSession(next);
      },
      logout: async () => {
        try {
          await adminApi.logout();
        } catch (error) {
          console.warn('Admin logout request failed', error);
        }
        endLocally();
        void navigate('/admin/login', { replace: true });
      },
    }),
    [session, checking, me.isPending, queryClient, setSession, endLocally, navigate],
  );

  return <AdminSessionContext.Provider value={value}>{children}</AdminSessionContext.Provider>;
}
