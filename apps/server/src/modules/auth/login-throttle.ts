import { eq, lte, sql, type SQL } from 'drizzle-orm';
import { signInThrottle } from '../../../db/schema/index.ts';
import { queryRows, type DbExecutor } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors/app-error.ts';

/**
 * Sign-in throttling (docs/decisions/0010). Every attempt claims a slot on its account and on its client
 * address BEFORE the password is verified, in one atomic statement per key, so concurrent guesses cannot
 * test more passwords than the limits allow. A right password gives its claims back.
 *
 * - Per account: a few free failures, then a growing delay between attempts (doubling, capped well under a
 *   minute). Nobody is locked out: the right password signs in as soon as the current delay has passed.
 * - Per address (the attacker's): a hard limit of failures, then refused until the window has passed.
 * The state lives in the database so every app process shares it.
 */
export interface ThrottleLimits {
  /** A key's count starts again after this long without a failure; also how long a blocked address waits. */
  windowMs: number;
  /** Failed sign-ins one client address may make in the window. */
  perAddress: number;
  /** Failures of one account answered without delay. */
  freeAccountFailures: number;
  /** Delay after the last free failure; it doubles with every further failure. */
  accountDelayBaseMs: number;
  /** The longest an account ever waits between two attempts. */
  accountDelayCapMs: number;
}

export const defaultThrottleLimits: ThrottleLimits = {
  windowMs: 15 * 60 * 1000,
  perAddress: 20,
  freeAccountFailures: 3,
  accountDelayBaseMs: 2_000,
  accountDelayCapMs: 30_000,
};

export interface ThrottleKeys {
  account: string;
  address: string;
}

export function throttleKeys(kind: 'tenant' | 'admin', account: string, address: string): ThrottleKeys {
  return { account: `${kind}:account:${account.toLowerCase()}`, address: `${kind}:address:${address}` };
}

/** How long a key waits after its n-th claimed failure: nothing for the first `free`, then base·2^k up to cap. */
interface DelayCurve {
  free: number;
  baseMs: number;
  capMs: number;
}

const accountCurve = (limits: ThrottleLimits): DelayCurve => ({
  free: limits.freeAccountFailures,
  baseMs: limits.accountDelayBaseMs,
  capMs: limits.accountDelayCapMs,
});
// The address's last allowed failure closes it for a whole window.
const addressCurve = (limits: ThrottleLimits): DelayCurve => ({ free: limits.perAddress, baseMs: limits.windowMs, capMs: limits.windowMs });

// The exponent is bounded so a key attacked for days never overflows the arithmetic.
const delayMsSql = (failures: SQL, curve: DelayCurve) => sql`(case when ${failures} < ${curve.free} then 0
  else least(${curve.capMs}::float8, ${curve.baseMs}::float8 * power(2, least(${failures} - ${curve.free}, 40))) end)`;

const timestamp = (date: Date) => sql`${date.toISOString()}::timestamptz`;
const plusMs = (at: SQL, ms: SQL) => sql`${at} + (${ms}) * interval '1 millisecond'`;

/** Claims one attempt on a key; answers whether it may be verified now. */
async function claim(executor: DbExecutor, key: string, curve: DelayCurve, limits: ThrottleLimits, now: Date): Promise<boolean> {
  const windowStart = new Date(now.getTime() - limits.windowMs);
  const counted = sql`(case when t.last_failure_at <= ${timestamp(windowStart)} then 1 else t.failures + 1 end)`;
  const rows = await queryRows<{ failures: number }>(
    executor,
    sql`
    insert into sign_in_throttle as t (key, failures, last_failure_at, next_attempt_at)
    values (${key}, 1, ${timestamp(now)}, ${plusMs(timestamp(now), delayMsSql(sql`1`, curve))})
    on conflict (key) do update set
      failures = ${counted},
      last_failure_at = ${timestamp(now)},
      next_attempt_at = ${plusMs(timestamp(now), delayMsSql(counted, curve))}
    where t.next_attempt_at <= ${timestamp(now)}
    returning t.failures`,
  );
  return rows.length > 0;
}

/** Gives back one claim whose password turned out right (or that another key refused). */
async function release(executor: DbExecutor, key: string, curve: DelayCurve) {
  const remaining = sql`(t.failures - 1)`;
  await executor.execute(sql`
    update sign_in_throttle as t set failures = ${remaining}, next_attempt_at = ${plusMs(sql`t.last_failure_at`, delayMsSql(remaining, curve))}
    where t.key = ${key} and t.failures > 0`);
}

async function waitMs(executor: DbExecutor, key: string, now: Date): Promise<number> {
  const [row] = await executor.select({ nextAttemptAt: signInThrottle.nextAttemptAt }).from(signInThrottle).where(eq(signInThrottle.key, key)).limit(1);
  return Math.max(0, (row?.nextAttemptAt.getTime() ?? now.getTime()) - now.getTime());
}

function spanishWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return seconds === 1 ? '1 segundo' : `${seconds} segundos`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minuto' : `${minutes} minutos`;
}

export const accountThrottled = (ms: number) => `Demasiados intentos fallidos con esta cuenta. Espera ${spanishWait(ms)} antes de volver a intentarlo.`;
export const addressThrottled = (ms: number) => `Demasiados intentos fallidos desde tu conexión. Espera ${spanishWait(ms)} antes de volver a intentarlo.`;

const tooManyAttempts = (message: string, ms: number) => new AppError('TOO_MANY_REQUESTS', message, { retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) });

/**
 * Claims the attempt on the address, then on the account; throws 429 (saying how long to wait) when either
 * refuses. From here on the attempt counts as a failure until `signInSucceeded` gives it back.
 */
export async function claimSignInAttempt(executor: DbExecutor, keys: ThrottleKeys, limits: ThrottleLimits, now: Date) {
  if (!(await claim(executor, keys.address, addressCurve(limits), limits, now))) {
    const ms = await waitMs(executor, keys.address, now);
    throw tooManyAttempts(addressThrottled(ms), ms);
  }
  if (!(await claim(executor, keys.account, accountCurve(limits), limits, now))) {
    await release(executor, keys.address, addressCurve(limits));
    const ms = await waitMs(executor, keys.account, now);
    throw tooManyAttempts(accountThrottled(ms), ms);
  }
}

/** The password was right: the account starts afresh and the address gets its claim back. */
export async function signInSucceeded(executor: DbExecutor, keys: ThrottleKeys, limits: ThrottleLimits) {
  await executor.delete(signInThrottle).where(eq(signInThrottle.key, keys.account));
  await release(executor, keys.address, addressCurve(limits));
}

/** The password was wrong: the claims stand. Keys quiet for a whole window are forgotten, so the table stays small. */
export async function signInFailed(executor: DbExecutor, limits: ThrottleLimits, now: Date) {
  await executor.delete(signInThrottle).where(lte(signInThrottle.lastFailureAt, new Date(now.getTime() - limits.windowMs)));
}
