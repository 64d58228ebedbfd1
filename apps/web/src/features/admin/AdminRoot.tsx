import { Outlet } from 'react-router';
import { AdminSessionProvider } from './AdminSessionProvider.tsx';

/** Root of /admin/*: the operator session is separate from any tenant session. */
export function AdminRoot() {
  return (
    <AdminSessionProvider>
      <Outlet />
    </AdminSessionProvider>
  );
}
