import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { cards, messages } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { statementsOfOneSend, STATEMENTS_PER_SEND } from '../../../test/support/send-cost.ts';
import { sandboxAppName } from '../tenants/index.ts';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
  // The sandbox phone reaches the webhook over HTTP.
  await listenOnRandomPort(t.app);
});
afterAll(() => t.close());

async function chatWithCustomer() {
  const owner = await registerTenant(t.app);
  const phone = '5215512340000';
  await t.app.sandboxPhone!.customerSends({ appName: sandboxAppName(owner.tenant.slug), phone, name: 'Cliente', kind: 'text', text: 'Hola' });
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
    const statements = await statementsOfOneSend(t);

    const [message] = await t.database.db.select().from(messages).where(eq(messages.id, sent.json().id));
    expect(message!.providerMessageId).toBeTruthy();
    expect(statements).toBe(STATEMENTS_PER_SEND);
  });
});
