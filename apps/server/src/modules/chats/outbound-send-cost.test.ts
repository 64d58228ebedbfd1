import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { cards, messages } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { statementsOfSends, STATEMENTS_PER_SEND, STATEMENTS_PER_TEN_SENDS } from '../../../test/support/send-cost.ts';
import { sandboxAppName } from '../tenants/index.ts';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
  // The sandbox phone reaches the webhook over HTTP.
  await listenOnRandomPort(t.app);
});
afterAll(() => t.close());

async function chatWithCustomer(owner?: Awaited<ReturnType<typeof registerTenant>>, phone = '5215512340000') {
  owner ??= await registerTenant(t.app);
  await t.app.sandboxPhone!.customerSends({ appName: sandboxAppName(owner.tenant), phone, name: 'Cliente', kind: 'text', text: 'Hola' });
  const [card] = await t.database.db
    .select()
    .from(cards)
    .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, phone)));
  await t.app.queue.drain();
  return { owner, card: card! };
}

describe('outbound send cost', () => {
  it(`sends a text in ${STATEMENTS_PER_SEND} statements, from claiming its job to recording the provider's acceptance`, async () => {
    const { owner, card } = await chatWithCustomer();
    const sent = await t.app.inject({
      method: 'POST',
      url: `/t/${owner.tenant.slug}/api/message`,
      headers: bearer(owner.token),
      payload: { cardId: card.id, text: 'Con gusto', tempId: 'tmp-cost' },
    });
    expect(sent.statusCode).toBe(201);
    // Only the send is due: the jobs the message's events brought wait, so the count is the send's alone.
    const statements = await statementsOfSends(t);

    const [message] = await t.database.db.select().from(messages).where(eq(messages.id, sent.json().id));
    expect(message!.providerMessageId).toBeTruthy();
    expect(statements).toBe(STATEMENTS_PER_SEND);
  });

  it(`sends ten texts of two companies as one batch in ${STATEMENTS_PER_TEN_SENDS} statements`, async () => {
    const chats = [];
    for (const company of [await registerTenant(t.app), await registerTenant(t.app)])
      for (let n = 0; n < 5; n++) chats.push(await chatWithCustomer(company, `52155123400${n}1`));
    const ids: string[] = [];
    for (const { owner, card } of chats) {
      const sent = await t.app.inject({
        method: 'POST',
        url: `/t/${owner.tenant.slug}/api/message`,
        headers: bearer(owner.token),
        payload: { cardId: card.id, text: 'Con gusto' },
      });
      ids.push(sent.json().id);
    }
    const statements = await statementsOfSends(t, 10);

    const sent = await t.database.db.select().from(messages).where(inArray(messages.id, ids));
    expect(sent.filter((message) => message.providerMessageId)).toHaveLength(10);
    expect(statements).toBe(STATEMENTS_PER_TEN_SENDS);
  });
});
