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
      {/* The window's height, split between the header (whatever rows it needs) and the page, so
          full-height pages such as the board keep the chat composer on screen. */}
      <div className="flex h-dvh flex-col bg-slate-50">
        <AppHeader slug={session.tenant.slug} />
        <main className="min-h-0 flex-1 overflow-y-auto">
          <Outlet />
        </main>
      </div>
    </SocketProvider>
  );
}
