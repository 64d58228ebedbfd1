import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { INITIATE_PHONE_INVALID } from '@embudo/contracts/http/chats';
import { cards, contacts, jobs, messages, messageTemplates, scheduledMessages, usageEvents } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { signInMember } from '../../../test/support/members.ts';
import { connectClient, joinTenant, listenOnRandomPort, nextEvent, type TestSocket } from '../../../test/support/realtime-client.ts';
import { approvedTemplate, multipartFile, PNG_PIXEL, syncUntilReviewed, until } from '../../../test/support/templates.ts';
import type { FakeGupshup } from '../../messaging-providers/sandbox/fake-gupshup.ts';
import { TEMPLATE_NOT_APPROVED } from '../templates/index.ts';
import { sandboxAppName } from '../tenants/index.ts';
import { CONTACT_IN_HIDDEN_FUNNEL, NO_VISIBLE_COLUMN } from './template-send.service.ts';

type Owner = Awaited<ReturnType<typeof registerTenant>>;

let t: TestApp;
let fake: FakeGupshup;
let baseUrl: string;
const sockets: TestSocket[] = [];
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
  baseUrl = await listenOnRandomPort(t.app);
  fake = t.app.sandboxPhone!;
  fake.templateReviewMs = 20;
});
afterAll(async () => {
  sockets.forEach((socket) => socket.disconnect());
  await t.close();
});

const call = (who: Owner, method: 'GET' | 'POST' | 'PUT', path: string, payload?: unknown) =>
  t.app.inject({ method, url: `/t/${who.tenant.slug}/api${path}`, headers: bearer(who.token), payload: payload as Record<string, unknown> });

const PROMO = {
  name: 'promo_verano',
  category: 'MARKETING',
  body_text: 'Hola {{1}}, tu cupón {{2}} vence pronto.',
  footer: 'Responde BAJA para no recibir más',
  buttons: [
    { type: 'QUICK_REPLY', text: 'Lo quiero' },
    { type: 'QUICK_REPLY', text: 'No, gracias' },
  ],
};

/** A chat whose contact wrote 25 hours ago: the 24-hour window is closed. */
async function closedChat(owner: Owner, phone = '5215512345678') {
  await fake.customerSends({ appName: sandboxAppName(owner.tenant), phone, name: 'Lucía', kind: 'text', text: 'hola' });
  const longAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
  const [card] = await t.database.db
    .update(cards)
    .set({ contactLastMessageAt: longAgo })
    .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, phone)))
    .returning();
  return card!;
}

const outboundOf = (tenantId: string) =>
  t.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.tenantId, tenantId), eq(messages.sender, 'user')));
const sendJobs = () => t.database.db.select().from(jobs).where(eq(jobs.name, 'chats.send-message'));
const usageOf = async (owner: Owner) => (await call(owner, 'GET', '/usage')).json();

/** Runs the queue until the message has a provider id (or failed). */
const untilSent = (messageId: string) =>
  until(async () => {
    await t.app.queue.runDueJobsOnce();
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, messageId));
    return row?.providerMessageId || row!.ack < 0 ? row : undefined;
  });

