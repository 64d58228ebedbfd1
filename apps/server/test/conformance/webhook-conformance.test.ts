import { createHmac, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Timeline } from '@embudo/contracts/http/chats';
import { cards, contacts, messages, messageTemplates, notes, providerSettings, webhookRejections } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { bearer, registerTenant } from '../support/factories.ts';
import { findOrCreateCard } from '../../src/modules/funnels/index.ts';
import { upsertContact } from '../../src/modules/chats/index.ts';

/**
 * Real webhook payloads, collected from providers' public documentation and open-source projects (each fixture
 * names its source; payloads/SOURCES.md lists them), posted through the real webhook route as the provider sends
 * them, and checked by what the chat then shows through the API. Each fixture gets a company of its own.
 */

type Json = Record<string, unknown>;
interface Fixture {
  file: string;
  provider: 'meta' | 'gupshup';
  kind: string;
  description: string;
  payload: Json;
}

const folder = new URL('./payloads/', import.meta.url);
const fixtures: Fixture[] = (['meta', 'gupshup'] as const).flatMap((provider) =>
  readdirSync(new URL(`${provider}/`, folder))
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const { kind, description, payload } = JSON.parse(readFileSync(new URL(`${provider}/${file}`, folder), 'utf8')) as Omit<Fixture, 'file' | 'provider'>;
      return { file, provider, kind, description, payload };
    }),
);

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

/** Every object in the payload, depth first: the harness looks for the fields a kind is about wherever they are. */
function* objects(value: unknown): Generator<Json> {
  if (Array.isArray(value)) for (const item of value) yield* objects(item);
  else if (isObject(value)) {
    yield value;
    for (const inner of Object.values(value)) yield* objects(inner);
  }
}

/** The Meta-format message objects of a payload (Meta's, or Gupshup's v3 callbacks). */
const metaMessages = (payload: Json) =>
  list(payload.entry).flatMap((entry) => list(entry.changes).flatMap((change) => (isObject(change.value) ? list(change.value.messages) : [])));
const metaStatuses = (payload: Json) =>
  list(payload.entry).flatMap((entry) => list(entry.changes).flatMap((change) => (isObject(change.value) ? list(change.value.statuses) : [])));
const isMetaFormat = (payload: Json) => Array.isArray(payload.entry);

/** Digits only: how a customer's phone is stored. */
const phoneOf = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : undefined);

/** The customer a payload is about. */
function customerPhone(fixture: Fixture): string | undefined {
  const payload = fixture.payload;
  if (isMetaFormat(payload)) {
    return phoneOf(metaMessages(payload)[0]?.from) ?? phoneOf(metaStatuses(payload)[0]?.recipient_id);
  }
  const inner = isObject(payload.payload) ? payload.payload : {};
  return phoneOf(inner.source) ?? phoneOf(isObject(inner.sender) ? inner.sender.phone : undefined) ?? phoneOf(inner.destination) ?? phoneOf(inner.phone);
}

/** The customer of a payload that carries no message or status (a marketing preference): its first `wa_id`. */
const anyCustomer = (fixture: Fixture) => {
  for (const object of objects(fixture.payload)) if (typeof object.wa_id === 'string') return object.wa_id;
  return undefined;
};

let t: TestApp;
let numbers = 300_000_000_000_000;

beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
});
afterAll(async () => t.close());

type Owner = Awaited<ReturnType<typeof registerTenant>>;

