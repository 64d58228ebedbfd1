import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { ChatMessage } from '@embudo/contracts/http/chats';
import type { CustomerChangeInput, PhoneMessage } from '@embudo/contracts/http/sandbox-phone';
import { cards } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { untilWithJobs } from '../../../test/support/polling.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { GROUP_ONLY_REACTIONS, MESSAGE_DELETED, ONLY_OWN_MESSAGES, ONLY_TEXT_EDITS } from './customer-change.ts';
import { META_SANDBOX_NO_GROUPS, PHONE_MESSAGE_NOT_FOUND } from './sandbox-phone.routes.ts';

// The customer reacts, edits and deletes from the sandbox phone: each change reaches the company's real webhook in
// its provider's format and changes the CRM's message in place, for a company on Gupshup and one on Meta.
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
  await listenOnRandomPort(t.app);
});
afterAll(async () => t.close());

type Owner = Awaited<ReturnType<typeof registerTenant>>;
const until = <T>(probe: () => Promise<T | undefined | false>) => untilWithJobs(t, probe);

let numbers = 119876543210000;
async function companyOn(provider: 'gupshup' | 'meta'): Promise<Owner> {
  const owner = await registerTenant(t.app);
  if (provider === 'meta') {
    numbers += 1;
    const settings = { provider: 'meta', phoneNumberId: String(numbers), wabaId: '204567890123456', accessToken: `EAAG-${numbers}`, appSecret: `s-${numbers}` };
    const saved = await t.app.inject({ method: 'PUT', url: '/api/whatsapp/settings', headers: bearer(owner.token), payload: settings });
    expect(saved.statusCode, saved.body).toBe(200);
  }
  return owner;
}

const phoneSend = async (owner: Owner, phone: string, text: string) => {
  const sent = await t.app.inject({
    method: 'POST',
    url: '/sandbox/api/send',
    headers: bearer(owner.token),
    payload: { phone, name: 'Lucía', message: { kind: 'text', text } },
  });
  expect(sent.statusCode, sent.body).toBe(201);
  return sent.json().id as string;
};
const phoneChange = (owner: Owner, phone: string, change: CustomerChangeInput, extra: object = {}) =>
  t.app.inject({ method: 'POST', url: '/sandbox/api/change', headers: bearer(owner.token), payload: { phone, ...extra, change } });
const phoneConversation = async (owner: Owner, phone: string) =>
  (await t.app.inject({ method: 'GET', url: `/sandbox/api/conversation?phone=${phone}`, headers: bearer(owner.token) })).json().messages as PhoneMessage[];
const cardOf = async (owner: Owner, phone: string) =>
  (
    await t.database.db
      .select()
      .from(cards)
      .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, phone)))
  )[0];
const crmMessages = async (owner: Owner, cardId: string) => {
  const timeline = await t.app.inject({ method: 'GET', url: `/api/cards/${cardId}/messages`, headers: bearer(owner.token) });
  expect(timeline.statusCode, timeline.body).toBe(200);
  return timeline.json().messages as ChatMessage[];
};

