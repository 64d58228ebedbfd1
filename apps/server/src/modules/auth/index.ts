/**
 * The auth module's public face: the only file that other modules, app.ts and other modules' tests import
 * (docs/decisions/0012-module-boundaries.md). Sign-in, sessions, throttling and registration. Imports users, funnels
 * and tenants.
 */
export { authPlugin } from './auth.plugin.ts';
export { register, resolveSession, revokeAllSessions } from './auth.service.ts';
export {
  accountThrottled,
  claimSignInAttempt,
  defaultThrottleLimits,
  signInFailed,
  signInSucceeded,
  throttleKeys,
  type ThrottleLimits,
} from './login-throttle.ts';
export {
  daysToSessionLifetime,
  defaultSessionLifetime,
  lastUsedStaleBefore,
  sessionExpired,
  type SessionLifetime,
  type SessionPolicy,
} from './session-lifetime.ts';
