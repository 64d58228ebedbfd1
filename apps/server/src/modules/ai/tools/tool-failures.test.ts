import { and, eq } from 'drizzle-orm';
import { SCHEDULE_IN_PAST } from '@embudo/contracts/http/chats';
import { AI_FALLBACK_REPLY_DEFAULT } from '@embudo/contracts/http/funnels';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../../../db/schema/index.ts';
import { startFakeWebhookServer } from '../../../../test/fakes/fake-webhook-server.ts';
import { agendaCaller } from '../../../../test/support/agenda-fixtures.ts';
import { type AssistantCompany, companyWithColumnAssistant } from '../../../../test/support/assistant-chat.ts';
import { buildTestApp, type TestApp } from '../../../../test/support/build-test-app.ts';
import { listenOnRandomPort } from '../../../../test/support/realtime-client.ts';
import { REFUSED_ADDRESS } from '../../../platform/outbound-http/outbound-http.guard.ts';
import { blockedNote, failedNote } from '../assistant/assistant.service.ts';
import { AiModelError, type AiModel } from '../model/model-port.ts';
import { createToolRunner, type ToolCall } from '../model/tool-loop.ts';
import { SLOT_TAKEN } from './assistant-tools.ts';
import { toolFailedNote } from './tool-ledger.ts';

/**
 * Issue 44 item 6: nothing internal reaches a customer. The model here is the worst case: it calls the tools it is
 * told to, then tells the customer everything they answered, word for word. Whatever a tool failure's reason, the
 * customer's messages never carry it and the team's note does; a model failure is a note and a neutral sentence.
 */
let calls: ToolCall[] = [];
let failure: unknown;

const parrot: AiModel = {
  provider: 'sandbox',
  label: 'loro',
  async answer(request) {
    if (failure) throw failure;
    const runner = createToolRunner(request);
    const heard: Array<Record<string, unknown>> = [];
    for (const call of request.tools.length > 0 ? calls : []) {
      if (request.signal?.aborted) throw request.signal.reason;
      heard.push(await runner.run(call.name, call.args));
    }
    return { text: `Resultado: ${JSON.stringify(heard)}`, toolCalls: runner.records, usage: { inputTokens: 1, outputTokens: 1 }, model: 'loro', latencyMs: 1 };
  },
  async transcribe() {
    throw new AiModelError('rejected', 'sin audio');
  },
};

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox', aiModel: parrot });
  await listenOnRandomPort(t.app);
});
afterAll(() => t.close());

/** Runs the answer's retries now instead of after their backoff, until none is left. */
async function runRetriesNow(app: TestApp) {
  for (let attempt = 0; attempt < 3; attempt++) {
    await app.database.db
      .update(jobs)
      .set({ runAt: new Date() })
      .where(and(eq(jobs.name, 'ai.answer-customer'), eq(jobs.status, 'pending')));
    await app.app.queue.drain();
  }
}

/**
 * The customer writes, the model calls `toolCalls`: a note names the failure with `reasonPart` in its reason, and
 * no message to the customer contains that reason. Answers what the customer was told.
 */
async function failsQuietly(app: TestApp, shop: AssistantCompany, toolCalls: ToolCall[], reasonPart: string) {
  calls = toolCalls;
  const notesBefore = (await shop.notes()).length;
  const toldBefore = (await shop.aiMessages()).length;
  await shop.says(`Por favor: ${toolCalls.map((call) => call.name).join(', ')}`);
  await runRetriesNow(app);
  const notes = (await shop.notes()).slice(notesBefore);
  const told = (await shop.aiMessages()).slice(toldBefore);
  const failed = toolCalls[0]!.name;
  const note = notes.find((text) => text.startsWith(toolFailedNote(failed, '')));
  expect(note, `a note for ${failed} among ${JSON.stringify(notes)}`).toBeDefined();
  const reason = note!.slice(toolFailedNote(failed, '').length);
  expect(reason).toContain(reasonPart);
  expect(told).toHaveLength(1);
  for (const text of [...told, ...(await shop.aiMessages())]) {
    expect(text).not.toContain(reason);
    expect(text).not.toContain(reasonPart);
  }
  return told[0]!;
}

