import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { authFailures } from '../../../db/schema/index.ts';
import type { DbExecutor } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors/app-error.ts';

/** Failed sign-ins are counted in the database so every app process shares one limit. */
export interface ThrottleLimits {
  windowMs: number;
  perAccount: number;
  perAddress: number;
}

export const defaultThrottleLimits: ThrottleLimits = { windowMs: 15 * 60 * 1000, perAccount: 5, perAddress: 20 };

export const TOO_MANY_ATTEMPTS = 'Demasiados intentos fallidos. Espera 15 minutos antes de volver a intentarlo.';

export function throttleKeys(kind: 'tenant' | 'admin', account: string, address: string) {
  return { account: `${kind}:account:${account.toLowerCase()}`, address: `${kind}:address:${address}` };
}

async function failuresSince(executor: DbExecutor, key: string, since: Date): Promise<number> {
  const [row] = await executor
    .select({ count: sql<number>`count(*)::int` })
    .from(authFailures)
    .where(and(eq(authFailures.key, key), gt(authFailures.createdAt, since)));
  return row?.count ?? 0;
}

export async function assertNotThrottled(executor: DbExecutor, keys: { account: string; address: string }, limits: ThrottleLimits) {
  const since = new Date(Date.now() - limits.windowMs);
  const [byAccount, byAddress] = await Promise.all([failuresSince(executor, keys.account, since), failuresSince(executor, keys.address, since)]);
  if (byAccount >= limits.perAccount || byAddress >= limits.perAddress) throw new AppError('TOO_MANY_REQUESTS', TOO_MANY_ATTEMPTS);
}

export async function recordFailure(executor: DbExecutor, keys: { account: string; address: string }, limits: ThrottleLimits) {
  await executor.insert(authFailures).values([{ key: keys.account }, { key: keys.address }]);
  // Old rows are useless past the window; trimming here keeps the table small without a cron.
  await executor.delete(authFailures).where(lt(authFailures.createdAt, new Date(Date.now() - 2 * limits.windowMs)));
}

export async function clearAccountFailures(executor: DbExecutor, keys: { account: string }) {
  await executor.delete(authFailures).where(eq(authFailures.key, keys.account));
}
