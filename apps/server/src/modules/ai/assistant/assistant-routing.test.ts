import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cards, jobs, messages, tenants } from '../../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../../test/support/build-test-app.ts';
import { excelFile, multipartForm } from '../../../../test/support/excel.ts';
import { bearer, registerTenant } from '../../../../test/support/factories.ts';
import { listenOnRandomPort } from '../../../../test/support/realtime-client.ts';
import { approvedTemplate, until } from '../../../../test/support/templates.ts';
import { sandboxAppName } from '../../tenants/index.ts';
import { AiModelError, type AiAnswer, type AiAnswerRequest, type AiModel } from '../model/model-port.ts';

/**
 * Issue 44: a chat that enters a column whose assistant is on is answered there, whichever way it came in — the menu
 * auto-bot, a person's drag or "Mover a funnel", a flow's redirect, a bulk send, the API — unless a person took it over.
 */

const requests: AiAnswerRequest[] = [];
let answerWith: (request: AiAnswerRequest) => string = () => 'Respuesta del asistente.';
const model: AiModel = {
  provider: 'sandbox',
  label: 'modelo de prueba',
  async answer(request): Promise<AiAnswer> {
    requests.push(request);
    const text = answerWith(request);
    return { text, toolCalls: [], usage: { inputTokens: 10, outputTokens: 5 }, model: 'modelo-prueba', latencyMs: 1 };
  },
  async transcribe() {
    return { text: '', usage: { inputTokens: 0, outputTokens: 0 }, model: 'modelo-prueba' };
  },
};

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox', aiModel: model });
  await listenOnRandomPort(t.app);
  t.app.sandboxPhone!.templateReviewMs = 20;
});
afterAll(() => t.close());
beforeEach(() => {
  requests.length = 0;
  answerWith = () => 'Respuesta del asistente.';
});

/** The customer's words the model was asked to answer, one list per request. */
const askedAbout = () => requests.map((request) => request.turns.filter((turn) => turn.role === 'customer').at(-1)?.text);

let phones = 0;
const ASSISTANT = { isEnabled: true, systemPrompt: 'Eres el asistente de la tienda.', tools: [], quietSeconds: 0 };

