// No schema here: the board's early reads (board-preload.ts) run this before the main bundle, which brings zod.
import type { SessionTenant, SessionUser } from '@embudo/contracts/http/auth';

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

export function readStoredJson(key: string): unknown {
  const raw = localStorage.getItem(key);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
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
  const tenant = readStoredJson(storageKeys.tenant);
  if (tenant && typeof tenant === 'object' && 'slug' in tenant && typeof tenant.slug === 'string') return tenant.slug;
  return null;
}
