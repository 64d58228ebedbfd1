import { Outlet } from 'react-router';
import { useSession } from '../../features/auth/use-session.ts';
import { AppHeader } from '../../features/shell/AppHeader.tsx';
import { LiveSessionUpdates } from '../../features/shell/LiveSessionUpdates.tsx';
import { SocketProvider } from '../../shared/realtime-client/SocketProvider.tsx';

/** The signed-in application: realtime connection, header and the current page. */
export function ShellLayout() {
  const { session } = useSession();
  if (!session) return null;
  return (
    <SocketProvider token={session.token} tenantSlug={session.tenant.slug}>
      <LiveSessionUpdates />
      <div className="flex min-h-screen flex-col bg-slate-50">
        <AppHeader slug={session.tenant.slug} />
        <main className="flex-1">
          <Outlet />
        </main>
      </div>
    </SocketProvider>
  );
}