/** A Pro company whose first column ("Nuevos") has no assistant, with two more columns whose assistants are on. */
async function company() {
  const owner = await registerTenant(t.app, { companyName: 'Tienda Routing' });
  await t.database.db.update(tenants).set({ subscriptionPlan: 'professional' }).where(eq(tenants.id, owner.tenant.id));
  const call = (method: 'GET' | 'POST' | 'PUT', path: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${path}`, headers: bearer(owner.token), payload: payload as object });
  const [funnel] = (await call('GET', '/funnels/summary')).json() as { id: string }[];
  const [nuevos] = (await call('GET', `/funnels/${funnel!.id}/columns`)).json() as { id: string }[];
  const column = async (title: string, funnelId = funnel!.id, assistant: object | null = ASSISTANT) => {
    const created = (await call('POST', '/columns', { funnelId, title })).json() as { id: string };
    if (assistant) expect((await call('PUT', `/columns/${created.id}`, { gemini_config: assistant })).statusCode).toBe(200);
    return created.id;
  };
  const ventas = await column('Ventas');
  const soporte = await column('Soporte');
  phones += 1;
  const customer = { appName: sandboxAppName(owner.tenant), phone: `52155800${String(phones).padStart(5, '0')}`, name: 'Marta' };
  const says = (text: string) => t.app.sandboxPhone!.customerSends({ ...customer, kind: 'text', text });
  const card = async () => {
    const [row] = await t.database.db
      .select()
      .from(cards)
      .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, customer.phone)));
    return row!;
  };
  const aiMessages = async () => {
    const rows = await t.database.db
      .select({ text: messages.text })
      .from(messages)
      .where(and(eq(messages.cardId, (await card()).id), eq(messages.sender, 'ai')))
      .orderBy(asc(messages.createdAt));
    return rows.map((row) => row.text);
  };
  const move = async (targetColumnId: string) => {
    const moved = await call('POST', '/card/move', { cardId: (await card()).id, targetColumnId });
    expect(moved.statusCode, moved.body).toBe(200);
    return moved.json() as { columnId: string; aiEnabled: boolean; aiOffReason?: string | null };
  };
  const toggle = async (enabled: boolean) => {
    const toggled = await call('PUT', `/cards/${(await card()).id}/toggle-ai`, { enabled });
    expect(toggled.statusCode, toggled.body).toBe(200);
  };
  /** The customer greets in "Nuevos" and a person drags the chat to this column, whose assistant answers the greeting. */
  const greetedIn = async (columnId: string) => {
    await says('Hola');
    await t.app.queue.drain();
    await move(columnId);
    await t.app.queue.drain();
  };
  return { owner, call, funnelId: funnel!.id, nuevos: nuevos!.id, ventas, soporte, column, customer, says, card, aiMessages, move, toggle, greetedIn };
}

type Company = Awaited<ReturnType<typeof company>>;

/** The menu auto-bot, waiting in "Nuevos" and offering Ventas and Soporte. */
async function menuBot(shop: Company) {
  const saved = await shop.call('PUT', '/bot-settings', {
    enabled: true,
    message: '¡Hola! ¿Con quién quieres hablar?',
    triggerColumnId: shop.nuevos,
    menuColumnIds: [shop.ventas, shop.soporte],
  });
  expect(saved.statusCode, saved.body).toBe(200);
}

describe('a chat the menu auto-bot routes', () => {
  it('is answered by the assistant of the column it chose, and the choice itself is not taken for a question', async () => {
    const shop = await company();
    await menuBot(shop);
    await shop.says('Hola');
    await t.app.queue.drain();
    expect(await shop.card()).toMatchObject({ columnId: shop.nuevos, aiEnabled: false, aiOffReason: null });

    await shop.says('Ventas');
    await t.app.queue.drain();
    expect(await shop.card()).toMatchObject({ columnId: shop.ventas, aiEnabled: true, aiOffReason: null });
    expect(requests).toHaveLength(0);

    await shop.says('¿A qué hora abren mañana?');
    await t.app.queue.drain();
    expect(askedAbout()).toEqual(['¿A qué hora abren mañana?']);
    expect(await shop.aiMessages()).toEqual(['Respuesta del asistente.']);
  });

  it('answers a question the customer wrote right after the choice, before the menu moved the chat', async () => {
    const shop = await company();
    await menuBot(shop);
    await shop.says('Hola');
    await t.app.queue.drain();
    await shop.says('2');
    await shop.says('¿Tienen envíos a domicilio?');
    await t.app.queue.drain();
    expect((await shop.card()).columnId).toBe(shop.soporte);
    expect(askedAbout()).toEqual(['¿Tienen envíos a domicilio?']);
    expect(await shop.aiMessages()).toHaveLength(1);
  });

  it('does not answer the choice of a chat whose AI was switched on by hand in the waiting room', async () => {
    const shop = await company();
    await menuBot(shop);
    await shop.says('Hola');
    await t.app.queue.drain();
    await shop.toggle(true);
    await shop.says('Ventas');
    // The assistant's listener runs after the menu moved the chat: the choice came to the waiting room, not to Ventas.
    const held = and(eq(jobs.name, 'event.ai.assistant-on-customer-message'), eq(jobs.status, 'pending'));
    expect(
      await t.database.db
        .update(jobs)
        .set({ runAt: new Date(Date.now() + 3_600_000) })
        .where(held)
        .returning({ id: jobs.id }),
    ).toHaveLength(1);
    await t.app.queue.drain();
    expect(await shop.card()).toMatchObject({ columnId: shop.ventas, aiEnabled: true });
    await t.database.db.update(jobs).set({ runAt: new Date() }).where(held);
    await t.app.queue.drain();
    expect(requests).toHaveLength(0);
  });
});

describe("a person's move (drag or Mover a funnel, POST /api/card/move)", () => {
  it('switches the AI on in a column with an assistant and answers the question waiting in the chat', async () => {
    const shop = await company();
    await shop.says('¿Tienen taladros?');
    await t.app.queue.drain();
    expect(await shop.card()).toMatchObject({ columnId: shop.nuevos, aiEnabled: false });
    expect(requests).toHaveLength(0);

    expect(await shop.move(shop.ventas)).toMatchObject({ columnId: shop.ventas, aiEnabled: true, aiOffReason: null });
    await t.app.queue.drain();
    expect(askedAbout()).toEqual(['¿Tienen taladros?']);
    expect(await shop.aiMessages()).toEqual(['Respuesta del asistente.']);

    // Answered already: a second move asks nothing more; a column without an assistant switches it off, back on returning.
    expect(await shop.move(shop.soporte)).toMatchObject({ aiEnabled: true });
    expect(await shop.move(shop.nuevos)).toMatchObject({ aiEnabled: false, aiOffReason: null });
    expect(await shop.move(shop.ventas)).toMatchObject({ aiEnabled: true });
    await t.app.queue.drain();
    expect(requests).toHaveLength(1);
  });

  it('moves to another funnel ("Mover a funnel") with the AI of the column it lands in', async () => {
    const shop = await company();
    const other = (await shop.call('POST', '/funnels', { name: 'Mayoristas' })).json() as { id: string };
    const pedidos = await shop.column('Pedidos', other.id);
    const sinAsistente = await shop.column('Archivo', other.id, null);
    await shop.says('Quiero 20 cajas');
    await t.app.queue.drain();
    expect(await shop.move(pedidos)).toMatchObject({ funnelId: other.id, columnId: pedidos, aiEnabled: true });
    await t.app.queue.drain();
    expect(askedAbout()).toEqual(['Quiero 20 cajas']);
    expect(await shop.move(sinAsistente)).toMatchObject({ aiEnabled: false, aiOffReason: null });
  });

  it("leaves a chat whose last word was the team's, or whose window closed, to the next customer message", async () => {
    const shop = await company();
    await shop.says('Hola');
    await t.app.queue.drain();
    // A person answered in a column without an assistant: nothing of the AI to pause, and nothing waits any more.
    expect((await shop.call('POST', '/message', { cardId: (await shop.card()).id, text: 'Hola Marta, ¿en qué te ayudo?' })).statusCode).toBe(201);
    await t.app.queue.drain();
    expect(await shop.move(shop.ventas)).toMatchObject({ aiEnabled: true });
    await t.app.queue.drain();
    expect(requests).toHaveLength(0);
    await shop.says('Busco un martillo');
    await t.app.queue.drain();
    expect(askedAbout()).toEqual(['Busco un martillo']);

    const old = await company();
    await old.says('¿Siguen abiertos?');
    await t.app.queue.drain();
    await t.database.db
      .update(cards)
      .set({ contactLastMessageAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(cards.id, (await old.card()).id));
    expect(await old.move(old.ventas)).toMatchObject({ aiEnabled: true });
    await t.app.queue.drain();
    expect(requests).toHaveLength(1);
  });

  it('answers once a message that came in just before a person moved the chat between two assistants', async () => {
    const shop = await company();
    await shop.greetedIn(shop.ventas);
    requests.length = 0;
    await shop.says('¿Me ayudan con una garantía?');
    await shop.move(shop.soporte);
    await t.app.queue.drain();
    expect(askedAbout()).toEqual(['¿Me ayudan con una garantía?']);
    expect(await shop.aiMessages()).toHaveLength(2);
  });
});

describe("a flow's redirect", () => {
  it('switches the AI on where it sends the chat, without answering the message the flow acted on', async () => {
    const shop = await company();
    const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data: { label: id, ...data } });
    const bot = (await shop.call('POST', '/bots', { name: 'Recepción' })).json() as { id: string };
    const saved = await shop.call('PUT', `/bots/${bot.id}`, {
      name: 'Recepción',
      config: {
        nodes: [node('inicio', 'trigger', {}), node('mover', 'redirect', { targetType: 'column', targetId: shop.ventas })],
        edges: [{ id: 'e1', source: 'inicio', target: 'mover', sourceHandle: null }],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await shop.call('PUT', `/columns/${shop.nuevos}`, { assistant_bot_id: bot.id })).statusCode).toBe(200);

    await shop.says('Quiero comprar');
    await t.app.queue.drain();
    expect(await shop.card()).toMatchObject({ columnId: shop.ventas, aiEnabled: true });
    expect(requests).toHaveLength(0);
    await shop.says('¿Cuánto cuesta el taladro?');
    await t.app.queue.drain();
    expect(askedAbout()).toEqual(['¿Cuánto cuesta el taladro?']);
  });
});

describe('a chat created in a column with an assistant', () => {
  it('by a bulk send or POST /api/initiate-conversation starts with its AI on, and the reply is answered', async () => {
    const shop = await company();
    const template = await approvedTemplate(t, shop.owner, { name: 'aviso_routing', body_text: 'Hola {{1}}, tu pedido está listo.' });

    const bulkPhone = `52155900${String(phones).padStart(5, '0')}`;
    const form = multipartForm(
      { templateId: template.id, targetColumnId: shop.ventas, phoneColumn: 'telefono' },
      {
        field: 'file',
        name: 'clientes.xlsx',
        data: await excelFile([
          ['telefono', 'Variable 1'],
          [bulkPhone, 'Ana'],
        ]),
      },
    );
    const batch = await t.app.inject({
      method: 'POST',
      url: `/api/funnels/${shop.funnelId}/batches`,
      headers: { ...bearer(shop.owner.token), ...form.headers },
      payload: form.body,
    });
    expect(batch.statusCode, batch.body).toBe(201);
    const bulkCard = await until(async () => {
      await t.app.queue.drain();
      const [row] = await t.database.db
        .select()
        .from(cards)
        .where(and(eq(cards.tenantId, shop.owner.tenant.id), eq(cards.phone, bulkPhone)));
      return row;
    });
    expect(bulkCard).toMatchObject({ columnId: shop.ventas, aiEnabled: true });
    await t.app.sandboxPhone!.customerSends({ appName: shop.customer.appName, phone: bulkPhone, name: 'Ana', kind: 'text', text: '¿Lo puedo recoger hoy?' });
    await t.app.queue.drain();
    expect(askedAbout()).toEqual(['¿Lo puedo recoger hoy?']);

    const started = await shop.call('POST', '/initiate-conversation', {
      templateId: template.id,
      phoneNumber: shop.customer.phone,
      variables: ['Marta'],
      columnId: shop.soporte,
    });
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json().card).toMatchObject({ columnId: shop.soporte, aiEnabled: true, aiOffReason: null });
    await t.app.queue.drain();
    await shop.says('Gracias, ¿a qué hora cierran?');
    await t.app.queue.drain();
    expect(askedAbout()).toEqual(['¿Lo puedo recoger hoy?', 'Gracias, ¿a qué hora cierran?']);
  });
});

describe('a chat a person took over', () => {
  it('keeps its AI off when moved after a team reply, until switched on by hand in the chat', async () => {
    const shop = await company();
    await shop.greetedIn(shop.ventas);
    expect(await shop.aiMessages()).toHaveLength(1);

    expect((await shop.call('POST', '/message', { cardId: (await shop.card()).id, text: 'Te atiendo yo, Marta.' })).statusCode).toBe(201);
    await t.app.queue.drain();
    expect(await shop.card()).toMatchObject({ aiEnabled: false, aiOffReason: 'team_reply' });
    expect(await shop.move(shop.soporte)).toMatchObject({ aiEnabled: false, aiOffReason: 'team_reply' });
    expect(await shop.move(shop.nuevos)).toMatchObject({ aiEnabled: false, aiOffReason: 'team_reply' });
    expect(await shop.move(shop.ventas)).toMatchObject({ aiEnabled: false, aiOffReason: 'team_reply' });
    await shop.says('¿Sigue ahí?');
    await t.app.queue.drain();
    expect(await shop.aiMessages()).toHaveLength(1);

    // Switched on by hand, the reason is gone: moves carry the AI as for any chat.
    await shop.toggle(true);
    expect(await shop.card()).toMatchObject({ aiEnabled: true, aiOffReason: null });
    expect(await shop.move(shop.soporte)).toMatchObject({ aiEnabled: true });
    await shop.says('Perfecto');
    await t.app.queue.drain();
    expect(await shop.aiMessages()).toHaveLength(2);
  });

  it('keeps it off when switched off by hand, or handed to a person by the assistant; a column-wide switch-off stays in its column', async () => {
    const byHand = await company();
    await byHand.says('Hola');
    await t.app.queue.drain();
    await byHand.move(byHand.ventas);
    await byHand.toggle(false);
    expect(await byHand.card()).toMatchObject({ aiEnabled: false, aiOffReason: 'by_hand' });
    expect(await byHand.move(byHand.soporte)).toMatchObject({ aiEnabled: false, aiOffReason: 'by_hand' });

    const handedOver = await company();
    answerWith = () => {
      throw new AiModelError('blocked', 'el modelo no quiso responder');
    };
    await handedOver.says('Hola');
    await t.app.queue.drain();
    await handedOver.move(handedOver.ventas);
    await t.app.queue.drain();
    expect(await handedOver.card()).toMatchObject({ aiEnabled: false, aiOffReason: 'handed_over' });
    expect(await handedOver.move(handedOver.soporte)).toMatchObject({ aiEnabled: false, aiOffReason: 'handed_over' });

    const columnOff = await company();
    await columnOff.says('Hola');
    await t.app.queue.drain();
    await columnOff.move(columnOff.ventas);
    expect((await columnOff.call('POST', `/columns/${columnOff.ventas}/toggle-cards-ai`, { enabled: false })).statusCode).toBe(200);
    expect(await columnOff.card()).toMatchObject({ aiEnabled: false, aiOffReason: 'column_off' });
    expect(await columnOff.move(columnOff.soporte)).toMatchObject({ aiEnabled: true, aiOffReason: null });
    expect((await columnOff.call('POST', `/columns/${columnOff.soporte}/toggle-cards-ai`, { enabled: true })).statusCode).toBe(200);
    expect(await columnOff.card()).toMatchObject({ aiEnabled: true, aiOffReason: null });
  });
});
