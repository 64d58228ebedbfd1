import { and, eq } from 'drizzle-orm';
import { AI_FALLBACK_REPLY_DEFAULT } from '@embudo/contracts/http/funnels';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, jobs, tenants } from '../../../../db/schema/index.ts';
import { geminiBlocked, geminiCalls, geminiError, startFakeGeminiServer } from '../../../../test/fakes/fake-gemini-server.ts';
import { startFakeWebhookServer } from '../../../../test/fakes/fake-webhook-server.ts';
import { openAiText, openAiToolCalls, startFakeOpenAiServer } from '../../../../test/fakes/fake-openai-server.ts';
import { seedCatalog } from '../../../../test/support/agenda-fixtures.ts';
import { buildTestApp, type TestApp } from '../../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../../test/support/factories.ts';
import { connectClient, joinTenant, listenOnRandomPort } from '../../../../test/support/realtime-client.ts';
import { sandboxAppName } from '../../tenants/index.ts';
import type { AiAnswer, AiAnswerRequest, AiModel } from '../model/model-port.ts';
import { blockedNote, failedNote, takeoverNote } from './assistant.service.ts';

/**
 * The column assistant end to end over the real adapters and HTTP: a customer writes from the sandbox phone, the
 * webhook enqueues, the answer job calls a fake Gemini (or OpenAI-compatible) server, and the reply goes out on
 * WhatsApp (issue 15 acceptance).
 */

type Owner = Awaited<ReturnType<typeof registerTenant>>;
let phones = 0;

