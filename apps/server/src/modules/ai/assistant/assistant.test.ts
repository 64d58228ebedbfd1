import { eq } from 'drizzle-orm';
import { AI_FALLBACK_REPLY_DEFAULT } from '@embudo/contracts/http/funnels';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cards, tenants } from '../../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../../test/support/factories.ts';
import { listenOnRandomPort } from '../../../../test/support/realtime-client.ts';
import { sandboxAppName } from '../../tenants/index.ts';
import { AiModelError, type AiAnswer, type AiAnswerRequest, type AiModel } from '../model/model-port.ts';
import { blockedNote, failedNote, NO_MODEL, takeoverNote, windowClosedNote } from './assistant.service.ts';

/** A model whose every answer the test writes; it records what it was asked. */
function modelAnsweredBy(answerWith: (request: AiAnswerRequest) => Promise<string> | string) {
  const requests: AiAnswerRequest[] = [];
  const model: AiModel = {
    provider: 'sandbox',
    label: 'modelo de prueba',
    async answer(request): Promise<AiAnswer> {
      requests.push(request);
      const text = await answerWith(request);
      return { text, toolCalls: [], usage: { inputTokens: 100, outputTokens: 20 }, model: 'modelo-prueba', latencyMs: 5 };
    },
    async transcribe() {
      return { text: 'Quiero agendar una cita el martes', usage: { inputTokens: 30, outputTokens: 8 }, model: 'modelo-prueba' };
    },
  };
  return { model, requests };
}

let answerWith: (request: AiAnswerRequest) => Promise<string> | string;
const scripted = modelAnsweredBy((request) => answerWith(request));
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox', aiModel: scripted.model });
  // The sandbox phone delivers to the webhook over HTTP, as Gupshup does.
  await listenOnRandomPort(t.app);
});
afterAll(() => t.close());
beforeEach(() => {
  scripted.requests.length = 0;
  answerWith = () => 'Hola, soy el asistente. ¿En qué te ayudo?';
});

type Owner = Awaited<ReturnType<typeof registerTenant>>;
let phones = 0;

