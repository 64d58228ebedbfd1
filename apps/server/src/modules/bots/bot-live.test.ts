import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { cards, messages, tenants } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { sandboxAppName } from '../chats/provider-settings.service.ts';
import { optionsFlow } from './bots-test-flows.ts';
import { HANDOFF_TEXT } from './runtime/nodes/assignToHuman.ts';

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

const customer = (owner: Owner, phone: string, message: { kind: 'text'; text: string } | { kind: 'button_reply'; title: string; id?: string; postbackText?: string }) =>
  t.app.sandboxPhone!.customerSends({ appName: sandboxAppName(owner.tenant.slug), phone, name: 'Marta', ...message });
const says = (owner: Owner, phone: string, text: string) => customer(owner, phone, { kind: 'text', text });

async function cardOf(owner: Owner, phone: string) {
  const [card] = await t.database.db.select().from(cards).where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, phone)));
  return card!;
}
async function botTexts(owner: Owner, phone: string) {
  const card = await cardOf(owner, phone);
  const rows = await t.database.db.select().from(messages).where(and(eq(messages.cardId, card.id), eq(messages.sender, 'ai'))).orderBy(asc(messages.createdAt));
  return rows.map((row) => row.text);
}
/** Waits for a condition with a deadline (the column-entry bot runs after the move answers). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data: { label: id, ...data } });
const edge = (source: string, target: string, sourceHandle: string | null = null) => ({ id: `${source}-${target}-${sourceHandle}`, source, target, sourceHandle });

describe('a column bot in live chats', () => {
  it('answers a customer on a card in its column through the sandbox, follows the pressed option and starts over after the end', async () => {
    const { owner, columns } = await company();
    await botOn(owner, columns[0]!.id, optionsFlow());
    const phone = phoneOf();
    await says(owner, phone, 'Hola');
    expect(await botTexts(owner, phone)).toEqual(['¿Qué necesitas?']);

    // The send job hands it to Gupshup (the sandbox fake): reply buttons naming each option.
    await t.app.queue.drain();
    const sent = (await t.app.sandboxPhone!.conversation(sandboxAppName(owner.tenant.slug), phone)).filter((entry) => entry.direction === 'to_customer');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ type: 'quick_reply', body: { content: { type: 'text', text: '¿Qué necesitas?' } } });
    const buttons = sent[0]!.body.options as { title: string; postbackText: string }[];
    expect(buttons.map((button) => button.title)).toEqual(['Agendar cita', 'Hablar con ventas']);

    await customer(owner, phone, { kind: 'button_reply', title: buttons[1]!.title, id: String(sent[0]!.body.msgid), postbackText: buttons[1]!.postbackText });
    expect(await botTexts(owner, phone)).toEqual(['¿Qué necesitas?', 'Te paso con ventas.']);
    await t.app.queue.drain();
    const delivered = (await t.app.sandboxPhone!.conversation(sandboxAppName(owner.tenant.slug), phone)).filter((entry) => entry.direction === 'to_customer');
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
    await botOn(other, otherColumns[0]!.id, { nodes: [node('inicio', 'trigger', {}), node('humano', 'assignToHuman', { agentId: '' })], edges: [edge('inicio', 'humano')] });
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
    expect(await until(() => botTexts(owner, phone), (texts) => texts.length > 0)).toEqual(['Hola Marta, te enviamos la propuesta.']);
    expect((await until(() => cardOf(owner, phone), (row) => row.columnId === propuesta!.id)).columnId).toBe(propuesta!.id);
  });

  it('waits for a live timer through the job queue, then goes on', async () => {
    const { owner, columns } = await company();
    await botOn(owner, columns[0]!.id, {
      nodes: [node('inicio', 'trigger', {}), node('espera', 'timer', { duration: 1, unit: 'seconds' }), node('seguimiento', 'sendMessage', { text: '¿Pudiste revisarlo?' })],
      edges: [edge('inicio', 'espera'), edge('espera', 'seguimiento')],
    });
    const phone = phoneOf();
    await says(owner, phone, 'Hola');
    expect(await botTexts(owner, phone)).toEqual([]);
    // While the timer runs, new messages do not restart the flow.
    await says(owner, phone, '¿Hola?');
    expect(await botTexts(owner, phone)).toEqual([]);
    const texts = await until(async () => {
      await t.app.queue.runDueJobsOnce();
      return botTexts(owner, phone);
    }, (found) => found.length > 0, 10_000);
    expect(texts).toEqual(['¿Pudiste revisarlo?']);
  });

  it('leaves the menu auto-bot\'s waiting room to the auto-bot', async () => {
    const { owner, columns } = await company();
    await t.database.db.update(tenants).set({ subscriptionPlan: 'professional' }).where(eq(tenants.id, owner.tenant.id));
    await botOn(owner, columns[0]!.id, optionsFlow());
    const settings = await call(owner, 'PUT', '/bot-settings', { enabled: true, message: 'Bienvenida', triggerColumnId: columns[0]!.id, menuColumnIds: [columns[1]!.id] });
    expect(settings.statusCode).toBe(200);
    const phone = phoneOf();
    await says(owner, phone, 'Hola');
    expect(await botTexts(owner, phone)).toEqual([]);
    const card = await cardOf(owner, phone);
    const fromAutobot = await t.database.db.select().from(messages).where(and(eq(messages.cardId, card.id), eq(messages.sender, 'user')));
    expect(fromAutobot.map((row) => row.text)).toEqual(['Bienvenida']);
  });
});