async function companyWithAssistant(t: TestApp, assistant: Record<string, unknown> = {}) {
  const owner: Owner = await registerTenant(t.app, { companyName: 'Peluquería Sol', timezone: 'America/Bogota' });
  await t.database.db.update(tenants).set({ subscriptionPlan: 'professional' }).where(eq(tenants.id, owner.tenant.id));
  const call = (method: 'GET' | 'POST' | 'PUT', path: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${path}`, headers: bearer(owner.token), payload: payload as object });
  const [funnel] = (await call('GET', '/funnels/summary')).json() as { id: string }[];
  const columns = (await call('GET', `/funnels/${funnel!.id}/columns`)).json() as { id: string; title: string }[];
  const saved = await call('PUT', `/columns/${columns[0]!.id}`, {
    gemini_config: { isEnabled: true, systemPrompt: 'Atiende a los clientes de la peluquería.', tools: [], quietSeconds: 0, ...assistant },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  phones += 1;
  const customer = { appName: sandboxAppName(owner.tenant), phone: `52155900${String(phones).padStart(5, '0')}`, name: 'Ana' };
  const says = (text: string) => t.app.sandboxPhone!.customerSends({ ...customer, kind: 'text', text });
  const card = async () => {
    const board = (await call('GET', `/funnels/${funnel!.id}/board`)).json() as {
      columns: { cards: { id: string; phone: string; aiEnabled: boolean; columnId: string }[] }[];
    };
    return board.columns.flatMap((column) => column.cards).find((entry) => entry.phone.replace(/\D/g, '') === customer.phone)!;
  };
  const items = async () =>
    (await call('GET', `/cards/${(await card()).id}/messages?limit=50`)).json().items as Array<{ kind: string; sender?: string; text: string }>;
  const aiMessages = async () => (await items()).filter((item) => item.kind === 'message' && item.sender === 'ai').map((item) => item.text);
  const notes = async () => (await items()).filter((item) => item.kind === 'note').map((item) => item.text);
  return { owner, call, columns, customer, says, card, aiMessages, notes };
}

/** Makes the pending answer jobs due now, as the quiet window or a retry's backoff passing would. */
async function timePasses(t: TestApp) {
  await t.database.db
    .update(jobs)
    .set({ runAt: new Date() })
    .where(and(eq(jobs.name, 'ai.answer-customer'), eq(jobs.status, 'pending')));
}

describe('over the Gemini REST API (fake server)', () => {
  let gemini: Awaited<ReturnType<typeof startFakeGeminiServer>>;
  let t: TestApp;
  let origin: string;
  beforeAll(async () => {
    gemini = await startFakeGeminiServer();
    t = await buildTestApp({
      providerMode: 'sandbox',
      aiProvider: 'gemini',
      geminiApiKey: gemini.apiKey,
      geminiBaseUrl: gemini.url,
      geminiModel: 'gemini-2.5-flash',
      allowPrivateOutbound: true,
    });
    origin = await listenOnRandomPort(t.app);
  });
  afterAll(async () => {
    await t.close();
    await gemini.close();
  });

  it('sends generateContent exactly as the contract writes it, and answers on WhatsApp', async () => {
    const shop = await companyWithAssistant(t);
    gemini.requests.length = 0;
    await shop.says('Hola, ¿abren el sábado?');
    await t.app.queue.drain();

    expect(gemini.requests).toHaveLength(1);
    const [request] = gemini.requests;
    expect(request!.model).toBe('gemini-2.5-flash');
    expect(request!.headers['x-goog-api-key']).toBe(gemini.apiKey);
    expect(Object.keys(request!.body).sort()).toEqual(['contents', 'generationConfig', 'systemInstruction', 'toolConfig', 'tools']);
    expect(request!.body.generationConfig).toEqual({});
    expect(request!.body.systemInstruction).toEqual({ parts: [{ text: expect.stringContaining('Atiende a los clientes de la peluquería.') }] });
    expect(request!.body.contents).toEqual([{ role: 'user', parts: [{ text: 'Hola, ¿abren el sábado?' }] }]);
    expect(request!.body.toolConfig).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
    const [tools] = request!.body.tools as Array<{
      functionDeclarations: Array<{ name: string; description: string; parametersJsonSchema: Record<string, unknown> }>;
    }>;
    expect(tools!.functionDeclarations.map((declaration) => declaration.name)).toEqual([
      'move_to_column',
      'hand_over_to_person',
      'schedule_message',
      'find_free_slots',
      'book_appointment',
    ]);
    expect(tools!.functionDeclarations[1]).toEqual({
      name: 'hand_over_to_person',
      description: expect.any(String),
      parametersJsonSchema: { type: 'object', properties: { reason: { type: 'string', description: 'Por qué pasa a una persona' } }, required: ['reason'] },
    });
    expect(await shop.aiMessages()).toHaveLength(1);
  });

  it('runs several tool rounds (free slots, then the booking), echoing each model turn with its signature', async () => {
    const shop = await companyWithAssistant(t);
    await seedCatalog(t.app, shop.owner, { everyDay: true });
    await shop.says('Quiero una cita mañana a las 10');
    await t.app.queue.drain();
    expect(await shop.aiMessages()).toEqual([expect.stringMatching(/^Tengo libre el .+ a las 10:00\. ¿Te la reservo\?$/)]);

    gemini.requests.length = 0;
    await shop.says('Sí, a las 10');
    await t.app.queue.drain();
    expect(gemini.requests).toHaveLength(3);
    const second = gemini.requests[1]!.body.contents as Array<{ role: string; parts: Array<Record<string, unknown>> }>;
    const [calling, answering] = second.slice(-2);
    expect(calling).toEqual({
      role: 'model',
      parts: [{ functionCall: { id: expect.any(String), name: 'find_free_slots', args: { date: expect.any(String) } }, thoughtSignature: expect.any(String) }],
    });
    const callId = (calling!.parts[0]!.functionCall as { id: string }).id;
    expect(answering).toEqual({
      role: 'user',
      parts: [{ functionResponse: { id: callId, name: 'find_free_slots', response: { name: 'find_free_slots', content: { slots: expect.any(Array) } } } }],
    });
    const third = gemini.requests[2]!.body.contents as Array<{ role: string; parts: Array<Record<string, unknown>> }>;
    expect(third.slice(-2).map((content) => content.role)).toEqual(['model', 'user']);
    expect(Object.keys(third.at(-1)!.parts[0]!.functionResponse as object)).toEqual(['id', 'name', 'response']);
    expect(await t.database.db.select().from(appointments).where(eq(appointments.tenantId, shop.owner.tenant.id))).toHaveLength(1);
    expect((await shop.aiMessages()).at(-1)).toMatch(/^Listo, tu cita quedó agendada para /);
  });

  it("calls the column's webhook tool through the outbound guard and answers with what it returned", async () => {
    const web = await startFakeWebhookServer();
    try {
      web.route('/pedidos', { body: JSON.stringify({ pedido: 'A-1', estado: 'enviado', notas: 'x'.repeat(3_000) }) });
      const shop = await companyWithAssistant(t, {
        tools: [{ type: 'webhook', id: 'w1', label: 'Consultar pedido', method: 'POST', url: `${web.url}/pedidos`, purpose: 'Cuando preguntan por un pedido' }],
      });
      gemini.requests.length = 0;
      gemini.reply(geminiCalls([{ id: 'c1', name: 'webhook_1', args: { datos: '{"pedido":"A-1"}' } }]));
      await shop.says('¿Cómo va mi pedido A-1?');
      await t.app.queue.drain();

      const [declarations] = gemini.requests[0]!.body.tools as Array<{ functionDeclarations: Array<{ name: string; description: string }> }>;
      expect(declarations!.functionDeclarations.at(-1)).toMatchObject({
        name: 'webhook_1',
        description: '«Consultar pedido»: consulta un servicio externo de la empresa (POST) y devuelve su respuesta. Cuando preguntan por un pedido',
      });
      expect(web.received).toEqual([expect.objectContaining({ method: 'POST', path: '/pedidos', body: '{"pedido":"A-1"}' })]);
      const answered = (
        gemini.requests[1]!.body.contents as Array<{
          parts: Array<{ functionResponse?: { response: { content: { status: number; body: string; recortado?: boolean } } } }>;
        }>
      ).at(-1)!.parts[0]!.functionResponse!.response.content;
      expect(answered).toMatchObject({ status: 200, recortado: true });
      expect(answered.body).toHaveLength(2_000);
      expect(await shop.aiMessages()).toEqual([expect.stringContaining('"estado":"enviado"')]);

      const refused = await shop.call('PUT', `/columns/${shop.columns[0]!.id}`, {
        gemini_config: { isEnabled: true, systemPrompt: '', tools: [{ type: 'webhook', id: 'w2', label: 'Otro', method: 'GET', url: 'ftp://pedidos' }] },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe('La URL del webhook debe empezar con http:// o https://.');
    } finally {
      await web.close();
    }
  });

  it('retries a 429 as RetryInfo asks, then answers', async () => {
    const shop = await companyWithAssistant(t);
    gemini.requests.length = 0;
    gemini.reply(geminiError(429, { retryDelay: '0.05s' }));
    await shop.says('Hola');
    await t.app.queue.drain();
    expect(gemini.requests).toHaveLength(2);
    expect(await shop.aiMessages()).toHaveLength(1);
    expect(await shop.notes()).toEqual([]);
  });

  it('leaves a note when the quota stays exhausted through the job retries, and the customer reads only the neutral sentence', async () => {
    const shop = await companyWithAssistant(t);
    // Three attempts per request, three tries of the job.
    gemini.reply(...Array.from({ length: 9 }, () => geminiError(429, { retryDelay: '0.01s' })));
    await shop.says('Hola');
    for (let attempt = 0; attempt < 3; attempt++) {
      await t.app.queue.drain();
      await timePasses(t);
    }
    await t.app.queue.drain();
    expect(await shop.notes()).toEqual([failedNote('Gemini respondió 429 RESOURCE_EXHAUSTED: fake RESOURCE_EXHAUSTED')]);
    expect(await shop.aiMessages()).toEqual([AI_FALLBACK_REPLY_DEFAULT]);
  });

  it('hands the chat to a person when Gemini answers SAFETY', async () => {
    const shop = await companyWithAssistant(t);
    gemini.reply(geminiBlocked('SAFETY'));
    await shop.says('Algo que el modelo no responde');
    await t.app.queue.drain();
    expect(await shop.notes()).toEqual([blockedNote]);
    expect((await shop.card()).aiEnabled).toBe(false);
    // A person takes the chat: the customer is told so in neutral words, never why.
    expect(await shop.aiMessages()).toEqual([AI_FALLBACK_REPLY_DEFAULT]);
  });

  it('gives three quick messages one answer after the quiet window, never before it', async () => {
    const shop = await companyWithAssistant(t, { quietSeconds: 4 });
    gemini.requests.length = 0;
    await shop.says('Hola');
    await shop.says('Quería preguntar');
    await shop.says('¿abren el domingo?');
    await t.app.queue.drain();
    // Still inside the 4-second window: nobody asked the model.
    expect(gemini.requests).toHaveLength(0);
    await timePasses(t);
    await t.app.queue.drain();
    expect(gemini.requests).toHaveLength(1);
    expect(gemini.requests[0]!.body.contents).toEqual([{ role: 'user', parts: [{ text: 'Hola\nQuería preguntar\n¿abren el domingo?' }] }]);
    expect(await shop.aiMessages()).toHaveLength(1);
  });

  it('steps back when a team member writes: the card switch turns off live and a note says why', async () => {
    const shop = await companyWithAssistant(t);
    await shop.says('Hola');
    await t.app.queue.drain();
    const { id } = await shop.card();
    const socket = connectClient(origin, shop.owner.token, shop.owner.tenant.slug);
    try {
      await joinTenant(socket, shop.owner.tenant.slug, shop.owner.token);
      const updates: Array<{ id: string; aiEnabled: boolean }> = [];
      socket.on('card_updated', (update) => updates.push(update));
      expect((await shop.call('POST', '/message', { cardId: id, text: 'Hola Ana, te atiendo yo.' })).statusCode).toBe(201);
      await t.app.queue.drain();
      const deadline = Date.now() + 5_000;
      while (!updates.some((update) => update.aiEnabled === false) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(updates.filter((update) => !update.aiEnabled)).toEqual([expect.objectContaining({ id, aiEnabled: false })]);
    } finally {
      socket.disconnect();
    }
    expect(await shop.notes()).toEqual([takeoverNote]);
  });
});

describe('over an OpenAI-compatible server (fake)', () => {
  let openai: Awaited<ReturnType<typeof startFakeOpenAiServer>>;
  let t: TestApp;
  beforeAll(async () => {
    openai = await startFakeOpenAiServer({ apiKey: 'sk-prueba' });
    t = await buildTestApp({ providerMode: 'sandbox', aiProvider: 'openai', openaiBaseUrl: openai.url, openaiApiKey: 'sk-prueba', openaiModel: 'gpt-4o-mini' });
    await listenOnRandomPort(t.app);
  });
  afterAll(async () => {
    await t.close();
    await openai.close();
  });

  it('sends Chat Completions with tools, answers tool_calls with tool messages, and replies on WhatsApp', async () => {
    const shop = await companyWithAssistant(t);
    openai.reply(
      openAiToolCalls([{ id: 'call_1', name: 'move_to_column', args: { column: 'En conversación' } }]),
      openAiText('Te paso con el equipo de ventas.'),
    );
    await shop.says('Quiero comprar');
    await t.app.queue.drain();

    expect(openai.requests).toHaveLength(2);
    const [first, second] = openai.requests;
    expect(first!.path).toBe('/v1/chat/completions');
    expect(first!.headers.authorization).toBe('Bearer sk-prueba');
    expect(Object.keys(first!.body).sort()).toEqual(['messages', 'model', 'tool_choice', 'tools']);
    expect(first!.body).toMatchObject({
      model: 'gpt-4o-mini',
      tool_choice: 'auto',
      messages: [
        { role: 'system', content: expect.stringContaining('Atiende a los clientes de la peluquería.') },
        { role: 'user', content: 'Quiero comprar' },
      ],
    });
    expect((first!.body.tools as Array<{ type: string; function: { name: string } }>).map((tool) => [tool.type, tool.function.name])).toEqual([
      ['function', 'move_to_column'],
      ['function', 'hand_over_to_person'],
      ['function', 'schedule_message'],
      ['function', 'find_free_slots'],
      ['function', 'book_appointment'],
    ]);
    expect((second!.body.messages as unknown[]).slice(-2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'move_to_column', arguments: '{"column":"En conversación"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"ok":true,"column":"En conversación"}' },
    ]);
    expect((await shop.card()).columnId).toBe(shop.columns.find((column) => column.title === 'En conversación')!.id);
    expect(await shop.aiMessages()).toEqual(['Te paso con el equipo de ventas.']);
  });
});

describe('the inbound webhook with the assistant on', () => {
  /** A model that holds every answer until the test lets it go. */
  function blockingModel() {
    const started: AiAnswerRequest[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const model: AiModel = {
      provider: 'sandbox',
      label: 'modelo que espera',
      async answer(request): Promise<AiAnswer> {
        started.push(request);
        await gate;
        return { text: 'Ya te respondo.', toolCalls: [], usage: { inputTokens: 1, outputTokens: 1 }, model: 'espera', latencyMs: 1 };
      },
      transcribe: () => Promise.reject(new Error('sin audio')),
    };
    return { model, started, release: () => release() };
  }

  it('only enqueues: it answers while the model is still thinking, and before any model call', async () => {
    const blocking = blockingModel();
    const t = await buildTestApp({ providerMode: 'sandbox', aiModel: blocking.model });
    try {
      await listenOnRandomPort(t.app);
      const shop = await companyWithAssistant(t);
      await shop.says('Hola');
      expect(blocking.started).toHaveLength(0);
      const pending = await t.database.db.select().from(jobs).where(eq(jobs.status, 'pending'));
      expect(pending.length).toBeGreaterThan(0);

      // The answer job is now held inside the model; a second customer message is taken in all the same.
      const draining = t.app.queue.drain({ timeoutMs: 20_000 });
      while (blocking.started.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      await shop.says('¿Siguen ahí?');
      expect(blocking.started).toHaveLength(1);
      const received = await shop.call('GET', `/cards/${(await shop.card()).id}/messages?limit=10`);
      expect((received.json().items as Array<{ text: string }>).map((item) => item.text)).toContain('¿Siguen ahí?');

      blocking.release();
      await draining;
      await t.app.queue.drain();
      // The first answer was overtaken by the newer message; the newer one's job answered once.
      expect(await shop.aiMessages()).toEqual(['Ya te respondo.']);
    } finally {
      await t.close();
    }
  });
});
