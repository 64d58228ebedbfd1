import type { SessionTenant, SessionUser } from '@embudo/contracts/http/auth';

export function aUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    name: 'Ana María',
    email: 'ana@acme.test',
    role: 'owner',
    is_active: true,
    last_login_at: null,
    funnel_access: [],
    force_password_change: false,
    ...overrides,
  };
}

export function aTenant(overrides: Partial<SessionTenant> = {}): SessionTenant {
  return {
    id: '22222222-2222-4222-8222-222222222222',
    name: 'Acme',
    slug: 'acme',
    subscription_plan: 'basic',
    trial_ends_at: null,
    timezone: 'America/Mexico_City',
    ...overrides,
  };
}

/** Puts a signed-in session in local storage, as a previous visit would have left it. */
export function storeSession(user: SessionUser = aUser(), tenant: SessionTenant = aTenant(), token = 'stored-token') {
  localStorage.setItem('auth_token', token);
  localStorage.setItem('auth_user', JSON.stringify(user));
  localStorage.setItem('auth_tenant', JSON.stringify(tenant));
  return { token, user, tenant };
}
