import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { MARKETING_OPTED_OUT } from '@embudo/contracts/http/chats';
import { OPT_OUT_KEYWORDS_LIST, OPT_OUT_KEYWORDS_REQUIRED, OPT_OUT_KEYWORDS_TOO_MANY } from '@embudo/contracts/http/whatsapp';
import { cards, contacts, jobs, messages, providerSettings, scheduledMessages, usageEvents } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { signInMember } from '../../../test/support/members.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { approvedTemplate } from '../../../test/support/templates.ts';
import type { FakeGupshup } from '../../messaging-providers/sandbox/fake-gupshup.ts';
import { sandboxAppName } from '../tenants/index.ts';

type Owner = Awaited<ReturnType<typeof registerTenant>>;

let t: TestApp;
let fake: FakeGupshup;
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
  await listenOnRandomPort(t.app);
  fake = t.app.sandboxPhone!;
  fake.templateReviewMs = 20;
});
afterAll(async () => t.close());

const db = () => t.database.db;
const call = (who: Owner, method: 'GET' | 'POST' | 'PUT', path: string, payload?: unknown) =>
  t.app.inject({ method, url: `/t/${who.tenant.slug}/api${path}`, headers: bearer(who.token), payload: payload as Record<string, unknown> });

const PROMO = { name: 'promo_invierno', category: 'MARKETING', body_text: 'Hola {{1}}, hoy 2x1.' };
const AVISO = { name: 'aviso_cita', category: 'UTILITY', body_text: 'Hola {{1}}, tu cita es mañana.' };

/** The customer writes to the company; with `text` a keyword, as a whole message. */
const customerWrites = (owner: Owner, phone: string, text: string) =>
  fake.customerSends({ appName: sandboxAppName(owner.tenant), phone, name: 'Lucía', kind: 'text', text });

async function chatOf(owner: Owner, phone: string) {
  const [card] = await db()
    .select()
    .from(cards)
    .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, phone)));
  return card!;
}

async function contactOf(owner: Owner, phone: string) {
  const [contact] = await db()
    .select()
    .from(contacts)
    .where(and(eq(contacts.tenantId, owner.tenant.id), eq(contacts.phone, phone)));
  return contact;
}

const outboundOf = (owner: Owner) =>
  db()
    .select()
    .from(messages)
    .where(and(eq(messages.tenantId, owner.tenant.id), eq(messages.sender, 'user')));
const sendJobsOf = (owner: Owner) =>
  db()
    .select()
    .from(jobs)
    .where(and(eq(jobs.tenantId, owner.tenant.id), eq(jobs.name, 'chats.send-message')));
const usageOf = (owner: Owner) => db().select().from(usageEvents).where(eq(usageEvents.tenantId, owner.tenant.id));

