import { clearAdminSession, storageKeys } from '../../shared/api-client/auth-storage.ts';
import type { AdminSession } from './admin.api.ts';

/** The stored operator session (admin_auth_token, admin_user), or null when missing or malformed. */
export function readAdminSession(): AdminSession | null {
  const token = localStorage.getItem(storageKeys.adminToken);
  const raw = localStorage.getItem(storageKeys.adminUser);
  if (!token || !raw) return null;
  try {
    const user: unknown = JSON.parse(raw);
    if (user && typeof user === 'object' && 'id' in user && 'email' in user && 'name' in user) {
      const { id, email, name } = user;
      if (typeof id === 'string' && typeof email === 'string' && typeof name === 'string') return { token, user: { id, email, name } };
    }
  } catch {
    // fall through: a malformed entry counts as no session
  }
  return null;
}

export function writeAdminSession(session: AdminSession) {
  localStorage.setItem(storageKeys.adminToken, session.token);
  localStorage.setItem(storageKeys.adminUser, JSON.stringify(session.user));
}

export { clearAdminSession };
