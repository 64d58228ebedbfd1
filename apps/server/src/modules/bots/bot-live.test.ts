import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { addDays, wallClockOf } from '@embudo/contracts/time/wall-clock';
import { appointments, botSessions, cards, messages, tenants } from '../../../db/schema/index.ts';
import { book, seedCatalog } from '../../../test/support/agenda-fixtures.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { sandboxAppName } from '../tenants/index.ts';
import { optionsFlow } from './bots-test-flows.ts';
import { HANDOFF_TEXT } from './runtime/nodes/assignToHuman.ts';
import { scheduleTexts } from './runtime/nodes/schedule.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
  await listenOnRandomPort(t.app);
});
afterAll(async () => t.close());

type Owner = Awaited<ReturnType<typeof registerTenant>>;
const call = (owner: Owner, method: 'GET' | 'POST' | 'PUT', path: string, payload?: unknown) =>
  t.app.inject({ method, url: `/api${path}`, headers: bearer(owner.token), payload: payload as object });

const phoneOf = (() => {
  let n = 0;
  return () => `52156${String(Date.now()).slice(-5)}${String((n += 1)).padStart(3, '0')}`;
})();

async function company() {
  const owner = await registerTenant(t.app);
  const [funnel] = (await call(owner, 'GET', '/funnels/summary')).json();
  const columns = (await call(owner, 'GET', `/funnels/${funnel.id}/columns`)).json() as { id: string; title: string }[];
  return { owner, columns };
}

async function botOn(owner: Owner, columnId: string, config: unknown) {
  const bot = (await call(owner, 'POST', '/bots', { name: 'Recepción' })).json();
  const saved = await call(owner, 'PUT', `/bots/${bot.id}`, { name: 'Recepción', config });
  expect(saved.statusCode, saved.body).toBe(200);
  expect((await call(owner, 'PUT', `/columns/${columnId}`, { assistant_bot_id: bot.id })).statusCode).toBe(200);
  return bot.id as string;
}