describe('a customer who opted out of marketing', () => {
  it('gets no marketing template on their chat (400, nothing stored or billed), and utility templates still go', async () => {
    const owner = await registerTenant(t.app);
    const promo = await approvedTemplate(t, owner, PROMO);
    const aviso = await approvedTemplate(t, owner, AVISO);
    await customerWrites(owner, '5215570000001', 'hola');
    await customerWrites(owner, '5215570000001', ' baja. ');
    const card = await chatOf(owner, '5215570000001');
    expect((await contactOf(owner, '5215570000001'))?.marketingOptedOutAt).toBeTruthy();

    const refused = await call(owner, 'POST', '/message/template', { cardId: card.id, templateId: promo.id, variables: ['Lucía'] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(MARKETING_OPTED_OUT);
    expect(await outboundOf(owner)).toHaveLength(0);
    expect(await sendJobsOf(owner)).toHaveLength(0);

    const sent = await call(owner, 'POST', '/message/template', { cardId: card.id, templateId: aviso.id, variables: ['Lucía'] });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(await outboundOf(owner)).toHaveLength(1);
    await t.app.queue.drain();
    expect((await usageOf(owner)).map((event) => event.kind)).not.toContain('template_marketing');
  });

  it('is not started a conversation with a marketing template: 400 and no chat left behind; a utility one starts it', async () => {
    const owner = await registerTenant(t.app);
    const promo = await approvedTemplate(t, owner, PROMO);
    const aviso = await approvedTemplate(t, owner, AVISO);
    // A customer we never spoke with may opt out (Meta's user preference): they become a contact without a chat.
    await customerWrites(owner, '5215570000002', 'STOP');
    await db().delete(cards).where(eq(cards.tenantId, owner.tenant.id));
    const refused = await call(owner, 'POST', '/initiate-conversation', { phoneNumber: '5215570000002', templateId: promo.id, variables: ['Ana'] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(MARKETING_OPTED_OUT);
    expect(await db().select().from(cards).where(eq(cards.tenantId, owner.tenant.id))).toHaveLength(0);
    expect(await outboundOf(owner)).toHaveLength(0);

    const started = await call(owner, 'POST', '/initiate-conversation', { phoneNumber: '5215570000002', templateId: aviso.id, variables: ['Ana'] });
    expect(started.statusCode, started.body).toBe(201);
    expect(await outboundOf(owner)).toHaveLength(1);
  });

  it('is only a customer who wrote a keyword alone: one inside a sentence opts nobody out', async () => {
    const owner = await registerTenant(t.app);
    const promo = await approvedTemplate(t, owner, PROMO);
    await customerWrites(owner, '5215570000003', 'Quiero info');
    const card = await chatOf(owner, '5215570000003');
    // Only a keyword written alone counts: "no quiero baja" is a conversation, not an opt-out.
    await customerWrites(owner, '5215570000003', 'no quiero baja');
    const sent = await call(owner, 'POST', '/message/template', { cardId: card.id, templateId: promo.id, variables: ['Ana'] });
    expect(sent.statusCode, sent.body).toBe(201);
  });
});

describe('a scheduled marketing template', () => {
  const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

  it('is refused (400, nothing scheduled) for a customer who opted out; a utility one is scheduled', async () => {
    const owner = await registerTenant(t.app);
    const promo = await approvedTemplate(t, owner, PROMO);
    const aviso = await approvedTemplate(t, owner, AVISO);
    await customerWrites(owner, '5215570000040', 'BAJA');
    const card = await chatOf(owner, '5215570000040');
    const refused = await call(owner, 'POST', '/message/schedule', { cardId: card.id, scheduledFor: inHours(48), templateId: promo.id, variables: ['Ana'] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(MARKETING_OPTED_OUT);
    expect(await db().select().from(scheduledMessages).where(eq(scheduledMessages.cardId, card.id))).toHaveLength(0);
    const scheduled = await call(owner, 'POST', '/message/schedule', { cardId: card.id, scheduledFor: inHours(48), templateId: aviso.id, variables: ['Ana'] });
    expect(scheduled.statusCode, scheduled.body).toBe(201);
  });

  it('fails with the reason, unsent, when the customer opted out after it was scheduled', async () => {
    const owner = await registerTenant(t.app);
    const promo = await approvedTemplate(t, owner, PROMO);
    await customerWrites(owner, '5215570000041', 'hola');
    const card = await chatOf(owner, '5215570000041');
    const scheduled = await call(owner, 'POST', '/message/schedule', { cardId: card.id, scheduledFor: inHours(48), templateId: promo.id, variables: ['Ana'] });
    expect(scheduled.statusCode, scheduled.body).toBe(201);
    await customerWrites(owner, '5215570000041', 'Stop');
    await db()
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(and(eq(jobs.tenantId, owner.tenant.id), eq(jobs.name, 'chats.send-scheduled')));
    await t.app.queue.drain();
    const [item] = await db().select().from(scheduledMessages).where(eq(scheduledMessages.id, scheduled.json().id));
    expect(item).toMatchObject({ status: 'failed', errorReason: MARKETING_OPTED_OUT });
    expect(await outboundOf(owner)).toHaveLength(0);
  });
});

describe('the chat timeline context', () => {
  it("answers the chat's ad referral and its customer's marketing choice on every page", async () => {
    const owner = await registerTenant(t.app);
    await customerWrites(owner, '5215570000010', 'hola');
    const card = await chatOf(owner, '5215570000010');
    const timeline = async (query = '') => (await call(owner, 'GET', `/cards/${card.id}/messages${query}`)).json();
    expect((await timeline()).context).toEqual({ adReferral: null, marketingOptedOutAt: null });

    await db()
      .update(cards)
      .set({ adReferral: { headline: 'Corte 2x1', sourceUrl: 'https://fb.me/anuncio', sourceId: '120', sourceType: 'ad', clickId: 'ctwa-1' } })
      .where(eq(cards.id, card.id));
    await customerWrites(owner, '5215570000010', 'BAJA');
    const [optedOut] = await db().select().from(contacts).where(eq(contacts.id, card.contactId));
    const expected = {
      adReferral: { headline: 'Corte 2x1', sourceUrl: 'https://fb.me/anuncio', sourceId: '120', sourceType: 'ad' },
      marketingOptedOutAt: optedOut!.marketingOptedOutAt!.toISOString(),
    };
    const first = await timeline('?limit=1');
    expect(first.context).toEqual(expected);
    expect((await timeline(`?limit=1&cursor=${first.nextCursor}`)).context).toEqual(expected);
  });

  it("is another company's chat: 404", async () => {
    const owner = await registerTenant(t.app);
    const stranger = await registerTenant(t.app);
    await customerWrites(owner, '5215570000011', 'hola');
    const card = await chatOf(owner, '5215570000011');
    expect((await call(stranger, 'GET', `/cards/${card.id}/messages`)).statusCode).toBe(404);
  });
});

describe('Baja de marketing: the opt-out words', () => {
  const storedOf = async (owner: Owner) =>
    (await db().select({ keywords: providerSettings.optOutKeywords }).from(providerSettings).where(eq(providerSettings.tenantId, owner.tenant.id)))[0]
      ?.keywords ?? null;

  it('answers the defaults until the company saves its own: trimmed, in capitals, each once', async () => {
    const owner = await registerTenant(t.app);
    expect((await call(owner, 'GET', '/whatsapp/opt-out-keywords')).json()).toEqual({ keywords: ['STOP', 'BAJA'] });
    const saved = await call(owner, 'PUT', '/whatsapp/opt-out-keywords', { keywords: [' baja ', 'Cancelar', 'BAJA', 'alto2'] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ keywords: ['BAJA', 'CANCELAR', 'ALTO2'] });
    expect((await call(owner, 'GET', '/whatsapp/opt-out-keywords')).json()).toEqual({ keywords: ['BAJA', 'CANCELAR', 'ALTO2'] });
    expect(await storedOf(owner)).toEqual(['BAJA', 'CANCELAR', 'ALTO2']);
  });

  it("stops marketing on the company's own words (case and accents aside), and no longer on a default it dropped", async () => {
    const owner = await registerTenant(t.app);
    await call(owner, 'PUT', '/whatsapp/opt-out-keywords', { keywords: ['Cancelar'] });
    await customerWrites(owner, '5215570000020', 'STOP');
    expect((await contactOf(owner, '5215570000020'))?.marketingOptedOutAt ?? null).toBeNull();
    await customerWrites(owner, '5215570000021', 'cancelár!');
    expect((await contactOf(owner, '5215570000021'))?.marketingOptedOutAt).toBeTruthy();
  });

  it.each([
    ['no list', {}, OPT_OUT_KEYWORDS_LIST],
    ['an empty list', { keywords: [] }, OPT_OUT_KEYWORDS_REQUIRED],
    ['a text instead of a list', { keywords: 'BAJA, STOP' }, OPT_OUT_KEYWORDS_LIST],
    ['more than 20 words', { keywords: Array.from({ length: 21 }, (_, i) => `PALABRA${i}`) }, OPT_OUT_KEYWORDS_TOO_MANY],
    ['a one-letter word', { keywords: ['BAJA', ' x '] }, '«x»: cada palabra de baja debe tener entre 2 y 30 caracteres.'],
    ['a blank word', { keywords: ['BAJA', '   '] }, 'Una palabra de baja no puede estar vacía.'],
    [
      'a word over 30 characters',
      { keywords: ['A'.repeat(31)] },
      `«${'A'.repeat(30)}…» es demasiado larga: cada palabra de baja debe tener entre 2 y 30 caracteres.`,
    ],
    ['two words in one', { keywords: ['no más'] }, '«no más»: una palabra de baja lleva solo letras y números, sin espacios ni signos.'],
    ['punctuation', { keywords: ['BAJA!'] }, '«BAJA!»: una palabra de baja lleva solo letras y números, sin espacios ni signos.'],
    ['a number instead of a word', { keywords: [12] }, 'Cada palabra de baja debe ser un texto.'],
  ])('refuses %s with 400 and a Spanish message, writing nothing', async (_label, body, message) => {
    const owner = await registerTenant(t.app);
    await call(owner, 'PUT', '/whatsapp/opt-out-keywords', { keywords: ['ALTO'] });
    const response = await call(owner, 'PUT', '/whatsapp/opt-out-keywords', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect(await storedOf(owner)).toEqual(['ALTO']);
  });

  it('is for owners and admins: agents and viewers get 403 and change nothing; each company keeps its own words', async () => {
    const owner = await registerTenant(t.app);
    const other = await registerTenant(t.app);
    const admin = await signInMember(t, owner, 'admin');
    expect((await call(admin, 'PUT', '/whatsapp/opt-out-keywords', { keywords: ['ALTO'] })).statusCode).toBe(200);
    for (const role of ['agent', 'viewer'] as const) {
      const member = await signInMember(t, owner, role);
      expect((await call(member, 'GET', '/whatsapp/opt-out-keywords')).statusCode).toBe(403);
      expect((await call(member, 'PUT', '/whatsapp/opt-out-keywords', { keywords: ['NUNCA'] })).statusCode).toBe(403);
    }
    expect(await storedOf(owner)).toEqual(['ALTO']);
    expect((await call(other, 'GET', '/whatsapp/opt-out-keywords')).json()).toEqual({ keywords: ['STOP', 'BAJA'] });
    await customerWrites(other, '5215570000030', 'ALTO');
    expect((await contactOf(other, '5215570000030'))?.marketingOptedOutAt ?? null).toBeNull();
  });
});