describe('POST /api/message/template', () => {
  it('sends an approved template on a chat whose window is closed, through the queue, rendered with its buttons on the phone', async () => {
    const owner = await registerTenant(t.app);
    const template = await approvedTemplate(t, owner, PROMO);
    const card = await closedChat(owner);
    // Free text is refused on this chat: only a template may reopen it.
    expect((await call(owner, 'POST', '/message', { cardId: card.id, text: 'hola', tempId: 'x' })).statusCode).toBe(400);

    const response = await call(owner, 'POST', '/message/template', {
      cardId: card.id,
      templateId: template.id,
      variables: { 1: 'Lucía', 2: 'VERANO24' },
      tempId: 'tmp-1',
    });
    expect(response.statusCode, response.body).toBe(201);
    const message = response.json();
    expect(message).toMatchObject({
      cardId: card.id,
      sender: 'user',
      type: 'template',
      ack: 0,
      tempId: 'tmp-1',
      templateId: template.id,
      text: 'Hola Lucía, tu cupón VERANO24 vence pronto.',
      payload: { params: ['Lucía', 'VERANO24'], template: { name: 'promo_verano', footer: PROMO.footer, buttons: PROMO.buttons, header: null } },
    });
    const [stored] = await t.database.db.select().from(cards).where(eq(cards.id, card.id));
    expect(stored).toMatchObject({ lastMessageType: 'template', lastMessageText: 'Hola Lucía, tu cupón VERANO24 vence pronto.' });

    const sent = await untilSent(message.id);
    const request = fake.requests.filter((entry) => entry.path === '/wa/api/v1/template/msg').at(-1)!;
    expect(request.form).toEqual({
      channel: 'whatsapp',
      source: expect.any(String),
      destination: '5215512345678',
      'src.name': sandboxAppName(owner.tenant),
      template: JSON.stringify({ id: template.provider_template_id, params: ['Lucía', 'VERANO24'] }),
    });
    expect(sent!.providerMessageId).toBeTruthy();

    const [onPhone] = (await fake.conversation(sandboxAppName(owner.tenant), '5215512345678')).filter((entry) => entry.direction === 'to_customer');
    expect(onPhone!.template).toEqual({
      name: 'promo_verano',
      body: 'Hola Lucía, tu cupón VERANO24 vence pronto.',
      footer: PROMO.footer,
      buttons: [
        { type: 'QUICK_REPLY', text: 'Lo quiero' },
        { type: 'QUICK_REPLY', text: 'No, gracias' },
      ],
    });
    // The phone's delivery callbacks move the ack up to read.
    await until(async () => ((await t.database.db.select().from(messages).where(eq(messages.id, message.id)))[0]!.ack === 3 ? true : undefined));
  });

  it("counts the send once, by the template's category, however often the job runs", async () => {
    const owner = await registerTenant(t.app);
    const marketing = await approvedTemplate(t, owner, PROMO);
    const utility = await approvedTemplate(t, owner, { name: 'aviso_envio', body_text: 'Tu pedido salió hoy.' });
    const card = await closedChat(owner);
    const first = (await call(owner, 'POST', '/message/template', { cardId: card.id, templateId: marketing.id, variables: ['Ana', 'X1'] })).json();
    const second = (await call(owner, 'POST', '/message/template', { cardId: card.id, templateId: utility.id })).json();
    await untilSent(first.id);
    await untilSent(second.id);
    await t.app.queue.drain();
    expect(await usageOf(owner)).toMatchObject({ sentCount: 0, marketingTemplateCount: 1, utilityTemplateCount: 1 });
    expect(await t.database.db.select().from(usageEvents).where(eq(usageEvents.messageId, first.id))).toHaveLength(1);
  });

  it('sends a media-header template with our copy of the sample as the header', async () => {
    const owner = await registerTenant(t.app);
    const form = multipartFile('media', 'promo.png', PNG_PIXEL);
    const upload = (
      await t.app.inject({
        method: 'POST',
        url: `/t/${owner.tenant.slug}/api/templates/media`,
        headers: { ...bearer(owner.token), ...form.headers },
        payload: form.body,
      })
    ).json();
    const template = await approvedTemplate(t, owner, { ...PROMO, header: { type: 'IMAGE', example_handle: upload.handleId, media_url: upload.url } });
    const card = await closedChat(owner);
    const message = (await call(owner, 'POST', '/message/template', { cardId: card.id, templateId: template.id, variables: { 1: 'Ana', 2: 'B2' } })).json();
    expect(message.payload.template.header).toEqual({ type: 'IMAGE', media_url: upload.url });
    await untilSent(message.id);
    const request = fake.requests.filter((entry) => entry.path === '/wa/api/v1/template/msg').at(-1)!;
    const header = JSON.parse(request.form.message!);
    // An absolute URL: the provider fetches the header file from us.
    expect(header).toEqual({ type: 'image', image: { link: expect.stringMatching(new RegExp(`^https?://[^/]+${upload.url}$`)) } });
    const [onPhone] = (await fake.conversation(sandboxAppName(owner.tenant), card.phone)).filter((entry) => entry.direction === 'to_customer');
    expect(onPhone!.template!.header).toEqual({ type: 'IMAGE', url: header.image.link });
    const fetched = await t.app.inject({ method: 'GET', url: new URL(header.image.link).pathname });
    expect(fetched.rawPayload.equals(PNG_PIXEL)).toBe(true);
  });

  it.each([
    ['no template', { templateId: undefined }, 'Plantilla inválida.'],
    ['a bad template id', { templateId: 'promo' }, 'Plantilla inválida.'],
    ['a missing variable', { variables: { 1: 'Ana' } }, 'Completa la Variable 2 de la plantilla.'],
    ['a blank variable', { variables: ['Ana', '  '] }, 'Completa la Variable 2 de la plantilla.'],
    ['variables of the wrong type', { variables: 'Ana' }, undefined],
    ['a bad chat id', { cardId: 'chat-1' }, 'Chat inválido.'],
  ])('refuses %s with 400 and writes nothing', async (_label, overrides, message) => {
    const owner = await registerTenant(t.app);
    const template = await approvedTemplate(t, owner, PROMO);
    const card = await closedChat(owner);
    const jobsBefore = (await sendJobs()).length;
    const response = await call(owner, 'POST', '/message/template', {
      cardId: card.id,
      templateId: template.id,
      variables: { 1: 'Ana', 2: 'C' },
      ...overrides,
    });
    expect(response.statusCode).toBe(400);
    if (message) expect(response.json().message).toBe(message);
    else expect(response.json().message).toEqual(expect.any(String));
    expect(await outboundOf(owner.tenant.id)).toHaveLength(0);
    expect(await sendJobs()).toHaveLength(jobsBefore);
  });

  it('refuses a template that is not approved (pending or rejected) with 400 and writes nothing', async () => {
    const owner = await registerTenant(t.app);
    const card = await closedChat(owner);
    const pending = (await call(owner, 'POST', '/templates', { name: 'pendiente', body_text: 'Hola' })).json();
    const rejected = (await call(owner, 'POST', '/templates', { name: 'mala', body_text: 'Por favor rechazar' })).json();
    expect((await syncUntilReviewed(t, owner, rejected.id)).status).toBe('REJECTED');
    await t.database.db.update(messageTemplates).set({ status: 'PENDING' }).where(eq(messageTemplates.id, pending.id));
    for (const templateId of [pending.id, rejected.id]) {
      const response = await call(owner, 'POST', '/message/template', { cardId: card.id, templateId });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(TEMPLATE_NOT_APPROVED);
    }
    expect(await outboundOf(owner.tenant.id)).toHaveLength(0);
  });

  it("answers 404 to another tenant's template or chat, writing nothing", async () => {
    const a = await registerTenant(t.app);
    const b = await registerTenant(t.app);
    const theirTemplate = await approvedTemplate(t, b, PROMO);
    const theirCard = await closedChat(b, '5215500000001');
    const ourTemplate = await approvedTemplate(t, a, PROMO);
    const ourCard = await closedChat(a, '5215500000002');
    const withTheirTemplate = await call(a, 'POST', '/message/template', { cardId: ourCard.id, templateId: theirTemplate.id, variables: ['x', 'y'] });
    expect(withTheirTemplate.statusCode).toBe(404);
    expect(withTheirTemplate.json().message).toBe('Template not found.');
    const onTheirCard = await call(a, 'POST', '/message/template', { cardId: theirCard.id, templateId: ourTemplate.id, variables: ['x', 'y'] });
    expect(onTheirCard.statusCode).toBe(404);
    expect(await outboundOf(a.tenant.id)).toHaveLength(0);
    expect(await outboundOf(b.tenant.id)).toHaveLength(0);
  });

  it('lets an agent send on a funnel they see, not on one they do not (404), and never a viewer (403)', async () => {
    const owner = await registerTenant(t.app);
    const template = await approvedTemplate(t, owner, { name: 'hola', body_text: 'Hola' });
    const card = await closedChat(owner);
    const agent = await signInMember(t, owner, 'agent', [card.funnelId]);
    const outsider = await signInMember(t, owner, 'agent', []);
    const viewer = await signInMember(t, owner, 'viewer', [card.funnelId]);
    expect((await call(agent, 'POST', '/message/template', { cardId: card.id, templateId: template.id })).statusCode).toBe(201);
    expect((await call(outsider, 'POST', '/message/template', { cardId: card.id, templateId: template.id })).statusCode).toBe(404);
    expect((await call(viewer, 'POST', '/message/template', { cardId: card.id, templateId: template.id })).statusCode).toBe(403);
    expect(await outboundOf(owner.tenant.id)).toHaveLength(1);
  });

  it("marks the message failed with the provider's reason when it refuses the template after accepting the send, and un-bills it", async () => {
    const owner = await registerTenant(t.app);
    const template = await approvedTemplate(t, owner, { name: 'pausada', body_text: 'Tu cita es mañana.' });
    // Meta paused it after approving it: Gupshup still accepts the send, then reports it failed.
    fake.templatesOf(sandboxAppName(owner.tenant)).find((held) => held.id === template.provider_template_id)!.status = 'PAUSED';
    const card = await closedChat(owner);
    const message = (await call(owner, 'POST', '/message/template', { cardId: card.id, templateId: template.id })).json();
    await untilSent(message.id);
    const failed = await until(async () => {
      const [row] = await t.database.db.select().from(messages).where(eq(messages.id, message.id));
      return row!.ack === -1 ? row : undefined;
    });
    expect(failed).toMatchObject({ errorReason: 'Plantilla pausada por Meta por baja calidad: edítala o usa otra plantilla', errorCode: '4005' });
    const timeline = (await call(owner, 'GET', `/cards/${card.id}/messages`)).json();
    expect(JSON.stringify(timeline)).toContain('Plantilla pausada por Meta por baja calidad: edítala o usa otra plantilla');
    expect(await usageOf(owner)).toMatchObject({ utilityTemplateCount: 0, totalCost: 0, failedUnbilledCount: 1 });
  });
});

