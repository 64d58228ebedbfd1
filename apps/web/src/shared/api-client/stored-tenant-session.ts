import { sessionTenant, sessionUser } from '@embudo/contracts/http/session';
import { readStoredJson, storageKeys, type StoredSession } from './auth-storage.ts';

/** The stored tenant session, or null when any part is missing or malformed. */
export function readTenantSession(): StoredSession | null {
  const token = localStorage.getItem(storageKeys.token);
  const user = sessionUser.safeParse(readStoredJson(storageKeys.user));
  const tenant = sessionTenant.safeParse(readStoredJson(storageKeys.tenant));
  if (!token || !user.success || !tenant.success) return null;
  return { token, user: user.data, tenant: tenant.data };
}
