import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { boardColumns, cards, messages } from '../../../db/schema/index.ts';
import { DEMO_BOT_WELCOME, DEMO_SIGN_IN, seedDemoTenant } from '../../../db/seeds/demo-seed.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { findTenantBySlug, sandboxAppName } from '../tenants/index.ts';
import { confirmationText } from './autobot-menu.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox', aiProvider: 'sandbox' });
  await listenOnRandomPort(t.app);
});
afterAll(async () => t.close());

describe('the embedded demo', () => {
  it('greets a sandbox customer with the menu and moves their chat on their choice, with nothing configured', async () => {
    expect(await seedDemoTenant(t.database.db)).toBe(true);
    const tenant = (await findTenantBySlug(t.database.db, DEMO_SIGN_IN.tenantSlug))!;
    expect(tenant.subscriptionPlan).toBe('professional');
    const columns = await t.database.db.select().from(boardColumns).where(eq(boardColumns.tenantId, tenant.id)).orderBy(asc(boardColumns.position));
    expect(columns.map((column) => column.title)).toEqual(['Nuevos', 'Ventas', 'Soporte', 'En conversación', 'Propuesta enviada', 'Ganados']);

    const send = async (text: string) => {
      await t.app.sandboxPhone!.customerSends({
        appName: sandboxAppName(tenant),
        phone: '5215588887777',
        name: 'Demo Cliente',
        kind: 'text',
        text,
      });
      // The auto-bot answers from the queue, after the webhook answered.
      await t.app.queue.drain();
    };
    await send('Hola');
    const [card] = await t.database.db.select().from(cards).where(eq(cards.tenantId, tenant.id));
    expect(card!.columnId).toBe(columns[0]!.id);
    await send('Soporte');
    const [moved] = await t.database.db.select().from(cards).where(eq(cards.id, card!.id));
    expect(moved!.columnId).toBe(columns[2]!.id);
    const replies = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.cardId, card!.id), eq(messages.sender, 'user')))
      .orderBy(asc(messages.createdAt));
    expect(replies.map((row) => row.text)).toEqual([DEMO_BOT_WELCOME, confirmationText('Soporte')]);
  });

  it("steps aside in its waiting room once that column's AI assistant is switched on: the assistant answers there", async () => {
    const tenant = (await findTenantBySlug(t.database.db, DEMO_SIGN_IN.tenantSlug))!;
    const [waitingRoom] = await t.database.db.select().from(boardColumns).where(eq(boardColumns.tenantId, tenant.id)).orderBy(asc(boardColumns.position));
    await t.database.db
      .update(boardColumns)
      .set({
        geminiConfig: { isEnabled: true, systemPrompt: 'Atiende con amabilidad.', tools: [], quietSeconds: 0, pauseOnHumanReply: true, fallbackReply: '' },
      })
      .where(eq(boardColumns.id, waitingRoom!.id));
    await t.app.sandboxPhone!.customerSends({
      appName: sandboxAppName(tenant),
      phone: '5215588886666',
      name: 'Otra',
      kind: 'text',
      text: 'Hola',
    });
    await t.app.queue.drain();
    const [card] = await t.database.db
      .select()
      .from(cards)
      .where(and(eq(cards.tenantId, tenant.id), eq(cards.phone, '5215588886666')));
    const sent = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.cardId, card!.id)))
      .orderBy(asc(messages.createdAt));
    expect(sent.map((row) => [row.sender, row.text])).toEqual([
      ['contact', 'Hola'],
      ['ai', expect.any(String)],
    ]);
  });
});