describe.each(['gupshup', 'meta'] as const)('a customer on the sandbox phone changes messages (company on %s)', (provider) => {
  it("reacts to the business's reply and takes it back, edits and deletes their own: the CRM's messages change, none is added", async () => {
    const owner = await companyOn(provider);
    const phone = '5215577000001';
    const hello = await phoneSend(owner, phone, 'Hola, ¿tienen taladros?');
    const card = await until(() => cardOf(owner, phone));
    const other = await phoneSend(owner, phone, 'Mensaje equivocado');
    const replied = await t.app.inject({
      method: 'POST',
      url: '/api/message',
      headers: bearer(owner.token),
      payload: { cardId: card.id, text: 'Sí, varios modelos', tempId: 'r-1' },
    });
    expect(replied.statusCode, replied.body).toBe(201);
    const reply = await until(async () => (await phoneConversation(owner, phone)).find((message) => message.direction === 'to_customer'));
    const before = await until(async () => {
      const list = await crmMessages(owner, card.id);
      return list.length === 3 && list;
    });
    const crm = async (id: string) => (await crmMessages(owner, card.id)).find((message) => message.id === id)!;
    const replyInCrm = before.find((message) => message.sender === 'user')!;
    const helloInCrm = before.find((message) => message.text === 'Hola, ¿tienen taladros?')!;
    const otherInCrm = before.find((message) => message.text === 'Mensaje equivocado')!;

    const reacted = await phoneChange(owner, phone, { kind: 'reaction', messageId: reply.id, emoji: '👍' });
    expect(reacted.statusCode, reacted.body).toBe(200);
    expect(reacted.json().message.body.reaction).toBe('👍');
    await until(async () => (await crm(replyInCrm.id)).reactions?.some((reaction) => reaction.emoji === '👍' && reaction.from === 'contact'));

    expect((await phoneChange(owner, phone, { kind: 'edit', messageId: hello, text: 'Hola, ¿tienen taladros de 500 W?' })).statusCode).toBe(200);
    const edited = await until(async () => {
      const message = await crm(helloInCrm.id);
      return message.editedAt ? message : undefined;
    });
    expect(edited.text).toBe('Hola, ¿tienen taladros de 500 W?');

    expect((await phoneChange(owner, phone, { kind: 'delete', messageId: other })).statusCode).toBe(200);
    await until(async () => (await crm(otherInCrm.id)).deletedAt);

    expect((await phoneChange(owner, phone, { kind: 'reaction', messageId: reply.id, emoji: null })).statusCode).toBe(200);
    await until(async () => ((await crm(replyInCrm.id)).reactions ?? []).length === 0);

    expect((await crmMessages(owner, card.id)).map((message) => message.id).sort()).toEqual(before.map((message) => message.id).sort());
    // The phone keeps what it did, so it shows the same after a reload.
    const onPhone = await phoneConversation(owner, phone);
    expect(onPhone).toHaveLength(3);
    expect(onPhone.find((message) => message.id === hello)!.body).toMatchObject({ text: 'Hola, ¿tienen taladros de 500 W?', edited: true });
    expect(onPhone.find((message) => message.id === other)!.body).toMatchObject({ deleted: true });
    expect(onPhone.find((message) => message.id === reply.id)!.body).not.toHaveProperty('reaction');
  });

  it("refuses to edit or delete the business's messages, to change a deleted one, and names no other conversation's message", async () => {
    const owner = await companyOn(provider);
    const phone = '5215577000002';
    const hello = await phoneSend(owner, phone, 'Hola');
    const card = await until(() => cardOf(owner, phone));
    await t.app.inject({ method: 'POST', url: '/api/message', headers: bearer(owner.token), payload: { cardId: card.id, text: 'Buenas', tempId: 'r-2' } });
    const reply = await until(async () => (await phoneConversation(owner, phone)).find((message) => message.direction === 'to_customer'));

    for (const change of [
      { kind: 'edit', messageId: reply.id, text: 'Otra cosa' },
      { kind: 'delete', messageId: reply.id },
    ] as const) {
      const refused = await phoneChange(owner, phone, change);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(ONLY_OWN_MESSAGES);
    }
    const elsewhere = await phoneChange(owner, '5215577000003', { kind: 'delete', messageId: hello });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().message).toBe(PHONE_MESSAGE_NOT_FOUND);
    const bad = await phoneChange(owner, phone, { kind: 'edit', messageId: hello, text: '   ' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Escribe un mensaje.');
    expect((await phoneChange(owner, phone, { kind: 'delete', messageId: hello })).statusCode).toBe(200);
    const again = await phoneChange(owner, phone, { kind: 'edit', messageId: hello, text: 'Hola de nuevo' });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(MESSAGE_DELETED);
  });
});

describe('changes the providers cannot carry', () => {
  it('edits only texts, and in a group (Gupshup only) only reacts', async () => {
    const owner = await companyOn('gupshup');
    const group = { id: '120363000000077', name: 'Obra Sur' };
    const located = await t.app.inject({
      method: 'POST',
      url: '/sandbox/api/send',
      headers: bearer(owner.token),
      payload: { phone: '5215577000004', group, message: { kind: 'location', latitude: 19.4, longitude: -99.1 } },
    });
    const id = located.json().id as string;
    const card = await until(() => cardOf(owner, group.id));
    const editInGroup = await phoneChange(owner, '5215577000004', { kind: 'edit', messageId: id, text: 'Aquí' }, { group });
    expect(editInGroup.json().message).toBe(GROUP_ONLY_REACTIONS);
    expect((await phoneChange(owner, '5215577000004', { kind: 'reaction', messageId: id, emoji: '❤️' }, { group })).statusCode).toBe(200);
    await until(async () => (await crmMessages(owner, card.id))[0]?.reactions?.[0]?.emoji === '❤️');
    const inGroup = await phoneChange(owner, '5215577000004', { kind: 'delete', messageId: id }, { group });
    expect(inGroup.statusCode).toBe(400);
    expect(inGroup.json().message).toBe(GROUP_ONLY_REACTIONS);

    const alone = await t.app.inject({
      method: 'POST',
      url: '/sandbox/api/send',
      headers: bearer(owner.token),
      payload: { phone: '5215577000005', message: { kind: 'location', latitude: 19.4, longitude: -99.1 } },
    });
    const edit = await phoneChange(owner, '5215577000005', { kind: 'edit', messageId: alone.json().id, text: 'Aquí' });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().message).toBe(ONLY_TEXT_EDITS);

    const meta = await companyOn('meta');
    const onMeta = await phoneChange(meta, '5215577000006', { kind: 'reaction', messageId: 'wamid.x', emoji: '👍' }, { group });
    expect(onMeta.statusCode).toBe(400);
    expect(onMeta.json().message).toBe(META_SANDBOX_NO_GROUPS);
  });
});
