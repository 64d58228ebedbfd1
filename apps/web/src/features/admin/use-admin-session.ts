import { useContext } from 'react';
import { AdminSessionContext, type AdminSessionApi } from './admin-session-context.ts';

export function useAdminSession(): AdminSessionApi {
  const value = useContext(AdminSessionContext);
  if (!value) throw new Error('useAdminSession must be used inside <AdminSessionProvider>');
  return value;
}
