import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { platformAdmins } from '../../../db/schema/index.ts';
import type { Db } from '../../platform/db/database.ts';
import { hashPassword } from '../../platform/auth/secrets.ts';

export const DEFAULT_ADMIN_EMAIL = 'admin@embudo.local';

/**
 * Ensures one platform operator exists. With ADMIN_EMAIL/ADMIN_PASSWORD that account is created
 * (or its password reset to the configured one); otherwise, on an empty table, one is generated
 * and its password returned so start-up can print it once.
 */
export async function bootstrapPlatformAdmin(db: Db, configured: { email?: string; password?: string }) {
  if (configured.email && configured.password) {
    const passwordHash = await hashPassword(configured.password);
    await db
      .insert(platformAdmins)
      .values({ email: configured.email.toLowerCase(), name: 'Administrador', passwordHash })
      .onConflictDoUpdate({ target: platformAdmins.email, set: { passwordHash } });
    return { email: configured.email.toLowerCase(), generatedPassword: undefined };
  }
  const [existing] = await db.select({ count: sql<number>`count(*)::int` }).from(platformAdmins);
  if ((existing?.count ?? 0) > 0) return undefined;
  const password = `Adm${randomBytes(9).toString('base64url')}7x`;
  const email = configured.email?.toLowerCase() ?? DEFAULT_ADMIN_EMAIL;
  const inserted = await db
    .insert(platformAdmins)
    .values({ email, name: 'Administrador', passwordHash: await hashPassword(password) })
    .onConflictDoNothing()
    .returning();
  return inserted.length > 0 ? { email, generatedPassword: password } : undefined;
}
