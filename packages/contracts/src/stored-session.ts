import type { SessionTenant, SessionUser } from './http/auth.ts';

/**
 * The stored session's parts read back from local storage, checked by hand: free of zod, whose core (56 KB) was the
 * largest script of the board's first paint only for this check. http/auth.ts keeps the schemas, which the server
 * and the sign-in answers use; a web test holds the two to the same verdicts.
 */

export const roles = ['owner', 'admin', 'agent', 'viewer'] as const;
export const plans = ['basic', 'professional', 'enterprise'] as const;

type Check = (value: unknown) => boolean;
const isString: Check = (value) => typeof value === 'string';
const isStringOrNull: Check = (value) => value === null || typeof value === 'string';
const isBoolean: Check = (value) => typeof value === 'boolean';
const isOneOf =
  (options: readonly string[]): Check =>
  (value) =>
    typeof value === 'string' && options.includes(value);
const isStringList: Check = (value) => Array.isArray(value) && value.every(isString);

/** The fields of `shape` taken from `value` when each passes its check (other fields are left out), else null. */
function pick<T>(value: unknown, shape: Record<keyof T, Check>): T | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const source = value as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const [key, check] of Object.entries<Check>(shape)) {
    if (!check(source[key])) return null;
    picked[key] = source[key];
  }
  return picked as T;
}

const userShape: Record<keyof SessionUser, Check> = {
  id: isString,
  name: isString,
  email: isString,
  role: isOneOf(roles),
  is_active: isBoolean,
  last_login_at: isStringOrNull,
  funnel_access: isStringList,
  force_password_change: isBoolean,
};

const tenantShape: Record<keyof SessionTenant, Check> = {
  id: isString,
  name: isString,
  slug: isString,
  subscription_plan: isOneOf(plans),
  trial_ends_at: isStringOrNull,
  timezone: isString,
};

export const readSessionUser = (value: unknown) => pick<SessionUser>(value, userShape);
export const readSessionTenant = (value: unknown) => pick<SessionTenant>(value, tenantShape);
