import { readSessionTenant, readSessionUser } from '@embudo/contracts/stored-session';
import { readStoredJson, storageKeys, type StoredSession } from './auth-storage.ts';

/** The stored tenant session, or null when any part is missing or malformed. */
export function readTenantSession(): StoredSession | null {
  const token = localStorage.getItem(storageKeys.token);
  const user = readSessionUser(readStoredJson(storageKeys.user));
  const tenant = readSessionTenant(readStoredJson(storageKeys.tenant));
  if (!token || !user || !tenant) return null;
  return { token, user, tenant };
}
