import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { autobotSettings, boardColumns, cards, messages, tenants } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { signedInMember } from '../../../test/support/members.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { sandboxAppName } from '../tenants/index.ts';
import { confirmationText, HANDOFF_TEXT, RETRY_INTRO } from './autobot-menu.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
  await listenOnRandomPort(t.app);
});
afterAll(async () => t.close());

type Owner = Awaited<ReturnType<typeof registerTenant>>;
const WELCOME = '¡Hola! ¿Con quién quieres hablar?';
const call = (owner: { tenant: { slug: string } }, token: string, method: 'GET' | 'PUT' | 'POST', path: string, payload?: unknown) =>
  t.app.inject({ method, url: `/t/${owner.tenant.slug}/api${path}`, headers: bearer(token), payload: payload as object });
const onPlan = (owner: Owner, plan: 'basic' | 'professional' | 'enterprise') =>
  t.database.db.update(tenants).set({ subscriptionPlan: plan }).where(eq(tenants.id, owner.tenant.id));

/** A Pro company whose first funnel is Recepción (waiting room) then the given menu columns. */
async function companyWithBot(menuTitles = ['Ventas', 'Soporte']) {
  const owner = await registerTenant(t.app);
  await onPlan(owner, 'professional');
  const [funnel] = (await call(owner, owner.token, 'GET', '/funnels/summary')).json();
  const columns = (await call(owner, owner.token, 'GET', `/funnels/${funnel.id}/columns`)).json() as Array<{ id: string; title: string }>;
  const trigger = columns[0]!;
  const menu = [];
  for (const title of menuTitles)
    menu.push((await call(owner, owner.token, 'POST', '/columns', { funnelId: funnel.id, title })).json() as { id: string; title: string });
  const saved = await call(owner, owner.token, 'PUT', '/bot-settings', {
    enabled: true,
    message: WELCOME,
    triggerColumnId: trigger.id,
    menuColumnIds: menu.map((column) => column.id),
  });
  expect(saved.statusCode).toBe(200);
  return { owner, funnelId: funnel.id as string, trigger, menu, otherColumn: columns[1]! };
}

const phoneOf = (() => {
  let n = 0;
  return () => `52155${String(Date.now()).slice(-5)}${String((n += 1)).padStart(3, '0')}`;
})();

type CustomerReply = { kind: 'text'; text: string } | { kind: 'button_reply'; title: string; id?: string; postbackText?: string };
/** The customer writes; the auto-bot answers from the queue (a listener of customer-message.stored), which the test runs. */
async function customer(owner: Owner, phone: string, message: CustomerReply) {
  await t.app.sandboxPhone!.customerSends({ appName: sandboxAppName(owner.tenant), phone, name: 'Cliente', ...message });
  await t.app.queue.drain();
}
const says = (owner: Owner, phone: string, text: string) => customer(owner, phone, { kind: 'text', text });

async function cardOf(owner: Owner, phone: string) {
  const [card] = await t.database.db
    .select()
    .from(cards)
    .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, phone)));
  return card!;
}
async function botReplies(owner: Owner, phone: string) {
  const card = await cardOf(owner, phone);
  return t.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.cardId, card.id), eq(messages.sender, 'user')))
    .orderBy(asc(messages.createdAt));
}

