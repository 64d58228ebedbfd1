import { sql } from 'drizzle-orm';
import { tenants } from '../schema/index.ts';
import type { Db } from '../../src/platform/db/database.ts';
import { register } from '../../src/modules/auth/auth.service.ts';

export const DEMO_SIGN_IN = { tenantSlug: 'demo', email: 'demo@embudo.local', password: 'Demo12345' } as const;

/** On an empty database, a demo company whose owner can sign in at once (embedded mode only). */
export async function seedDemoTenant(db: Db): Promise<boolean> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(tenants);
  if ((row?.count ?? 0) > 0) return false;
  await register(db, {
    companyName: 'Demo Embudo',
    companySlug: DEMO_SIGN_IN.tenantSlug,
    userName: 'Demo Owner',
    userEmail: DEMO_SIGN_IN.email,
    userPassword: DEMO_SIGN_IN.password,
    timezone: 'America/Mexico_City',
  });
  return true;
}
