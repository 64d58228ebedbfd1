import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiUsage, cards, scheduledMessages, tenants } from '../../../db/schema/index.ts';
import { startFakeWebhookServer } from '../../../test/fakes/fake-webhook-server.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { sandboxAppName } from '../tenants/index.ts';

/**
 * The aiPrompt node on the embedded default (the sandbox model, speaking Gemini's protocol): its tools really run,
 * in the Playground as notes in execution order and in a live chat as real effects (issue 15 item 4).
 */
let t: TestApp;
let web: Awaited<ReturnType<typeof startFakeWebhookServer>>;
beforeAll(async () => {
  web = await startFakeWebhookServer();
  t = await buildTestApp({ providerMode: 'sandbox', aiProvider: 'sandbox', allowPrivateOutbound: true });
  await listenOnRandomPort(t.app);
});
afterAll(async () => {
  await t.close();
  await web.close();
});

type Owner = Awaited<ReturnType<typeof registerTenant>>;
const call = (owner: Owner, method: 'GET' | 'POST' | 'PUT', path: string, payload?: unknown) =>
  t.app.inject({ method, url: `/api${path}`, headers: bearer(owner.token), payload: payload as object });

async function company() {
  const owner = await registerTenant(t.app);
  await t.database.db.update(tenants).set({ subscriptionPlan: 'professional' }).where(eq(tenants.id, owner.tenant.id));
  const [funnel] = (await call(owner, 'GET', '/funnels/summary')).json() as { id: string }[];
  const columns = (await call(owner, 'GET', `/funnels/${funnel!.id}/columns`)).json() as { id: string; title: string }[];
  return { owner, columns };
}

function aiFlow(columnId: string) {
  const node = (id: string, type: string, data: Record<string, unknown>, y: number) => ({ id, type, position: { x: 0, y }, data });
  return {
    nodes: [
      node('trigger-1', 'trigger', { label: 'Inicio', triggerType: 'on_message_received', columnId: '' }, 0),
      node(
        'ai-1',
        'aiPrompt',
        {
          label: 'IA',
          prompt: 'Atiende pedidos.',
          tools: [
            { id: 't1', tool_type: 'webhook', label: 'Consultar pedido', type: 'POST', url: `${web.url}/pedido` },
            { id: 't2', tool_type: 'redirect_to_column', label: 'Pasar a seguimiento', columnId },
            { id: 't3', tool_type: 'schedule_message', label: 'Recordatorio' },
          ],
        },
        100,
      ),
    ],
    edges: [{ id: 'e1', source: 'trigger-1', target: 'ai-1', sourceHandle: null, targetHandle: null }],
  };
}

describe('the aiPrompt node', () => {
  it('shows each tool call in the Playground as a note, in execution order, before the answer', async () => {
    web.route('/pedido', { body: '{"estado":"en camino"}' });
    const { owner, columns } = await company();
    const bot = (await call(owner, 'POST', '/bots', { name: 'Pedidos' })).json() as { id: string };
    const botConfig = aiFlow(columns[1]!.id);

    const asked = await call(owner, 'POST', `/bots/${bot.id}/simulate`, { message: '¿Dónde está mi pedido?', botConfig });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().replies).toEqual([`[🔧 IA: «Consultar pedido» POST ${web.url}/pedido → 200]`, 'Esto es lo que encontré: {"estado":"en camino"}']);
    expect(web.received.at(-1)).toMatchObject({ method: 'POST', path: '/pedido', body: '{"mensaje":"¿Dónde está mi pedido?"}' });

    const moved = await call(owner, 'POST', `/bots/${bot.id}/simulate`, { message: 'Quiero seguimiento', botConfig });
    expect(moved.json().replies).toEqual([
      `[🔧 IA: «Pasar a seguimiento» → el chat se movería a «${columns[1]!.title}»]`,
      `Listo, pasé tu conversación a ${columns[1]!.title}.`,
    ]);
    // The Playground's tokens count too (no chat).
    const used = await t.database.db.select().from(aiUsage).where(eq(aiUsage.tenantId, owner.tenant.id));
    expect(used.map((row) => [row.kind, row.cardId])).toEqual([
      ['flow', null],
      ['flow', null],
    ]);
  });

  it('in a live chat moves the card and schedules the message it was asked for, as sender ai', async () => {
    const { owner, columns } = await company();
    const bot = (await call(owner, 'POST', '/bots', { name: 'Pedidos' })).json() as { id: string };
    expect((await call(owner, 'PUT', `/bots/${bot.id}`, { name: 'Pedidos', config: aiFlow(columns[1]!.id) })).statusCode).toBe(200);
    expect((await call(owner, 'PUT', `/columns/${columns[0]!.id}`, { assistant_bot_id: bot.id })).statusCode).toBe(200);
    const phone = '5215577712345';
    await t.app.sandboxPhone!.customerSends({ appName: sandboxAppName(owner.tenant), phone, name: 'Marta', kind: 'text', text: 'Recuérdame pagar' });
    await t.app.queue.drain();

    const [card] = await t.database.db
      .select()
      .from(cards)
      .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, phone)));
    const rows = await t.database.db.select().from(scheduledMessages).where(eq(scheduledMessages.cardId, card!.id));
    expect(rows).toMatchObject([{ sender: 'ai', text: 'Recordatorio: Recuérdame pagar', status: 'scheduled' }]);
    expect((await t.database.db.select().from(aiUsage).where(eq(aiUsage.cardId, card!.id))).map((row) => row.kind)).toEqual(['flow']);

    await t.app.sandboxPhone!.customerSends({ appName: sandboxAppName(owner.tenant), phone, name: 'Marta', kind: 'text', text: 'Quiero seguimiento' });
    await t.app.queue.drain();
    const [after] = await t.database.db.select().from(cards).where(eq(cards.id, card!.id));
    expect(after!.columnId).toBe(columns[1]!.id);
  });
});
