import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** Opaque bearer tokens: the client holds the random value, the database only its SHA-256. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

// Algorithm 2 is argon2id in @node-rs/argon2 (its const enum cannot be imported under isolatedModules).
const ARGON2ID = 2;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false);
}

let absentAccountHash: Promise<string> | undefined;

/**
 * Verifies a sign-in password; when the account does not exist it verifies against a fixed hash
 * anyway, so the answer's timing does not reveal which accounts exist.
 */
export async function verifySignInPassword(passwordHash: string | undefined, password: string): Promise<boolean> {
  if (passwordHash) return verifyPassword(passwordHash, password);
  absentAccountHash ??= hashPassword('timing-equaliser-Password1');
  await verifyPassword(await absentAccountHash, password);
  return false;
}

/** A temporary password that satisfies the four password rules. */
export function generateTemporaryPassword(): string {
  const body = randomBytes(9).toString('base64url').replace(/[-_]/g, 'x');
  return `Tmp${body}9a`;
}

/** Compares a secret someone sent with the expected one in constant time (webhook secrets, API keys). */
export function secretMatches(expected: string, given: string) {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