const inHours = (days: number) => new Date(Date.now() + days * 24 * 3_600_000).toISOString();

describe('every tool failure path', () => {
  let shop: AssistantCompany;
  beforeAll(async () => {
    failure = undefined;
    shop = await companyWithColumnAssistant(t, { name: 'Tienda Luna' });
  });

  it('an unknown tool, bad arguments and an unknown column: the customer hears the neutral sentence', async () => {
    expect(await failsQuietly(t, shop, [{ name: 'borrar_todo', args: {} }], 'No existe la herramienta borrar_todo')).toBe(
      `Resultado: ${JSON.stringify([{ error: AI_FALLBACK_REPLY_DEFAULT }])}`,
    );
    await failsQuietly(t, shop, [{ name: 'move_to_column', args: {} }], 'Argumentos inválidos');
    await failsQuietly(t, shop, [{ name: 'move_to_column', args: { column: 'Marte' } }], 'No existe la columna "Marte"');
    await failsQuietly(t, shop, [{ name: 'hand_over_to_person', args: { reason: '   ' } }], 'Argumentos inválidos');
    expect((await shop.card()).aiEnabled).toBe(true);
  });

  it('schedule_message: bad arguments, a time in the past, a time after the 24-hour window', async () => {
    await failsQuietly(t, shop, [{ name: 'schedule_message', args: { text: 'Hola', sendAt: 'mañana' } }], 'Argumentos inválidos');
    await failsQuietly(t, shop, [{ name: 'schedule_message', args: { text: 'Hola', sendAt: inHours(-1) } }], SCHEDULE_IN_PAST);
    await failsQuietly(t, shop, [{ name: 'schedule_message', args: { text: 'Hola', sendAt: inHours(3) } }], 'ventana de 24 horas');
  });

  it('find_free_slots and book_appointment: no agenda, nobody offering, bad dates, a taken time, an unknown service', async () => {
    await failsQuietly(t, shop, [{ name: 'find_free_slots', args: {} }], 'La empresa no tiene servicios en su agenda.');
    await failsQuietly(t, shop, [{ name: 'find_free_slots', args: { date: '2030-02-31' } }], 'Argumentos inválidos');
    const call = agendaCaller(t.app);
    const service = (await call(shop.owner, 'POST', '/agenda/services', { name: 'Manicura', duration: 30, cost: 10 })).json() as { id: string };
    await failsQuietly(t, shop, [{ name: 'find_free_slots', args: {} }], 'Nadie ofrece Manicura');
    expect((await call(shop.owner, 'POST', '/agenda/professionals', { name: 'Rosa', color: 'blue', serviceIds: [service.id] })).statusCode).toBe(201);
    await failsQuietly(t, shop, [{ name: 'book_appointment', args: { start: 'mañana' } }], 'Argumentos inválidos');
    // 03:00 is outside Rosa's hours: the customer may hear that the time is not free, and no more.
    const taken = await failsQuietly(
      t,
      shop,
      [{ name: 'book_appointment', args: { start: '2030-03-04T03:00:00-05:00' } }],
      'no está libre o no es uno de los ofrecidos',
    );
    expect(taken).toBe(`Resultado: ${JSON.stringify([{ error: SLOT_TAKEN }])}`);
    await failsQuietly(
      t,
      shop,
      [{ name: 'book_appointment', args: { start: '2030-03-04T10:00:00-05:00', service: 'Masaje' } }],
      'No hay un servicio llamado "Masaje"',
    );
  });

  it('a webhook to a private address, refused by the outbound guard', async () => {
    const saved = await shop.call('PUT', `/columns/${shop.columns[0]!.id}`, {
      gemini_config: {
        isEnabled: true,
        quietSeconds: 0,
        tools: [{ type: 'webhook', id: 'w1', label: 'Consultar pedido', method: 'GET', url: 'http://127.0.0.1:9/pedidos', purpose: '' }],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await failsQuietly(t, shop, [{ name: 'webhook_1', args: {} }], REFUSED_ADDRESS);
  });
});

describe('a webhook that answers an error page', () => {
  it('is a failure: its body (a stack trace, an address) goes to the note, never to the customer', async () => {
    const web = await startFakeWebhookServer();
    const open = await buildTestApp({ providerMode: 'sandbox', aiModel: parrot, allowPrivateOutbound: true });
    try {
      await listenOnRandomPort(open.app);
      web.route('/pedidos', { status: 500, contentType: 'text/plain', body: 'Traceback: conexión a db-interna:5432 rechazada' });
      const shop = await companyWithColumnAssistant(open, {
        assistant: { tools: [{ type: 'webhook', id: 'w1', label: 'Consultar pedido', method: 'GET', url: `${web.url}/pedidos`, purpose: '' }] },
      });
      failure = undefined;
      await failsQuietly(open, shop, [{ name: 'webhook_1', args: {} }], 'db-interna:5432');
    } finally {
      await open.close();
      await web.close();
    }
  });
});

describe('every model failure', () => {
  let shop: AssistantCompany;
  beforeAll(async () => {
    calls = [];
    shop = await companyWithColumnAssistant(t, { name: 'Tienda Sol' });
  });

  /** The model fails with `error` (after the job's retries when it is transient): a note says why, the customer reads the neutral sentence. */
  async function modelFails(error: Error, telling: string) {
    // A good answer first, so the neutral sentence is not the business's last word already.
    failure = undefined;
    await shop.says('Hola');
    failure = error;
    const notesBefore = (await shop.notes()).length;
    const toldBefore = (await shop.aiMessages()).length;
    await shop.says('¿Me ayudas?');
    await runRetriesNow(t);
    failure = undefined;
    const blocked = error instanceof AiModelError && error.kind === 'blocked';
    expect((await shop.notes()).slice(notesBefore)).toEqual([blocked ? blockedNote : failedNote(error.message)]);
    expect((await shop.aiMessages()).slice(toldBefore)).toEqual([AI_FALLBACK_REPLY_DEFAULT]);
    for (const text of await shop.aiMessages()) {
      expect(text).not.toContain(error.message);
      expect(text).not.toContain(telling);
    }
  }

  it('quota, timeout and unavailable after the retries; rejected, not configured, a fault; blocked', async () => {
    await modelFails(new AiModelError('quota', 'Gemini respondió 429 RESOURCE_EXHAUSTED: cuota del proyecto 4411'), '4411');
    await modelFails(new AiModelError('timeout', 'Gemini no respondió en 30 s (host interno)'), 'host interno');
    await modelFails(new AiModelError('unavailable', 'Gemini no está disponible: ECONNRESET 10.0.0.7'), '10.0.0.7');
    await modelFails(new AiModelError('rejected', 'Gemini respondió 400: API key sk-123 inválida'), 'sk-123');
    await modelFails(new AiModelError('not_configured', 'falta GEMINI_API_KEY'), 'GEMINI_API_KEY');
    await modelFails(new TypeError("Cannot read properties of undefined (reading 'parts')"), 'reading');
    // Last: a blocked answer hands the chat to a person, who answers from then on.
    await modelFails(new AiModelError('blocked', 'Gemini bloqueó la respuesta (SAFETY)'), 'SAFETY');
    expect((await shop.card()).aiEnabled).toBe(false);
  });
});

describe('the neutral sentence is the column’s', () => {
  it('says the column’s own words, or nothing when the column leaves it empty', async () => {
    failure = new AiModelError('rejected', 'clave inválida');
    const own = await companyWithColumnAssistant(t, { assistant: { fallbackReply: 'Un momento, lo reviso con el equipo.' } });
    await own.says('Hola');
    expect(await own.aiMessages()).toEqual(['Un momento, lo reviso con el equipo.']);

    const silent = await companyWithColumnAssistant(t, { assistant: { fallbackReply: '' } });
    await silent.says('Hola');
    expect(await silent.aiMessages()).toEqual([]);
    expect(await silent.notes()).toEqual([failedNote('clave inválida')]);

    // A failed tool: the model hears the column's words, not the reason.
    failure = undefined;
    calls = [{ name: 'move_to_column', args: { column: 'Marte' } }];
    await own.says('Muévete');
    expect((await own.aiMessages()).at(-1)).toBe(`Resultado: ${JSON.stringify([{ error: 'Un momento, lo reviso con el equipo.' }])}`);
  });
});
