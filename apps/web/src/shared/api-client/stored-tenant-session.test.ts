import { sessionTenant, sessionUser } from '@embudo/contracts/http/auth';
import { readSessionTenant, readSessionUser } from '@embudo/contracts/stored-session';
import { afterEach, describe, expect, it } from 'vitest';
import { readTenantSession } from './stored-tenant-session.ts';

const user = {
  id: 'u1',
  name: 'Ana',
  email: 'ana@empresa.test',
  role: 'agent',
  is_active: true,
  last_login_at: null,
  funnel_access: ['f1', 'f2'],
  force_password_change: false,
};
const tenant = {
  id: 't1',
  name: 'Empresa',
  slug: 'empresa',
  subscription_plan: 'basic',
  trial_ends_at: '2026-12-01T00:00:00.000Z',
  timezone: 'America/Mexico_City',
};

/** Every way to spoil one field: taken out, and each value of another kind. */
function spoiled(valid: Record<string, unknown>) {
  const wrongValues = [undefined, null, 7, true, 'otro', [], ['x', 1], {}];
  return Object.keys(valid).flatMap((key) => wrongValues.map((wrong) => ({ ...valid, [key]: wrong })));
}

const notObjects = [undefined, null, 'texto', 3, true, [user]];

describe('the stored session, read back without zod', () => {
  afterEach(() => localStorage.clear());

  it.each([
    ['user', sessionUser, readSessionUser, user],
    ['tenant', sessionTenant, readSessionTenant, tenant],
  ] as const)('gives the same verdict as the schema of the %s, for valid, spoiled and foreign values', (_, schema, read, valid) => {
    const samples = [valid, { ...valid, extra: 'campo' }, ...spoiled(valid), ...notObjects];
    for (const sample of samples) {
      const parsed = schema.safeParse(sample);
      expect(read(sample), JSON.stringify(sample)).toEqual(parsed.success ? parsed.data : null);
    }
  });

  it('reads the session stored at sign-in, and none when a part is missing or malformed', () => {
    localStorage.setItem('auth_token', 'token');
    localStorage.setItem('auth_user', JSON.stringify(user));
    localStorage.setItem('auth_tenant', JSON.stringify(tenant));
    expect(readTenantSession()).toEqual({ token: 'token', user, tenant });
    localStorage.setItem('auth_tenant', JSON.stringify({ ...tenant, subscription_plan: 'gratis' }));
    expect(readTenantSession()).toBeNull();
    localStorage.setItem('auth_tenant', '{roto');
    expect(readTenantSession()).toBeNull();
  });
});