async function companyWithAssistant(options: { plan?: 'basic' | 'professional'; assistant?: Record<string, unknown> } = {}) {
  const owner = await registerTenant(t.app, { companyName: 'Ferretería Núñez' });
  await t.database.db
    .update(tenants)
    .set({ subscriptionPlan: options.plan ?? 'professional' })
    .where(eq(tenants.id, owner.tenant.id));
  const call = (method: 'GET' | 'POST' | 'PUT', path: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${path}`, headers: bearer(owner.token), payload: payload as object });
  const [funnel] = (await call('GET', '/funnels/summary')).json() as { id: string }[];
  const [column] = (await call('GET', `/funnels/${funnel!.id}/columns`)).json() as { id: string }[];
  const saved = await call('PUT', `/columns/${column!.id}`, {
    gemini_config: { isEnabled: true, systemPrompt: 'Eres el asistente de ventas de la ferretería.', tools: [], quietSeconds: 0, ...options.assistant },
  });
  // A basic plan cannot switch the assistant on through the API: the test writes it as a company that changed plan would have it.
  if (options.plan !== 'basic') expect(saved.statusCode, saved.body).toBe(200);
  phones += 1;
  const customer = { appName: sandboxAppName(owner.tenant), phone: `52155700${String(phones).padStart(5, '0')}`, name: 'Lucía' };
  const says = (text: string) => t.app.sandboxPhone!.customerSends({ ...customer, kind: 'text', text });
  const card = async () => {
    const board = (await call('GET', `/funnels/${funnel!.id}/board`)).json() as { columns: { cards: { id: string; phone: string; aiEnabled: boolean }[] }[] };
    return board.columns.flatMap((entry) => entry.cards).find((entry) => entry.phone.replace(/\D/g, '') === customer.phone)!;
  };
  const timeline = async () => {
    const { id } = await card();
    return (await call('GET', `/cards/${id}/messages?limit=50`)).json() as {
      items: Array<{ kind: string; sender?: string; text: string | null; transcript?: string | null }>;
    };
  };
  const aiMessages = async () => (await timeline()).items.filter((item) => item.kind === 'message' && item.sender === 'ai').map((item) => item.text);
  const notes = async () => (await timeline()).items.filter((item) => item.kind === 'note').map((item) => item.text);
  const phoneReceived = async () =>
    (await t.app.sandboxPhone!.conversation(customer.appName, customer.phone)).filter((entry) => entry.direction === 'to_customer');
  return { owner, call, column: column!, customer, says, card, timeline, aiMessages, notes, phoneReceived };
}

describe('the column assistant', () => {
  it('answers as sender ai through the outbox, after the webhook answered, with the column prompt, the company and the chat', async () => {
    const company = await companyWithAssistant();
    await company.says('Hola, ¿tienen taladros?');
    // The webhook only enqueued: the model has not been asked yet.
    expect(scripted.requests).toHaveLength(0);
    expect((await company.card()).aiEnabled).toBe(true);

    await t.app.queue.drain();
    expect(scripted.requests).toHaveLength(1);
    const [request] = scripted.requests;
    expect(request!.instructions).toContain('Eres el asistente de ventas de la ferretería.');
    expect(request!.instructions).toContain('Empresa: Ferretería Núñez. Zona horaria:');
    expect(request!.turns).toEqual([{ role: 'customer', text: 'Hola, ¿tienen taladros?' }]);
    expect(request!.maxToolRounds).toBe(5);
    expect(await company.aiMessages()).toEqual(['Hola, soy el asistente. ¿En qué te ayudo?']);
    expect((await company.phoneReceived()).map((entry) => entry.body)).toEqual([
      expect.objectContaining({ text: 'Hola, soy el asistente. ¿En qué te ayudo?' }),
    ]);

    const usage = (await company.call('GET', '/usage')).json();
    expect(usage).toMatchObject({ aiAnswerCount: 1, aiTokenCount: 120 });
  });

  it('reads every knowledge file uploaded at the same moment: a shipping question finds the shipping price', async () => {
    const company = await companyWithAssistant();
    const uploadFile = (fileName: string, text: string) => {
      const form = new FormData();
      form.append('tool_file', new Blob([text]), fileName);
      const request = new Request('http://embudo.test/', { method: 'POST', body: form });
      return request.arrayBuffer().then((body) =>
        t.app.inject({
          method: 'POST',
          url: `/api/columns/${company.column.id}/tools/upload`,
          headers: { ...bearer(company.owner.token), 'content-type': request.headers.get('content-type')! },
          body: Buffer.from(body),
        }),
      );
    };
    const uploads = await Promise.all([
      uploadFile('precios.txt', 'El corte de cabello cuesta 250 pesos.'),
      uploadFile('envios.txt', 'El envío a domicilio cuesta 90 pesos.'),
    ]);
    expect(uploads.map((upload) => upload.statusCode)).toEqual([201, 201]);

    await company.says('¿Cuánto cuesta el envío?');
    await t.app.queue.drain();
    expect(scripted.requests).toHaveLength(1);
    expect(scripted.requests[0]!.instructions).toContain('## envios.txt\nEl envío a domicilio cuesta 90 pesos.');
    await company.says('¿Y el corte de cabello?');
    await t.app.queue.drain();
    expect(scripted.requests[1]!.instructions).toContain('## precios.txt\nEl corte de cabello cuesta 250 pesos.');
  });

  it('gives back-to-back messages one answer that reads them all', async () => {
    const company = await companyWithAssistant();
    await company.says('Hola');
    await company.says('Quiero un taladro');
    await company.says('¿Cuánto cuesta?');
    await t.app.queue.drain();
    expect(scripted.requests).toHaveLength(1);
    expect(scripted.requests[0]!.turns.map((turn) => turn.text)).toEqual(['Hola', 'Quiero un taladro', '¿Cuánto cuesta?']);
    expect(await company.aiMessages()).toHaveLength(1);
  });

  it('drops an answer the customer overtook while the model thought, and answers everything once', async () => {
    const company = await companyWithAssistant();
    let first = true;
    answerWith = async (request) => {
      if (first) {
        first = false;
        await company.says('Perdón, mejor un martillo');
        return 'Respuesta al taladro';
      }
      return `Respuesta a: ${request.turns.map((turn) => turn.text).join(' / ')}`;
    };
    await company.says('Quiero un taladro');
    await t.app.queue.drain();
    expect(scripted.requests).toHaveLength(2);
    expect(await company.aiMessages()).toEqual(['Respuesta a: Quiero un taladro / Perdón, mejor un martillo']);
  });

  it('cancels the model call in flight when the customer writes again, so one answer is worked on at a time', async () => {
    const company = await companyWithAssistant();
    let first = true;
    let aborted = false;
    answerWith = async (request) => {
      if (!first) return `Respuesta a: ${request.turns.map((turn) => turn.text).join(' / ')}`;
      first = false;
      await company.says('Y otra cosa');
      // A slow model: it only stops when the call is cancelled.
      await new Promise<void>((resolve) =>
        request.signal!.addEventListener('abort', () => {
          aborted = true;
          resolve();
        }),
      );
      throw request.signal!.reason;
    };
    await company.says('Hola');
    await t.app.queue.drain();
    expect(aborted).toBe(true);
    expect(scripted.requests).toHaveLength(2);
    expect(await company.aiMessages()).toEqual(['Respuesta a: Hola / Y otra cosa']);
    expect(await company.notes()).toEqual([]);
  });

  it('leaves its answer as a note when the 24-hour window is closed', async () => {
    const company = await companyWithAssistant();
    await company.says('¿Siguen abiertos?');
    const { id } = await company.card();
    await t.database.db
      .update(cards)
      .set({ contactLastMessageAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(cards.id, id));
    await t.app.queue.drain();
    expect(await company.aiMessages()).toEqual([]);
    expect(await company.notes()).toEqual([windowClosedNote('Hola, soy el asistente. ¿En qué te ayudo?')]);
  });

  it('steps back when a team member answers in the chat, unless the column says not to', async () => {
    const paused = await companyWithAssistant();
    await paused.says('Hola');
    await t.app.queue.drain();
    const { id } = await paused.card();
    expect((await paused.call('POST', '/message', { cardId: id, text: 'Hola Lucía, te atiendo yo.' })).statusCode).toBe(201);
    await t.app.queue.drain();
    expect((await paused.card()).aiEnabled).toBe(false);
    expect(await paused.notes()).toEqual([takeoverNote]);
    await paused.says('Gracias');
    await t.app.queue.drain();
    expect(await paused.aiMessages()).toHaveLength(1);

    const kept = await companyWithAssistant({ assistant: { pauseOnHumanReply: false } });
    await kept.says('Hola');
    await t.app.queue.drain();
    expect((await kept.call('POST', '/message', { cardId: (await kept.card()).id, text: 'Hola, aquí el equipo.' })).statusCode).toBe(201);
    await kept.says('¿Y el precio?');
    await t.app.queue.drain();
    expect((await kept.card()).aiEnabled).toBe(true);
    expect(await kept.aiMessages()).toHaveLength(2);
  });

  it('stays silent on a card with its AI off, in a column with a flow bot, and on a plan without AI', async () => {
    const off = await companyWithAssistant();
    await off.says('Hola');
    await off.call('PUT', `/cards/${(await off.card()).id}/toggle-ai`, { enabled: false });
    await t.app.queue.drain();

    const withBot = await companyWithAssistant();
    const bot = (await withBot.call('POST', '/bots', { name: 'Flujo' })).json() as { id: string };
    await withBot.call('PUT', `/columns/${withBot.column.id}`, { assistant_bot_id: bot.id });
    await withBot.says('Hola');
    await t.app.queue.drain();

    const basic = await companyWithAssistant({ plan: 'basic' });
    await basic.says('Hola');
    await t.app.queue.drain();

    expect(scripted.requests).toHaveLength(0);
    for (const company of [off, withBot, basic]) expect(await company.aiMessages()).toEqual([]);
  });

  it('leaves a note with the reason when the model fails, and hands the chat over when it refuses to answer', async () => {
    const failing = await companyWithAssistant();
    answerWith = () => {
      throw new AiModelError('rejected', 'la clave del modelo no es válida.');
    };
    await failing.says('Hola');
    await t.app.queue.drain();
    expect(await failing.notes()).toEqual([failedNote('la clave del modelo no es válida.')]);
    expect(await failing.aiMessages()).toEqual([AI_FALLBACK_REPLY_DEFAULT]);
    // Still failing: the customer is not told the same sentence after every message.
    await failing.says('¿Hola?');
    await t.app.queue.drain();
    expect(await failing.aiMessages()).toEqual([AI_FALLBACK_REPLY_DEFAULT]);
    expect(await failing.notes()).toHaveLength(2);

    const blocked = await companyWithAssistant();
    answerWith = () => {
      throw new AiModelError('blocked', 'bloqueado');
    };
    await blocked.says('Algo que el modelo no responde');
    await t.app.queue.drain();
    expect(await blocked.notes()).toEqual([blockedNote]);
    expect((await blocked.card()).aiEnabled).toBe(false);
  });
});

describe('the AI status', () => {
  it('names the model that answers, or none', async () => {
    const company = await companyWithAssistant();
    expect((await company.call('GET', '/ai/status')).json()).toEqual({ provider: 'sandbox', label: 'modelo de prueba' });
  });
});

describe('the copilot', () => {
  it('drafts a reply without sending it, and keeps a summary as an internal note', async () => {
    const company = await companyWithAssistant({ assistant: { isEnabled: false } });
    await company.says('¿Tienen taladros de 600 W?');
    await t.app.queue.drain();
    const { id } = await company.card();
    answerWith = (request) =>
      request.instructions.includes('redacta la próxima respuesta') ? 'Sí, tenemos el de 600 W a $1,200.' : '- Pregunta por un taladro de 600 W.';

    const draft = await company.call('POST', '/ai/suggest-reply', { cardId: id });
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json()).toEqual({ text: 'Sí, tenemos el de 600 W a $1,200.' });
    expect(scripted.requests[0]!.tools).toEqual([]);
    // The chat's name is the customer's (their WhatsApp profile), so the model knows who it drafts for.
    expect(scripted.requests[0]!.instructions).toContain('Nombre del cliente: Lucía.');
    expect(await company.phoneReceived()).toEqual([]);

    const summary = await company.call('POST', '/ai/summarize', { cardId: id });
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json().note).toMatchObject({ cardId: id, author: 'Copiloto IA', text: 'Resumen: - Pregunta por un taladro de 600 W.' });
    expect(await company.notes()).toEqual(['Resumen: - Pregunta por un taladro de 600 W.']);
  });

  it('refuses a plan without AI, a chat of another company, and bad input', async () => {
    const basic = await companyWithAssistant({ plan: 'basic', assistant: { isEnabled: false } });
    await basic.says('Hola');
    const refused = await basic.call('POST', '/ai/suggest-reply', { cardId: (await basic.card()).id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('El asistente de IA es una función del plan Pro.');

    const other = await companyWithAssistant({ assistant: { isEnabled: false } });
    await other.says('Hola');
    expect((await basic.call('POST', '/ai/summarize', { cardId: (await other.card()).id })).statusCode).toBe(404);
    const bad = await other.call('POST', '/ai/suggest-reply', { cardId: 'no-es-un-id' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Chat inválido.');
    expect(scripted.requests).toHaveLength(0);
  });
});

describe('voice notes', () => {
  it('are transcribed once stored, shown under the player, and answered from the transcript', async () => {
    const company = await companyWithAssistant();
    const fake = t.app.sandboxPhone!;
    const url = await fake.storeFile(Buffer.concat([Buffer.from('OggS'), Buffer.alloc(60, 1)]), 'audio/ogg');
    await fake.customerSends({ ...company.customer, kind: 'audio', url, contentType: 'audio/ogg' });
    await t.app.queue.drain();
    const voice = (await company.timeline()).items.find((item) => item.kind === 'message' && item.sender === 'contact');
    expect(voice?.transcript).toBe('Quiero agendar una cita el martes');
    expect(scripted.requests).toHaveLength(1);
    expect(scripted.requests[0]!.turns).toEqual([{ role: 'customer', text: 'Quiero agendar una cita el martes' }]);
    expect((await company.call('GET', '/usage')).json().aiTokenCount).toBe(38 + 120);
  });
});

describe('without a model', () => {
  it('says so in a note, the customer reads the neutral sentence, and the copilot says it is unavailable', async () => {
    const bare = await buildTestApp({ providerMode: 'sandbox' });
    try {
      await listenOnRandomPort(bare.app);
      const owner: Owner = await registerTenant(bare.app);
      await bare.database.db.update(tenants).set({ subscriptionPlan: 'professional' }).where(eq(tenants.id, owner.tenant.id));
      const call = (method: 'GET' | 'POST' | 'PUT', path: string, payload?: unknown) =>
        bare.app.inject({ method, url: `/api${path}`, headers: bearer(owner.token), payload: payload as object });
      const [funnel] = (await call('GET', '/funnels/summary')).json() as { id: string }[];
      const [column] = (await call('GET', `/funnels/${funnel!.id}/columns`)).json() as { id: string }[];
      await call('PUT', `/columns/${column!.id}`, { gemini_config: { isEnabled: true, systemPrompt: '', tools: [], quietSeconds: 0 } });
      await bare.app.sandboxPhone!.customerSends({
        appName: sandboxAppName(owner.tenant),
        phone: '5215579999999',
        name: 'Ana',
        kind: 'text',
        text: 'Hola',
      });
      await bare.app.queue.drain();
      const board = (await call('GET', `/funnels/${funnel!.id}/board`)).json() as { columns: { cards: { id: string }[] }[] };
      const cardId = board.columns[0]!.cards[0]!.id;
      const items = (await call('GET', `/cards/${cardId}/messages`)).json().items as Array<{ kind: string; sender?: string; text: string }>;
      expect(items.filter((item) => item.kind === 'note').map((item) => item.text)).toEqual([failedNote(NO_MODEL)]);
      expect(items.filter((item) => item.sender === 'ai').map((item) => item.text)).toEqual([AI_FALLBACK_REPLY_DEFAULT]);
      expect((await call('GET', '/ai/status')).json()).toEqual({ provider: null, label: null });
      const copilot = await call('POST', '/ai/suggest-reply', { cardId });
      expect(copilot.statusCode).toBe(503);
      expect(copilot.json().message).toBe('La IA no está disponible: no hay un modelo de IA configurado.');
    } finally {
      await bare.close();
    }
  });
});
