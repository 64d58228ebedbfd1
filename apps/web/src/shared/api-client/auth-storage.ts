import { sessionTenant, sessionUser, type SessionTenant, type SessionUser } from '@embudo/contracts/http/auth';

/** Local-storage keys of spec 01 §9. */
export const storageKeys = {
  token: 'auth_token',
  user: 'auth_user',
  tenant: 'auth_tenant',
  adminToken: 'admin_auth_token',
  adminUser: 'admin_user',
} as const;

export interface StoredSession {
  token: string;
  user: SessionUser;
  tenant: SessionTenant;
}

function readJson(key: string): unknown {
  const raw = localStorage.getItem(key);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** The stored tenant session, or null when any part is missing or malformed. */
export function readTenantSession(): StoredSession | null {
  const token = localStorage.getItem(storageKeys.token);
  const user = sessionUser.safeParse(readJson(storageKeys.user));
  const tenant = sessionTenant.safeParse(readJson(storageKeys.tenant));
  if (!token || !user.success || !tenant.success) return null;
  return { token, user: user.data, tenant: tenant.data };
}

export function writeTenantSession(session: StoredSession) {
  localStorage.setItem(storageKeys.token, session.token);
  localStorage.setItem(storageKeys.user, JSON.stringify(session.user));
  localStorage.setItem(storageKeys.tenant, JSON.stringify(session.tenant));
}

export function clearTenantSession() {
  localStorage.removeItem(storageKeys.token);
  localStorage.removeItem(storageKeys.user);
  localStorage.removeItem(storageKeys.tenant);
}

export function clearAdminSession() {
  localStorage.removeItem(storageKeys.adminToken);
  localStorage.removeItem(storageKeys.adminUser);
}

/** Slug of the stored tenant, used to scope tenant calls under /t/{slug}. */
export function readStoredTenantSlug(): string | null {
  const tenant = readJson(storageKeys.tenant);
  if (tenant && typeof tenant === 'object' && 'slug' in tenant && typeof tenant.slug === 'string') return tenant.slug;
  return null;
}