/** The customer writes; the bots answer from the queue (listeners of customer-message.stored), which the test runs. */
async function customer(
  owner: Owner,
  phone: string,
  message: { kind: 'text'; text: string } | { kind: 'button_reply'; title: string; id?: string; postbackText?: string },
) {
  await t.app.sandboxPhone!.customerSends({ appName: sandboxAppName(owner.tenant), phone, name: 'Marta', ...message });
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
async function botTexts(owner: Owner, phone: string) {
  const card = await cardOf(owner, phone);
  const rows = await t.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.cardId, card.id), eq(messages.sender, 'ai')))
    .orderBy(asc(messages.createdAt));
  return rows.map((row) => row.text);
}
/** Waits for a condition with a deadline (a timer job becomes due later). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data: { label: id, ...data } });
const edge = (source: string, target: string, sourceHandle: string | null = null) => ({
  id: `${source}-${target}-${sourceHandle}`,
  source,
  target,
  sourceHandle,
});

describe('a column bot in live chats', () => {
  it('answers a customer on a card in its column through the sandbox, follows the pressed option and starts over after the end', async () => {
    const { owner, columns } = await company();
    await botOn(owner, columns[0]!.id, optionsFlow());
    const phone = phoneOf();
    await says(owner, phone, 'Hola');
    expect(await botTexts(owner, phone)).toEqual(['¿Qué necesitas?']);

    // The send job hands it to Gupshup (the sandbox fake): reply buttons naming each option.
    await t.app.queue.drain();
    const sent = (await t.app.sandboxPhone!.conversation(sandboxAppName(owner.tenant), phone)).filter((entry) => entry.direction === 'to_customer');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ type: 'quick_reply', body: { content: { type: 'text', text: '¿Qué necesitas?' } } });
    const buttons = sent[0]!.body.options as { title: string; postbackText: string }[];
    expect(buttons.map((button) => button.title)).toEqual(['Agendar cita', 'Hablar con ventas']);

    await customer(owner, phone, { kind: 'button_reply', title: buttons[1]!.title, id: String(sent[0]!.body.msgid), postbackText: buttons[1]!.postbackText });
    expect(await botTexts(owner, phone)).toEqual(['¿Qué necesitas?', 'Te paso con ventas.']);
    await t.app.queue.drain();
    const delivered = (await t.app.sandboxPhone!.conversation(sandboxAppName(owner.tenant), phone)).filter((entry) => entry.direction === 'to_customer');
    expect(delivered.at(-1)).toMatchObject({ type: 'text', body: { text: 'Te paso con ventas.' } });

    await says(owner, phone, 'Otra consulta');
    expect(await botTexts(owner, phone)).toEqual(['¿Qué necesitas?', 'Te paso con ventas.', '¿Qué necesitas?']);
    await says(owner, phone, '1');
    expect((await botTexts(owner, phone)).at(-1)).toBe('Perfecto, agendemos tu cita.');
  });

  it('stays silent in columns without a bot, and once the flow hands the chat to a person', async () => {
    const { owner, columns } = await company();
    await botOn(owner, columns[1]!.id, optionsFlow());
    const phone = phoneOf();
    await says(owner, phone, 'Hola');
    expect(await botTexts(owner, phone)).toEqual([]);

    const { owner: other, columns: otherColumns } = await company();
    await botOn(other, otherColumns[0]!.id, {
      nodes: [node('inicio', 'trigger', {}), node('humano', 'assignToHuman', { agentId: '' })],
      edges: [edge('inicio', 'humano')],
    });
    const handed = phoneOf();
    await says(other, handed, 'Hola');
    await says(other, handed, '¿Hay alguien?');
    expect(await botTexts(other, handed)).toEqual([HANDOFF_TEXT]);
  });

  it('starts an on_column_entry flow when a card is moved into its column, and the redirect node moves the card on', async () => {
    const { owner, columns } = await company();
    const [nuevos, enConversacion, propuesta] = columns;
    await botOn(owner, enConversacion!.id, {
      nodes: [
        node('inicio', 'trigger', { triggerType: 'on_column_entry', columnId: enConversacion!.id }),
        node('saludo', 'sendMessage', { text: 'Hola {{contact_name}}, te enviamos la propuesta.' }),
        node('mover', 'redirect', { targetType: 'column', targetId: propuesta!.id }),
      ],
      edges: [edge('inicio', 'saludo'), edge('saludo', 'mover')],
    });
    const phone = phoneOf();
    await says(owner, phone, 'Hola');
    const card = await cardOf(owner, phone);
    expect(card.columnId).toBe(nuevos!.id);
    // A message does not start an entry flow.
    expect(await botTexts(owner, phone)).toEqual([]);

    const moved = await call(owner, 'POST', '/card/move', { cardId: card.id, targetColumnId: enConversacion!.id });
    expect(moved.statusCode).toBe(200);
    // The entry flow is a listener of card.entered-column: nothing has run when the move answers.
    expect(await botTexts(owner, phone)).toEqual([]);
    await t.app.queue.drain();
    expect(await botTexts(owner, phone)).toEqual(['Hola Marta, te enviamos la propuesta.']);
    expect((await cardOf(owner, phone)).columnId).toBe(propuesta!.id);
  });

  it('waits for a live timer through the job queue, then goes on', async () => {
    const { owner, columns } = await company();
    await botOn(owner, columns[0]!.id, {
      nodes: [
        node('inicio', 'trigger', {}),
        node('espera', 'timer', { duration: 1, unit: 'seconds' }),
        node('seguimiento', 'sendMessage', { text: '¿Pudiste revisarlo?' }),
      ],
      edges: [edge('inicio', 'espera'), edge('espera', 'seguimiento')],
    });
    const phone = phoneOf();
    await says(owner, phone, 'Hola');
    expect(await botTexts(owner, phone)).toEqual([]);
    // While the timer runs, new messages do not restart the flow.
    await says(owner, phone, '¿Hola?');
    expect(await botTexts(owner, phone)).toEqual([]);
    const texts = await until(
      async () => {
        await t.app.queue.runDueJobsOnce();
        return botTexts(owner, phone);
      },
      (found) => found.length > 0,
      10_000,
    );
    expect(texts).toEqual(['¿Pudiste revisarlo?']);
  });

  it("leaves the menu auto-bot's waiting room to the auto-bot", async () => {
    const { owner, columns } = await company();
    await t.database.db.update(tenants).set({ subscriptionPlan: 'professional' }).where(eq(tenants.id, owner.tenant.id));
    await botOn(owner, columns[0]!.id, optionsFlow());
    const settings = await call(owner, 'PUT', '/bot-settings', {
      enabled: true,
      message: 'Bienvenida',
      triggerColumnId: columns[0]!.id,
      menuColumnIds: [columns[1]!.id],
    });
    expect(settings.statusCode).toBe(200);
    const phone = phoneOf();
    await says(owner, phone, 'Hola');
    expect(await botTexts(owner, phone)).toEqual([]);
    const card = await cardOf(owner, phone);
    const fromAutobot = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.cardId, card.id), eq(messages.sender, 'user')));
    expect(fromAutobot.map((row) => row.text)).toEqual(['Bienvenida']);
  });
});

describe('the schedule node in a live chat, on the real agenda', () => {
  const scheduleFlow = {
    nodes: [
      node('inicio', 'trigger', {}),
      node('agendar', 'schedule', { eventType: 'Corte' }),
      node('gracias', 'sendMessage', { text: 'Te esperamos: {{appointment}}' }),
    ],
    edges: [edge('inicio', 'agendar'), edge('agendar', 'gracias')],
  };
  const toCustomer = async (owner: Owner, phone: string) =>
    (await t.app.sandboxPhone!.conversation(sandboxAppName(owner.tenant), phone)).filter((entry) => entry.direction === 'to_customer');
  /** Presses the n-th reply button of the newest button message the customer got. */
  async function press(owner: Owner, phone: string, index: number) {
    await t.app.queue.drain();
    const offer = (await toCustomer(owner, phone)).filter((entry) => entry.type === 'quick_reply').at(-1)!;
    const button = (offer.body.options as { title: string; postbackText: string }[])[index]!;
    await customer(owner, phone, { kind: 'button_reply', title: button.title, id: String(offer.body.msgid), postbackText: button.postbackText });
    return button.title;
  }
  /** The first free start time the Agenda itself offers for the service, over the coming week. */
  async function firstFreeInAgenda(owner: Owner, ids: { professionalId: string; serviceId: string }) {
    const { timezone } = (await call(owner, 'GET', '/agenda/settings')).json();
    const today = wallClockOf(new Date(), timezone).date;
    for (let day = 0; day < 7; day += 1) {
      const query = new URLSearchParams({ ...ids, date: addDays(today, day) });
      const { slots } = (await call(owner, 'GET', `/agenda/availability?${query}`)).json();
      if (slots.length > 0) return slots[0] as { startTime: string; endTime: string };
    }
    throw new Error('the agenda has no free time this week');
  }

  it("offers the next free times as buttons, re-offers a time taken meanwhile, and books the chosen one with the Agenda's rules", async () => {
    const { owner, columns } = await company();
    const { professional, service } = await seedCatalog(t.app, owner, { duration: 60 });
    const ids = { professionalId: professional.id, serviceId: service.id };
    await botOn(owner, columns[0]!.id, scheduleFlow);
    const phone = phoneOf();
    await says(owner, phone, 'Quiero una cita');
    expect(await botTexts(owner, phone)).toEqual([scheduleTexts.offer('Corte')]);
    await t.app.queue.drain();
    expect((await toCustomer(owner, phone))[0]!.body.options as unknown[]).toHaveLength(3);

    // Someone at the desk books the first offered time before the customer answers.
    const first = await firstFreeInAgenda(owner, ids);
    await book(t.app, owner, { ...ids, startTime: first.startTime, endTime: first.endTime, clientName: 'Mostrador' });
    await press(owner, phone, 0);
    // Messages of one run may share a timestamp: compare them as a set.
    expect((await botTexts(owner, phone)).slice(1).sort()).toEqual([scheduleTexts.taken, scheduleTexts.offer('Corte')].sort());
    const next = await firstFreeInAgenda(owner, ids);
    expect(next.startTime).not.toBe(first.startTime);

    await press(owner, phone, 0);
    const booked = await t.database.db.select().from(appointments).where(eq(appointments.tenantId, owner.tenant.id)).orderBy(asc(appointments.startTime));
    expect(booked.map((row) => [row.clientName, row.startTime.toISOString()])).toEqual([
      ['Mostrador', first.startTime],
      ['Marta', next.startTime],
    ]);
    expect(booked[1]).toMatchObject({ clientWhatsapp: phone, professionalId: professional.id, serviceId: service.id, endTime: new Date(next.endTime) });
    const last = (await botTexts(owner, phone)).slice(3);
    const confirmation = last.find((text) => text?.startsWith('¡Listo!'));
    expect(confirmation).toMatch(/^¡Listo! Tu cita quedó agendada para el .+ \(Corte de pelo con Lucía\)\.$/);
    expect(last).toContain(`Te esperamos: ${confirmation!.slice('¡Listo! Tu cita quedó agendada para el '.length, -1)}`);
  });

  it('hands the chat to a person when no time is free, or when the customer names none of the offered times', async () => {
    const { owner, columns } = await company();
    const { professional } = await seedCatalog(t.app, owner);
    const closed = { startTime: '09:00', endTime: '17:00', enabled: false };
    const week = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [day, closed]));
    expect((await call(owner, 'PUT', `/agenda/professionals/${professional.id}`, { availability: week })).statusCode).toBe(200);
    await botOn(owner, columns[0]!.id, scheduleFlow);
    const phone = phoneOf();
    await says(owner, phone, 'Quiero una cita');
    await says(owner, phone, '¿Hola?');
    expect(await botTexts(owner, phone)).toEqual([scheduleTexts.noSlots('Corte')]);
    const card = await cardOf(owner, phone);
    const [session] = await t.database.db.select().from(botSessions).where(eq(botSessions.cardId, card.id));
    expect(session!.state.status).toBe('human');

    const { owner: other, columns: otherColumns } = await company();
    await seedCatalog(t.app, other);
    await botOn(other, otherColumns[0]!.id, scheduleFlow);
    const undecided = phoneOf();
    await says(other, undecided, 'Quiero una cita');
    await says(other, undecided, 'Ninguno me sirve, ¿el domingo?');
    expect((await botTexts(other, undecided)).slice(1)).toEqual([scheduleTexts.noneChosen]);
    expect(await t.database.db.select().from(appointments).where(eq(appointments.tenantId, other.tenant.id))).toHaveLength(0);
  });
});