describe('GET/PUT /api/bot-settings', () => {
  it('answers the disabled defaults, then what was saved, for owners and admins', async () => {
    const owner = await registerTenant(t.app);
    await onPlan(owner, 'professional');
    expect((await call(owner, owner.token, 'GET', '/bot-settings')).json()).toEqual({ enabled: false, message: '', triggerColumnId: null, menuColumnIds: [] });
    const admin = await signedInMember(t.app, t.database.db, owner.tenant, 'admin');
    const [funnel] = (await call(owner, owner.token, 'GET', '/funnels/summary')).json();
    const columns = (await call(owner, owner.token, 'GET', `/funnels/${funnel.id}/columns`)).json();
    const body = { enabled: true, message: '  Hola  ', triggerColumnId: columns[0].id, menuColumnIds: [columns[2].id, columns[1].id, columns[2].id] };
    const saved = await call(owner, admin.token, 'PUT', '/bot-settings', body);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ enabled: true, message: 'Hola', triggerColumnId: columns[0].id, menuColumnIds: [columns[2].id, columns[1].id] });
    expect((await call(owner, owner.token, 'GET', '/bot-settings')).json()).toEqual(saved.json());
  });

  it.each([
    [{ enabled: true, message: '', triggerColumnId: 'T', menuColumnIds: ['M'] }, 'Escribe el mensaje de bienvenida.'],
    [{ enabled: true, message: 'Hola', triggerColumnId: null, menuColumnIds: ['M'] }, 'Elige la columna de espera.'],
    [{ enabled: true, message: 'Hola', triggerColumnId: 'T', menuColumnIds: [] }, 'Elige al menos una columna para el menú.'],
    [{ enabled: true, message: 'Hola', triggerColumnId: 'T', menuColumnIds: ['T'] }, 'La columna de espera no puede ser una opción del menú.'],
    [{ enabled: true, message: 'Hola', triggerColumnId: 'nope', menuColumnIds: ['M'] }, 'Columna inválida.'],
    [{ enabled: 'sí', message: 'Hola', triggerColumnId: 'T', menuColumnIds: ['M'] }, 'Indica si el bot está activado (enabled).'],
    [{ enabled: true, message: 'x'.repeat(1001), triggerColumnId: 'T', menuColumnIds: ['M'] }, 'El mensaje de bienvenida admite hasta 1000 caracteres.'],
  ])('refuses %o with 400 and saves nothing', async (template, message) => {
    const owner = await registerTenant(t.app);
    await onPlan(owner, 'professional');
    const [funnel] = (await call(owner, owner.token, 'GET', '/funnels/summary')).json();
    const columns = (await call(owner, owner.token, 'GET', `/funnels/${funnel.id}/columns`)).json();
    const fill = (value: unknown) => (value === 'T' ? columns[0].id : value === 'M' ? columns[1].id : value);
    const body = { ...template, triggerColumnId: fill(template.triggerColumnId), menuColumnIds: template.menuColumnIds.map(fill) };
    const response = await call(owner, owner.token, 'PUT', '/bot-settings', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect(await t.database.db.select().from(autobotSettings).where(eq(autobotSettings.tenantId, owner.tenant.id))).toHaveLength(0);
  });

  it("refuses another tenant's columns with 400", async () => {
    const owner = await registerTenant(t.app);
    await onPlan(owner, 'professional');
    const other = await registerTenant(t.app);
    const [own] = (await call(owner, owner.token, 'GET', '/funnels/summary')).json();
    const [foreign] = (await call(other, other.token, 'GET', '/funnels/summary')).json();
    const ownColumns = (await call(owner, owner.token, 'GET', `/funnels/${own.id}/columns`)).json();
    const foreignColumns = (await call(other, other.token, 'GET', `/funnels/${foreign.id}/columns`)).json();
    const response = await call(owner, owner.token, 'PUT', '/bot-settings', {
      enabled: true,
      message: 'Hola',
      triggerColumnId: ownColumns[0].id,
      menuColumnIds: [foreignColumns[1].id],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Columna inválida.');
  });

  it('is refused to agents and viewers (403) and its switch needs the Pro plan', async () => {
    const owner = await registerTenant(t.app);
    for (const role of ['agent', 'viewer'] as const) {
      const member = await signedInMember(t.app, t.database.db, owner.tenant, role);
      expect((await call(owner, member.token, 'GET', '/bot-settings')).statusCode).toBe(403);
      expect((await call(owner, member.token, 'PUT', '/bot-settings', { enabled: false })).statusCode).toBe(403);
      await t.app.inject({ method: 'PUT', url: `/api/users/${member.user.id}`, headers: bearer(owner.token), payload: { is_active: false } });
    }
    const [funnel] = (await call(owner, owner.token, 'GET', '/funnels/summary')).json();
    const columns = (await call(owner, owner.token, 'GET', `/funnels/${funnel.id}/columns`)).json();
    const body = { enabled: true, message: 'Hola', triggerColumnId: columns[0].id, menuColumnIds: [columns[1].id] };
    const refused = await call(owner, owner.token, 'PUT', '/bot-settings', body);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('El bot de automatización es una función del plan Pro. Tu plan Básico (Starter) no lo incluye.');
    expect((await call(owner, owner.token, 'PUT', '/bot-settings', { ...body, enabled: false })).json()).toMatchObject({ enabled: false, message: 'Hola' });
  });
});

describe('the menu auto-bot', () => {
  it('lands a new contact in the waiting room with the welcome and reply buttons, and moves the card on a button press', async () => {
    const { owner, trigger, menu } = await companyWithBot();
    const phone = phoneOf();
    await says(owner, phone, 'Hola');
    expect((await cardOf(owner, phone)).columnId).toBe(trigger.id);
    const [welcome] = await botReplies(owner, phone);
    expect(welcome).toMatchObject({ type: 'interactive', text: WELCOME });
    expect(welcome!.payload).toMatchObject({ type: 'quick_reply', options: [{ title: 'Ventas' }, { title: 'Soporte' }] });

    // The send job hands it to Gupshup (the sandbox fake) as a quick_reply message.
    await t.app.queue.runDueJobsOnce();
    const sent = (await t.app.sandboxPhone!.conversation(sandboxAppName(owner.tenant), phone)).find((entry) => entry.direction === 'to_customer');
    expect(sent).toMatchObject({ type: 'quick_reply', body: { type: 'quick_reply', content: { type: 'text', text: WELCOME } } });
    const button = (sent!.body.options as Array<{ title: string; postbackText: string }>)[1]!;

    await customer(owner, phone, { kind: 'button_reply', title: button.title, id: String(sent!.body.msgid), postbackText: button.postbackText });
    expect((await cardOf(owner, phone)).columnId).toBe(menu[1]!.id);
    expect((await botReplies(owner, phone)).map((row) => row.text)).toEqual([WELCOME, confirmationText('Soporte')]);
  });

  it('understands the option number or its title typed as text', async () => {
    const { owner, menu } = await companyWithBot();
    const byNumber = phoneOf();
    await says(owner, byNumber, 'Buenas');
    await says(owner, byNumber, '1');
    expect((await cardOf(owner, byNumber)).columnId).toBe(menu[0]!.id);
    const byTitle = phoneOf();
    await says(owner, byTitle, 'Buenas');
    await says(owner, byTitle, 'soporte');
    expect((await cardOf(owner, byTitle)).columnId).toBe(menu[1]!.id);
  });

  it('repeats the menu once on an invalid answer, then leaves the chat to a person and stays quiet', async () => {
    const { owner, trigger } = await companyWithBot();
    const phone = phoneOf();
    await says(owner, phone, 'Hola');
    await says(owner, phone, 'quiero un presupuesto');
    let replies = await botReplies(owner, phone);
    expect(replies.map((row) => row.text)).toEqual([WELCOME, RETRY_INTRO]);
    expect(replies[1]!.payload).toMatchObject({ type: 'quick_reply', options: [{ title: 'Ventas' }, { title: 'Soporte' }] });
    await says(owner, phone, 'que no entiendo');
    await says(owner, phone, '1');
    replies = await botReplies(owner, phone);
    expect(replies.map((row) => row.text)).toEqual([WELCOME, RETRY_INTRO, HANDOFF_TEXT]);
    expect((await cardOf(owner, phone)).columnId).toBe(trigger.id);
  });

  it('sends a numbered list when the menu has more than three options', async () => {
    const { owner, menu } = await companyWithBot(['Ventas', 'Soporte', 'Facturación', 'Otros']);
    const phone = phoneOf();
    await says(owner, phone, 'Hola');
    const [welcome] = await botReplies(owner, phone);
    expect(welcome).toMatchObject({
      type: 'text',
      text: `${WELCOME}\n\n1. Ventas\n2. Soporte\n3. Facturación\n4. Otros\n\nResponde con el número de tu opción.`,
    });
    await says(owner, phone, '4');
    expect((await cardOf(owner, phone)).columnId).toBe(menu[3]!.id);
  });

  it('never answers a chat outside its waiting room, nor a known contact that never went through it', async () => {
    const { owner, otherColumn } = await companyWithBot();
    const phone = phoneOf();
    await says(owner, phone, 'Hola');
    const card = await cardOf(owner, phone);
    await call(owner, owner.token, 'POST', '/card/move', { cardId: card.id, targetColumnId: otherColumn.id });
    await says(owner, phone, '1');
    await says(owner, phone, 'otra cosa');
    expect((await botReplies(owner, phone)).map((row) => row.text)).toEqual([WELCOME]);
    expect((await cardOf(owner, phone)).columnId).toBe(otherColumn.id);
  });

  it('does nothing while switched off, or when the plan no longer includes it', async () => {
    const { owner, trigger, menu } = await companyWithBot();
    await onPlan(owner, 'basic');
    const phone = phoneOf();
    await says(owner, phone, 'Hola');
    expect(await botReplies(owner, phone)).toHaveLength(0);
    expect((await cardOf(owner, phone)).columnId).not.toBe(menu[0]!.id);
    await onPlan(owner, 'professional');
    await call(owner, owner.token, 'PUT', '/bot-settings', { enabled: false, message: WELCOME, triggerColumnId: trigger.id, menuColumnIds: [menu[0]!.id] });
    const later = phoneOf();
    await says(owner, later, 'Hola');
    expect(await botReplies(owner, later)).toHaveLength(0);
  });

  it('archiving sends the chat back to the waiting room and the bot greets the contact on their next message', async () => {
    const { owner, trigger, menu } = await companyWithBot();
    const phone = phoneOf();
    await says(owner, phone, 'Hola');
    await says(owner, phone, '2');
    const card = await cardOf(owner, phone);
    expect(card.columnId).toBe(menu[1]!.id);
    const archived = await call(owner, owner.token, 'POST', `/cards/${card.id}/archive`);
    expect(archived.statusCode).toBe(200);
    expect(archived.json()).toMatchObject({ columnId: trigger.id });
    expect(await cardOf(owner, phone)).toMatchObject({ archived: true, columnId: trigger.id });
    await says(owner, phone, 'Hola de nuevo');
    expect((await botReplies(owner, phone)).map((row) => row.text)).toEqual([WELCOME, confirmationText('Soporte'), WELCOME]);
    await says(owner, phone, 'Ventas');
    expect((await cardOf(owner, phone)).columnId).toBe(menu[0]!.id);
  });

  it('keeps working when a menu column is deleted: the remaining options are offered', async () => {
    const { owner, menu } = await companyWithBot(['Ventas', 'Soporte']);
    await call(owner, owner.token, 'GET', '/bot-settings');
    await t.app.inject({ method: 'DELETE', url: `/t/${owner.tenant.slug}/api/columns/${menu[0]!.id}`, headers: bearer(owner.token) });
    expect(await t.database.db.select().from(boardColumns).where(eq(boardColumns.id, menu[0]!.id))).toHaveLength(0);
    expect((await call(owner, owner.token, 'GET', '/bot-settings')).json().menuColumnIds).toEqual([menu[1]!.id]);
    const phone = phoneOf();
    await says(owner, phone, 'Hola');
    expect((await botReplies(owner, phone))[0]!.payload).toMatchObject({ options: [{ title: 'Soporte' }] });
  });
});
