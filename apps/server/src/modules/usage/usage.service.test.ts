import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { boardColumns, cards, contacts, funnels, messages, tenants, usageEvents } from '../../../db/schema/index.ts';
import { createTestDatabase } from '../../../test/support/test-database.ts';
import { changeAndRecordUsage, monthCostByTenant, monthUsage, recordUsage, savePricing, unbillFailedMessage } from './usage.service.ts';

const prices = {
  price_per_sent_message: 0.01,
  price_per_received_message: 0.005,
  price_template_marketing: 0,
  price_template_utility: 0,
  price_per_1000_ai_tokens: 0,
};

describe("a month's usage", () => {
  it('counts a row of several events as that many, at the price in force when they were counted', async () => {
    const database = await createTestDatabase();
    const { db } = database;
    try {
      const [tenant] = await db.insert(tenants).values({ name: 'Consumo', slug: 'consumo' }).returning();
      const tenantId = tenant!.id;
      await recordUsage(db, tenantId, 'received', 2);
      await savePricing(db, prices);
      await recordUsage(db, tenantId, 'received', 3);
      await recordUsage(db, tenantId, 'received', 0);
      expect((await db.select().from(usageEvents).where(eq(usageEvents.tenantId, tenantId))).map((row) => [row.quantity, row.unitPrice])).toEqual([
        [2, 0],
        [3, 0.005],
      ]);

      // A send billed one by one, then reported failed: it leaves the counts and the cost.
      const [funnel] = await db.insert(funnels).values({ tenantId, name: 'Ventas', position: 0 }).returning();
      const [column] = await db.insert(boardColumns).values({ tenantId, funnelId: funnel!.id, title: 'Nuevos', position: 0 }).returning();
      const [contact] = await db.insert(contacts).values({ tenantId, phone: '5215500000001' }).returning();
      const [card] = await db
        .insert(cards)
        .values({ tenantId, funnelId: funnel!.id, columnId: column!.id, contactId: contact!.id, title: 'Ana', phone: contact!.phone })
        .returning();
      const sent = await db
        .insert(messages)
        .values([1, 2].map((n) => ({ tenantId, cardId: card!.id, sender: 'user' as const, type: 'text', text: `envío ${n}` })))
        .returning();
      await changeAndRecordUsage(db, tenantId, 'sent', sql`select id from ${messages} where id = any(${sql.param(sent.map((row) => row.id))}::uuid[])`);
      await unbillFailedMessage(db, tenantId, sent[0]!.id);

      expect(await monthUsage(db, tenantId)).toMatchObject({ receivedCount: 5, sentCount: 1, failedUnbilledCount: 1, totalCost: 0.025 });
      expect((await monthCostByTenant(db)).get(tenantId)).toBe(0.025);
    } finally {
      await database.close();
    }
  });
});
