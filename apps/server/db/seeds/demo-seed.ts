import { and, asc, eq, gte, sql } from 'drizzle-orm';
import { boardColumns, funnels, tenants } from '../schema/index.ts';
import type { Db } from '../../src/platform/db/database.ts';
import { register } from '../../src/modules/auth/index.ts';
import { saveBotSettings } from '../../src/modules/autobot/index.ts';

export const DEMO_SIGN_IN = { tenantSlug: 'demo', email: 'demo@embudo.local', password: 'Demo12345' } as const;
export const DEMO_BOT_WELCOME = '¡Hola! Gracias por escribir a Demo Embudo. ¿Con qué área quieres hablar?';

/**
 * On an empty database, a demo company whose owner can sign in at once (embedded mode only). It is
 * on the Pro plan with the menu auto-bot running, so a customer writing from /sandbox is greeted,
 * chooses Ventas or Soporte, and their chat moves to that column, with nothing to configure.
 */
export async function seedDemoTenant(db: Db): Promise<boolean> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(tenants);
  if ((row?.count ?? 0) > 0) return false;
  const { tenant } = await register(
    db,
    {
      companyName: 'Demo Embudo',
      companySlug: DEMO_SIGN_IN.tenantSlug,
      userName: 'Demo Owner',
      userEmail: DEMO_SIGN_IN.email,
      userPassword: DEMO_SIGN_IN.password,
      timezone: 'America/Mexico_City',
    },
    new Date(),
  );
  await db.update(tenants).set({ subscriptionPlan: 'professional' }).where(eq(tenants.id, tenant.id));

  const [funnel] = await db.select().from(funnels).where(eq(funnels.tenantId, tenant.id)).orderBy(asc(funnels.position)).limit(1);
  const [waitingRoom] = await db.select().from(boardColumns).where(eq(boardColumns.funnelId, funnel!.id)).orderBy(asc(boardColumns.position)).limit(1);
  // Ventas and Soporte sit right after the waiting room, where the bot sends chats.
  await db
    .update(boardColumns)
    .set({ position: sql`${boardColumns.position} + 2` })
    .where(and(eq(boardColumns.funnelId, funnel!.id), gte(boardColumns.position, waitingRoom!.position + 1)));
  const menu = await db
    .insert(boardColumns)
    .values([
      { tenantId: tenant.id, funnelId: funnel!.id, title: 'Ventas', color: 'green', position: waitingRoom!.position + 1 },
      { tenantId: tenant.id, funnelId: funnel!.id, title: 'Soporte', color: 'orange', position: waitingRoom!.position + 2 },
    ])
    .returning();
  await saveBotSettings(
    db,
    { id: tenant.id, plan: 'professional' },
    {
      enabled: true,
      message: DEMO_BOT_WELCOME,
      triggerColumnId: waitingRoom!.id,
      menuColumnIds: menu.map((column) => column.id),
    },
  );
  return true;
}