describe('POST /api/initiate-conversation', () => {
  const firstColumnOf = async (owner: Owner) => {
    const [funnel] = (await call(owner, 'GET', '/funnels/summary')).json();
    const board = (await call(owner, 'GET', `/funnels/${funnel.id}/board`)).json();
    return { funnel, columns: board.columns as Array<{ id: string; title: string }> };
  };
  const contactsOf = (tenantId: string) => t.database.db.select().from(contacts).where(eq(contacts.tenantId, tenantId));

  it('creates the contact and the chat in the first column, sends the template and tells the board', async () => {
    const owner = await registerTenant(t.app);
    const template = await approvedTemplate(t, owner, PROMO);
    const { columns } = await firstColumnOf(owner);
    const socket = connectClient(baseUrl, owner.token, owner.tenant.slug);
    sockets.push(socket);
    await joinTenant(socket, owner.tenant.slug, owner.token);
    const cardUpdated = nextEvent(socket, 'card_updated');
    const newMessage = nextEvent(socket, 'message:new');
    const response = await call(owner, 'POST', '/initiate-conversation', {
      templateId: template.id,
      phoneNumber: '5215587654321',
      variables: { 1: 'Pablo', 2: 'P9' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const answer = response.json();
    expect(await cardUpdated).toMatchObject({ id: answer.cardId, created: true, columnId: columns[0]!.id });
    expect((await newMessage).message).toMatchObject({ id: answer.message.id, type: 'template' });
    expect(answer).toMatchObject({
      created: true,
      card: { columnId: columns[0]!.id, phone: '5215587654321', title: '5215587654321', lastMessageType: 'template', contactLastMessageAt: null },
      message: { type: 'template', text: 'Hola Pablo, tu cupón P9 vence pronto.', ack: 0 },
    });
    await untilSent(answer.message.id);
    const [onPhone] = await fake.conversation(sandboxAppName(owner.tenant), '5215587654321');
    expect(onPhone!.template!.body).toBe('Hola Pablo, tu cupón P9 vence pronto.');

    // The same number again: the same contact and chat.
    const again = await call(owner, 'POST', '/initiate-conversation', { templateId: template.id, phoneNumber: '5215587654321', variables: ['Pablo', 'P10'] });
    expect(again.json()).toMatchObject({ created: false, cardId: answer.cardId });
    expect(await contactsOf(owner.tenant.id)).toHaveLength(1);
  });

  it("titles a chat started by phone with the customer's profile name once it arrives, and never undoes a rename by hand", async () => {
    const owner = await registerTenant(t.app);
    const template = await approvedTemplate(t, owner, PROMO);
    const phone = '5215511112222';
    const started = (
      await call(owner, 'POST', '/initiate-conversation', { templateId: template.id, phoneNumber: phone, variables: { 1: 'Ana', 2: 'A1' } })
    ).json();
    expect(started.card.title).toBe(phone);
    const titleOf = async () => (await t.database.db.select().from(cards).where(eq(cards.id, started.cardId)))[0]!.title;

    const app = sandboxAppName(owner.tenant);
    await fake.customerSends({ appName: app, phone, kind: 'text', text: 'Sin nombre de perfil todavía' });
    expect(await titleOf()).toBe(phone);
    await fake.customerSends({ appName: app, phone, name: 'Ana Pérez', kind: 'text', text: 'Hola, soy Ana' });
    expect(await titleOf()).toBe('Ana Pérez');
    await fake.customerSends({ appName: app, phone, name: 'Ana P. 🌸', kind: 'text', text: 'Cambié mi nombre' });
    expect(await titleOf()).toBe('Ana P. 🌸');

    expect((await call(owner, 'PUT', `/cards/${started.cardId}`, { title: 'Ana (mayorista)' })).statusCode).toBe(200);
    await fake.customerSends({ appName: app, phone, name: 'Ana', kind: 'text', text: '¿Siguen ahí?' });
    expect(await titleOf()).toBe('Ana (mayorista)');
  });

  it('puts the new chat in the column the request names', async () => {
    const owner = await registerTenant(t.app);
    const template = await approvedTemplate(t, owner, { name: 'hola', body_text: 'Hola' });
    const { columns } = await firstColumnOf(owner);
    const response = await call(owner, 'POST', '/initiate-conversation', { templateId: template.id, phoneNumber: '5215511110000', columnId: columns[2]!.id });
    expect(response.json().card.columnId).toBe(columns[2]!.id);
  });

  it.each([
    ['a plus sign', '+5215512345678', INITIATE_PHONE_INVALID],
    ['spaces', '52 155 1234 5678', INITIATE_PHONE_INVALID],
    ['too few digits', '5512', INITIATE_PHONE_INVALID],
    ['no phone', undefined, INITIATE_PHONE_INVALID],
  ])('refuses a phone with %s with 400 and writes nothing', async (_label, phoneNumber, message) => {
    const owner = await registerTenant(t.app);
    const template = await approvedTemplate(t, owner, { name: 'hola', body_text: 'Hola' });
    const response = await call(owner, 'POST', '/initiate-conversation', { templateId: template.id, phoneNumber });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect(await contactsOf(owner.tenant.id)).toHaveLength(0);
  });

  it('refuses a template that is not approved, or lacks a variable, before creating any contact or chat', async () => {
    const owner = await registerTenant(t.app);
    const pending = (await call(owner, 'POST', '/templates', { name: 'pendiente', body_text: 'Hola' })).json();
    await t.database.db.update(messageTemplates).set({ status: 'PENDING' }).where(eq(messageTemplates.id, pending.id));
    const notApproved = await call(owner, 'POST', '/initiate-conversation', { templateId: pending.id, phoneNumber: '5215522220000' });
    expect(notApproved.statusCode).toBe(400);
    expect(notApproved.json().message).toBe(TEMPLATE_NOT_APPROVED);
    const template = await approvedTemplate(t, owner, PROMO);
    const missing = await call(owner, 'POST', '/initiate-conversation', { templateId: template.id, phoneNumber: '5215522220000', variables: { 1: 'Ana' } });
    expect(missing.statusCode).toBe(400);
    expect(await contactsOf(owner.tenant.id)).toHaveLength(0);
    expect(await t.database.db.select().from(cards).where(eq(cards.tenantId, owner.tenant.id))).toHaveLength(0);
  });

  it("answers 404 to another tenant's template or column", async () => {
    const a = await registerTenant(t.app);
    const b = await registerTenant(t.app);
    const theirs = await approvedTemplate(t, b, { name: 'hola', body_text: 'Hola' });
    const ours = await approvedTemplate(t, a, { name: 'hola', body_text: 'Hola' });
    const { columns } = await firstColumnOf(b);
    expect((await call(a, 'POST', '/initiate-conversation', { templateId: theirs.id, phoneNumber: '5215533330000' })).statusCode).toBe(404);
    const inTheirColumn = await call(a, 'POST', '/initiate-conversation', { templateId: ours.id, phoneNumber: '5215533330000', columnId: columns[0]!.id });
    expect(inTheirColumn.statusCode).toBe(404);
    expect(inTheirColumn.json().message).toBe('Columna no encontrada.');
    expect(await contactsOf(a.tenant.id)).toHaveLength(0);
    expect(await contactsOf(b.tenant.id)).toHaveLength(0);
  });

  it('follows funnel access: an agent starts chats in a funnel they see, never a viewer', async () => {
    const owner = await registerTenant(t.app);
    const template = await approvedTemplate(t, owner, { name: 'hola', body_text: 'Hola' });
    const { funnel, columns } = await firstColumnOf(owner);
    const second = (await call(owner, 'POST', '/funnels', { name: 'Postventa' })).json();
    const secondColumn = (await call(owner, 'POST', '/columns', { funnelId: second.id, title: 'Entrada' })).json();

    const agent = await signInMember(t, owner, 'agent', [second.id]);
    const started = await call(agent, 'POST', '/initiate-conversation', { templateId: template.id, phoneNumber: '5215544440000' });
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json().card).toMatchObject({ funnelId: second.id, columnId: secondColumn.id });
    expect(
      (await call(agent, 'POST', '/initiate-conversation', { templateId: template.id, phoneNumber: '5215544440001', columnId: columns[0]!.id })).statusCode,
    ).toBe(404);

    // A contact whose chat is in a funnel the agent does not see stays where it is.
    await call(owner, 'POST', '/initiate-conversation', { templateId: template.id, phoneNumber: '5215544440002' });
    const hidden = await call(agent, 'POST', '/initiate-conversation', { templateId: template.id, phoneNumber: '5215544440002' });
    expect(hidden.statusCode).toBe(403);
    expect(hidden.json().message).toBe(CONTACT_IN_HIDDEN_FUNNEL);

    const noFunnels = await signInMember(t, owner, 'agent', []);
    const nowhere = await call(noFunnels, 'POST', '/initiate-conversation', { templateId: template.id, phoneNumber: '5215544440003' });
    expect(nowhere.statusCode).toBe(400);
    expect(nowhere.json().message).toBe(NO_VISIBLE_COLUMN);

    const viewer = await signInMember(t, owner, 'viewer', [funnel.id]);
    expect((await call(viewer, 'POST', '/initiate-conversation', { templateId: template.id, phoneNumber: '5215544440004' })).statusCode).toBe(403);
    expect((await contactsOf(owner.tenant.id)).map((row) => row.phone).sort()).toEqual(['5215544440000', '5215544440002']);
  });
});

describe('scheduled templates', () => {
  it('refuses to schedule a template with a variable missing, writing nothing', async () => {
    const owner = await registerTenant(t.app);
    const template = await approvedTemplate(t, owner, PROMO);
    const card = await closedChat(owner);
    const response = await call(owner, 'POST', '/message/schedule', {
      cardId: card.id,
      scheduledFor: new Date(Date.now() + 60 * 60_000).toISOString(),
      templateId: template.id,
      variables: { 1: 'Ana' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Completa la Variable 2 de la plantilla.');
    expect(await t.database.db.select().from(scheduledMessages).where(eq(scheduledMessages.cardId, card.id))).toHaveLength(0);
  });

  it('sends a scheduled template at its time as a template message', async () => {
    const owner = await registerTenant(t.app);
    const template = await approvedTemplate(t, owner, PROMO);
    const card = await closedChat(owner);
    const scheduled = await call(owner, 'POST', '/message/schedule', {
      cardId: card.id,
      scheduledFor: new Date(Date.now() + 60 * 60_000).toISOString(),
      templateId: template.id,
      variables: { 1: 'Ana', 2: 'Z' },
    });
    expect(scheduled.statusCode, scheduled.body).toBe(201);
    await t.database.db
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(eq(jobs.name, 'chats.send-scheduled'));
    await t.app.queue.drain();
    const [item] = await t.database.db.select().from(scheduledMessages).where(eq(scheduledMessages.id, scheduled.json().id));
    expect(item).toMatchObject({ status: 'sent' });
    const [message] = await outboundOf(owner.tenant.id);
    expect(message).toMatchObject({ id: item!.sentMessageId, type: 'template', text: 'Hola Ana, tu cupón Z vence pronto.', templateCategory: 'MARKETING' });
  });
});