async function companyFor(fixture: Fixture) {
  const owner = await registerTenant(t.app);
  const call = (method: 'GET' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api${url}`, headers: bearer(owner.token), ...(payload ? { payload } : {}) });
  if (fixture.provider === 'gupshup') {
    const settings = (await call('GET', '/whatsapp/settings')).json() as { gupshupWebhookUrl: string };
    return { owner, url: new URL(settings.gupshupWebhookUrl).pathname, appSecret: undefined, phoneNumberId: undefined };
  }
  const phoneNumberId = String(++numbers);
  const appSecret = `secreto-${phoneNumberId}`;
  const saved = await call('PUT', '/whatsapp/settings', {
    provider: 'meta',
    phoneNumberId,
    wabaId: '204567890123456',
    accessToken: `EAAG-${phoneNumberId}`,
    appSecret,
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return { owner, url: new URL((saved.json() as { metaWebhookUrl: string }).metaWebhookUrl).pathname, appSecret, phoneNumberId };
}

/** Meta's changes name the company's number: the fixture's number becomes the company's. */
function forCompany(payload: Json, phoneNumberId: string | undefined): Json {
  if (!phoneNumberId) return payload;
  const copy = structuredClone(payload);
  for (const object of objects(copy)) if (isObject(object.metadata) && 'phone_number_id' in object.metadata) object.metadata.phone_number_id = phoneNumberId;
  return copy;
}

async function post(company: Awaited<ReturnType<typeof companyFor>>, body: string) {
  const signature = company.appSecret ? { 'x-hub-signature-256': `sha256=${createHmac('sha256', company.appSecret).update(body).digest('hex')}` } : {};
  return t.app.inject({ method: 'POST', url: company.url, headers: { 'content-type': 'application/json', ...signature }, payload: body });
}

/** A chat for the customer with one message of ours (the one statuses and reactions name) or of theirs (edits, deletions). */
async function seedMessage(
  owner: Owner,
  phone: string,
  ids: { providerMessageId?: string; whatsappMessageId?: string },
  sender: 'user' | 'contact',
  text = 'Mensaje de antes',
) {
  const contact = await upsertContact(t.database.db, owner.tenant.id, { phone, isGroup: false });
  const { card } = await findOrCreateCard(t.database.db, owner.tenant.id, contact);
  const [row] = await t.database.db
    .insert(messages)
    .values({
      tenantId: owner.tenant.id,
      cardId: card.id,
      sender,
      text,
      type: 'text',
      providerMessageId: ids.providerMessageId ?? ids.whatsappMessageId ?? randomUUID(),
      whatsappMessageId: ids.whatsappMessageId ?? null,
      ack: sender === 'user' ? 0 : 3,
      createdAt: new Date(Date.UTC(2020, 0, 1)),
    })
    .returning();
  return { card, message: row! };
}

async function timelineOf(owner: Owner, cardId: string): Promise<Timeline> {
  const answer = await t.app.inject({ method: 'GET', url: `/api/cards/${cardId}/messages`, headers: bearer(owner.token) });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as Timeline;
}

async function cardOf(owner: Owner, phone: string) {
  const [card] = await t.database.db
    .select()
    .from(cards)
    .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, phone)));
  return card;
}

const rejectionsOf = (owner: Owner) => t.database.db.select().from(webhookRejections).where(eq(webhookRejections.tenantId, owner.tenant.id));

/** What a Meta-format message's visible text is, by its type. */
function metaMessageText(message: Json): string | undefined {
  const type = String(message.type);
  const inner = isObject(message[type]) ? (message[type] as Json) : {};
  if (type === 'text') return String(inner.body);
  if (type === 'button') return String(inner.text ?? inner.payload);
  if (type === 'interactive') {
    const reply = isObject(inner[String(inner.type)]) ? (inner[String(inner.type)] as Json) : {};
    return typeof reply.title === 'string' ? reply.title : undefined;
  }
  return typeof inner.caption === 'string' ? inner.caption : undefined;
}

/** The template a review event names (Meta's `message_template_status_update`, Gupshup's `template-event` status-update) and the status it should leave. */
function templateReviewOf(payload: Json): { id: string; name: string; status: string } | undefined {
  for (const object of objects(payload)) {
    if (typeof object.message_template_name === 'string' && typeof object.event === 'string')
      return { id: String(object.message_template_id), name: object.message_template_name, status: object.event };
    if (object.type === 'status-update' && typeof object.elementName === 'string' && typeof object.status === 'string')
      return { id: String(object.id), name: object.elementName, status: object.status.toUpperCase() };
  }
  return undefined;
}

const changeKinds = new Set(['reaction', 'reaction-removed', 'edit', 'revoke', 'v3-reaction', 'status-deleted']);
const noChatKinds = /^(v3-)?(account-|billing-|onboarding-|template-|phone-|business-|smb-|set-callback|call$|group-status|user-event-sandbox)/;

describe.each(fixtures)('$provider/$file', (fixture) => {
  it(`${fixture.kind}: ${fixture.description.slice(0, 90)}`, async () => {
    const company = await companyFor(fixture);
    const { owner } = company;
    const payload = forCompany(fixture.payload, company.phoneNumberId);
    const phone = customerPhone(fixture) ?? anyCustomer(fixture);
    const metaFormat = isMetaFormat(payload);
    const message = metaFormat ? metaMessages(payload)[0] : undefined;
    const v2 = !metaFormat && isObject(payload.payload) ? payload.payload : undefined;
    const kind = fixture.kind.replace(/^v3-/, '');

    // What the payload names must be in the chat before it arrives: our sent message for statuses and reactions, the
    // customer's for edits and deletions.
    let seeded: Awaited<ReturnType<typeof seedMessage>> | undefined;
    if (kind.startsWith('status-') && kind !== 'status-deleted' && phone) {
      const status = metaFormat ? metaStatuses(payload)[0]! : v2!;
      const gupshupId =
        phoneOf(status.gs_id) ?? phoneOf(status.gsId) ?? (kind === 'status-enqueued' || kind === 'status-failed' ? phoneOf(status.id) : undefined);
      const whatsappId = phoneOf(status.meta_msg_id) ?? (gupshupId === phoneOf(status.id) ? undefined : phoneOf(status.id));
      seeded = await seedMessage(owner, phone, { providerMessageId: gupshupId ?? whatsappId, whatsappMessageId: whatsappId }, 'user');
    } else if ((kind === 'reaction' || kind === 'reaction-removed') && phone) {
      const reaction = message ? (message.reaction as Json) : (v2!.payload as Json);
      const target = phoneOf(reaction.message_id) ?? phoneOf(reaction.id);
      seeded = await seedMessage(owner, phone, { providerMessageId: phoneOf(reaction.gsId) ?? target, whatsappMessageId: target }, 'user');
      if (kind === 'reaction-removed')
        await t.database.db
          .update(messages)
          .set({ reactions: [{ emoji: '👍', phone, at: '2020-01-01T00:00:00.000Z' }] })
          .where(eq(messages.id, seeded.message.id));
    } else if ((kind === 'edit' || kind === 'revoke') && phone && message) {
      const target = phoneOf((message[kind] as Json).original_message_id)!;
      seeded = await seedMessage(owner, phone, { whatsappMessageId: target }, 'contact', 'Texto original');
    } else if (kind === 'status-deleted' && phone) {
      seeded = await seedMessage(owner, phone, { whatsappMessageId: phoneOf(v2!.id) }, 'contact', 'Texto original');
    }

    // A template review names a template of the company: it is there, waiting for its review.
    const review = templateReviewOf(payload);
    const template = review
      ? (
          await t.database.db
            .insert(messageTemplates)
            .values({
              tenantId: owner.tenant.id,
              name: review.name,
              category: 'UTILITY',
              languageCode: 'en_US',
              bodyText: 'Hola {{1}}',
              status: 'PENDING',
              providerTemplateId: review.id,
              updatedAt: new Date(Date.UTC(2020, 0, 1)),
            })
            .returning()
        )[0]
      : undefined;

    const answer = await post(company, JSON.stringify(payload));
    expect(answer.statusCode, answer.body).toBe(200);
    const refused = await rejectionsOf(owner);
    expect(refused.map((row) => `${row.kind}: ${row.reason}`)).toEqual([]);

    if (template && review) {
      const [reviewed] = await t.database.db.select().from(messageTemplates).where(eq(messageTemplates.id, template.id));
      expect(reviewed!.status).toBe(review.status);
    }

    if (noChatKinds.test(fixture.kind) || kind.startsWith('user-preferences') || kind.startsWith('preference-event') || kind.startsWith('user-event')) {
      if (phone && !changeKinds.has(kind)) expect(await cardOf(owner, phone)).toBeUndefined();
    }

    if (seeded) {
      const items = (await timelineOf(owner, seeded.card.id)).messages;
      const shown = items.find((item) => item.id === seeded!.message.id)!;
      // A change never adds a bubble: the chat still holds the one message.
      if (!kind.startsWith('status-') || kind === 'status-deleted') expect(items).toHaveLength(1);
      switch (kind) {
        case 'reaction': {
          const emoji = message ? (message.reaction as Json).emoji : (v2!.payload as Json).emoji;
          expect(shown.reactions).toEqual(emoji ? [{ emoji, from: 'contact', name: null }] : []);
          break;
        }
        case 'reaction-removed':
          expect(shown.reactions).toEqual([]);
          break;
        case 'edit': {
          const edited = (message!.edit as Json).message as Json;
          expect(shown.text).toBe(metaMessageText(edited));
          expect(shown.editedAt).toBeTruthy();
          break;
        }
        case 'revoke':
        case 'status-deleted':
          expect(shown).toMatchObject({ text: null, mediaUrl: null, payload: null });
          expect(shown.deletedAt).toBeTruthy();
          break;
        default: {
          const state = kind.replace(/^status-/, '').split('-')[0];
          const ack = { enqueued: 0, sent: 1, delivered: 2, read: 3, played: 3, failed: -1, with: undefined }[state!];
          // Meta's throughput refusal (130429) sends the message again once the number slows down: it waits at ack 0.
          const throttled = ack === -1 && /130429/.test(fixture.file);
          if (ack !== undefined) expect(shown.ack, JSON.stringify(shown)).toBe(throttled ? 0 : ack);
          else expect(shown.ack).toBeGreaterThanOrEqual(1);
          if (ack === -1) {
            expect(shown.error).toBeTruthy();
            // Spanish for the team: never the provider's English title.
            expect(shown.error).not.toMatch(/\b(the|message|failed|number|user|is|not|does)\b/i);
          }
        }
      }
      return;
    }

    if (kind.startsWith('system-')) {
      const card = await cardOf(owner, phone!);
      // A notice about a customer with no chat makes none; with a chat it is an internal note.
      expect(card).toBeUndefined();
      const seededChat = await seedMessage(owner, phone!, {}, 'contact');
      const again = await post(company, JSON.stringify(payload));
      expect(again.statusCode).toBe(200);
      const written = await t.database.db.select().from(notes).where(eq(notes.cardId, seededChat.card.id));
      expect(written.map((note) => note.authorName)).toEqual(['WhatsApp']);
      expect(written[0]!.text).toMatch(/número|código de seguridad/);
      expect((await timelineOf(owner, seededChat.card.id)).messages).toHaveLength(1);
      return;
    }

    if (kind.startsWith('user-preferences') || kind.startsWith('preference-event') || kind.startsWith('user-event-opted')) {
      const [contact] = await t.database.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.tenantId, owner.tenant.id), eq(contacts.phone, phone!)));
      const stops = /stop|opted-out/.test(fixture.file);
      if (stops) expect(contact?.marketingOptedOutAt).toBeTruthy();
      else expect(contact?.marketingOptedOutAt ?? null).toBeNull();
      return;
    }

    if (kind.startsWith('phone-quality') || fixture.file.includes('tier-event')) {
      const [settings] = await t.database.db.select().from(providerSettings).where(eq(providerSettings.tenantId, owner.tenant.id));
      expect(settings!.numberEvent).toBeTruthy();
      return;
    }

    // A customer's message: one bubble in their chat, shown as its kind, never "Unsupported media" for a known kind.
    const sentMessage = message ?? (v2 && payload.type === 'message' ? v2 : undefined);
    if (!sentMessage || !phone || noChatKinds.test(fixture.kind) || kind === 'request-welcome') return;
    const card = await cardOf(owner, phone);
    expect(card, 'a chat for the customer').toBeDefined();
    const items = (await timelineOf(owner, card!.id)).messages;
    expect(items).toHaveLength(1);
    const [shown] = items;
    if (kind === 'unsupported' || kind === 'errors-at-value-level') {
      expect(shown!.text).toBe('Unsupported media');
      expect(shown!.payload).toHaveProperty('raw');
      return;
    }
    expect(shown!.text).not.toBe('Unsupported media');
    if (message) {
      const expected = metaMessageText(message);
      if (expected !== undefined && message.type !== 'order') expect(shown!.text).toBe(expected);
    }
    if (kind === 'order') {
      expect(shown!.type).toBe('order');
      expect((shown!.payload as { order: { items: unknown[] } }).order.items.length).toBeGreaterThan(0);
    }
    if (kind === 'nfm-reply') expect(shown!.payload).toHaveProperty('flowReply');
    if (kind === 'referral') {
      expect(shown!.payload).toHaveProperty('referral');
      expect(card!.adReferral).toBeTruthy();
    }
  });
});

describe('senders that are not a phone number', () => {
  it('records the delivery as refused and makes no chat', async () => {
    const company = await companyFor({ provider: 'meta' } as Fixture);
    const body = JSON.stringify(
      forCompany(
        {
          object: 'whatsapp_business_account',
          entry: [
            {
              id: '1',
              changes: [
                {
                  field: 'messages',
                  value: {
                    metadata: { phone_number_id: '1' },
                    messages: [
                      { from: 'status@broadcast', id: 'wamid.REVOKE1', timestamp: '1718007189', type: 'revoke', revoke: { original_message_id: 'wamid.X' } },
                    ],
                  },
                },
              ],
            },
          ],
        },
        company.phoneNumberId,
      ),
    );
    expect((await post(company, body)).statusCode).toBe(200);
    const refused = await rejectionsOf(company.owner);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ kind: 'refused_sender' });
    expect(refused[0]!.reason).toContain('no es un número de teléfono');
    expect(await t.database.db.select().from(cards).where(eq(cards.tenantId, company.owner.tenant.id))).toEqual([]);
  });
});

describe('the collection', () => {
  it('holds at least 40 Meta and 20 Gupshup payloads, each naming its source', () => {
    expect(fixtures.filter((fixture) => fixture.provider === 'meta').length).toBeGreaterThanOrEqual(40);
    expect(fixtures.filter((fixture) => fixture.provider === 'gupshup').length).toBeGreaterThanOrEqual(20);
  });
});
