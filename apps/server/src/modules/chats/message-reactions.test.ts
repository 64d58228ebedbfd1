import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { REACTION_EMOJI_INVALID } from '@embudo/contracts/http/chats';
import { cards, messages } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { untilWithJobs } from '../../../test/support/polling.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { signInMember } from '../../../test/support/members.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { REACTIONS_NOT_SUPPORTED } from './message-reactions.service.ts';
import { sandboxAppName } from '../tenants/index.ts';

// The team's own reactions under a customer's message: shown at once, sent to WhatsApp where the provider can (Meta).
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
  await listenOnRandomPort(t.app);
});
afterAll(async () => t.close());

type Owner = Awaited<ReturnType<typeof registerTenant>>;
let numbers = 209876543210000;

const react = (owner: Owner, messageId: string, emoji: unknown) =>
  t.app.inject({ method: 'POST', url: `/api/messages/${messageId}/reaction`, headers: bearer(owner.token), payload: { emoji } });

async function companyOnMeta() {
  const owner = await registerTenant(t.app);
  const phoneNumberId = String(++numbers);
  const saved = await t.app.inject({
    method: 'PUT',
    url: '/api/whatsapp/settings',
    headers: bearer(owner.token),
    payload: { provider: 'meta', phoneNumberId, wabaId: '204567890123456', accessToken: `EAAG-${phoneNumberId}`, appSecret: `secreto-${phoneNumberId}` },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return { owner, phoneNumberId };
}

/** A customer's message in a chat of the company, as the fake provider delivers it. */
async function customerMessage(owner: Owner, send: (phone: string) => Promise<unknown>, phone = '5215512345678') {
  await send(phone);
  return untilWithJobs(t, async () => {
    const [row] = await t.database.db
      .select({ message: messages })
      .from(messages)
      .innerJoin(cards, eq(cards.id, messages.cardId))
      .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, phone)));
    return row?.message;
  });
}

describe('POST /api/messages/{id}/reaction', () => {
  it('shows the member reaction at once and sends it to WhatsApp; null takes it back', async () => {
    const { owner, phoneNumberId } = await companyOnMeta();
    const message = await customerMessage(owner, (phone) =>
      t.app.sandboxMeta!.customerSends({ phoneNumberId, phone, name: 'Lucía', kind: 'text', text: 'Hola' }),
    );

    const answer = await react(owner, message.id, '👍');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().reactions).toEqual([{ emoji: '👍', from: 'user', name: expect.any(String) }]);
    const sentReaction = (emoji: string) =>
      t.app.sandboxMeta!.requests.find((request) => {
        const json = request.json as { type?: string; reaction?: unknown } | undefined;
        return json?.type === 'reaction' && JSON.stringify(json.reaction) === JSON.stringify({ message_id: message.providerMessageId, emoji });
      });
    await untilWithJobs(t, async () => sentReaction('👍'));

    // A second reaction of the same member replaces the first; null takes it back on WhatsApp too (empty emoji).
    expect((await react(owner, message.id, '❤️')).json().reactions).toEqual([{ emoji: '❤️', from: 'user', name: expect.any(String) }]);
    const removed = await react(owner, message.id, null);
    expect(removed.json().reactions).toEqual([]);
    await untilWithJobs(t, async () => sentReaction(''));
  });

  it('refuses where the provider cannot send reactions, a bad emoji, a viewer and another company, writing nothing', async () => {
    const owner = await registerTenant(t.app);
    const message = await customerMessage(owner, (phone) =>
      t.app.sandboxPhone!.customerSends({ appName: sandboxAppName(owner.tenant), phone, name: 'Rita', kind: 'text', text: 'Hola' }),
    );
    const refused = await react(owner, message.id, '👍');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(REACTIONS_NOT_SUPPORTED);

    const meta = await companyOnMeta();
    const onMeta = await customerMessage(meta.owner, (phone) =>
      t.app.sandboxMeta!.customerSends({ phoneNumberId: meta.phoneNumberId, phone, name: 'Ana', kind: 'text', text: 'Hola' }),
    );
    for (const emoji of ['hola', '', 'a👍', 42]) {
      const bad = await react(meta.owner, onMeta.id, emoji);
      expect(bad.statusCode, String(emoji)).toBe(400);
      expect(bad.json().message).toBe(REACTION_EMOJI_INVALID);
    }
    const [chat] = await t.database.db.select().from(cards).where(eq(cards.id, onMeta.cardId));
    const viewer = await signInMember(t, meta.owner, 'viewer', [chat!.funnelId]);
    expect((await react(viewer, onMeta.id, '👍')).statusCode).toBe(403);
    expect((await react(owner, onMeta.id, '👍')).statusCode).toBe(404);
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, onMeta.id));
    expect(row!.reactions).toBeNull();
  });
});
