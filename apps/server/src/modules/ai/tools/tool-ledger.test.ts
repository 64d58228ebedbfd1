import { and, asc, eq } from 'drizzle-orm';
import { AI_FALLBACK_REPLY_DEFAULT } from '@embudo/contracts/http/funnels';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { aiToolCalls, appointments, jobs, scheduledMessages } from '../../../../db/schema/index.ts';
import { seedCatalog } from '../../../../test/support/agenda-fixtures.ts';
import { type AssistantCompany, companyWithColumnAssistant } from '../../../../test/support/assistant-chat.ts';
import { buildTestApp, type TestApp } from '../../../../test/support/build-test-app.ts';
import { listenOnRandomPort } from '../../../../test/support/realtime-client.ts';
import { failedNote } from '../assistant/assistant.service.ts';
import { createGeminiModel } from '../model/gemini/gemini-model.ts';
import type { GeminiRequest } from '../model/gemini/gemini-protocol.ts';
import { answerSandboxGeminiRequest, SANDBOX_MODEL_ID } from '../model/sandbox/sandbox-gemini.ts';

/**
 * Issue 44 item 5: the sandbox model through the real Gemini adapter, with a failure injected right after a tool
 * answered. The answer job retries, or gives up, or is superseded; whatever happens, a booking, a scheduled text or a
 * move is made once, or not at all when the answer is dropped.
 */
type Interruption = (request: GeminiRequest, signal: AbortSignal | undefined) => Promise<Response | undefined>;
let interruption: Interruption | undefined;

const model = createGeminiModel({
  apiKey: 'sandbox',
  baseUrl: 'http://sandbox.invalid',
  model: SANDBOX_MODEL_ID,
  provider: 'sandbox',
  // One HTTP attempt per model call: the job's own retries are under test.
  maxAttempts: 1,
  fetch: async (_input, init) => {
    const body = JSON.parse(String(init?.body ?? '{}')) as GeminiRequest;
    const injected = await interruption?.(body, init?.signal ?? undefined);
    if (injected) return injected;
    const reply = answerSandboxGeminiRequest(body);
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json' } });
  },
});

/** Once, the model call that follows `tool`'s answer gets `status` instead of an answer. */
function failOnceAfter(tool: string, status: number) {
  let done = false;
  interruption = async (request) => {
    if (done || !answers(request, tool)) return undefined;
    done = true;
    return new Response(JSON.stringify({ error: { code: status, message: 'fallo inyectado', status: status === 503 ? 'UNAVAILABLE' : 'INVALID_ARGUMENT' } }), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  };
}

/** The sandbox's answer to `request` as if its stated current time were `minutes` later. */
function answeredAt(request: GeminiRequest, minutes: number): Response {
  const shifted = structuredClone(request);
  for (const part of shifted.systemInstruction?.parts ?? []) {
    part.text = part.text?.replace(/Fecha y hora actual: (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})/, (_line, local: string) => {
      const later = new Date(new Date(`${local}Z`).getTime() + minutes * 60_000).toISOString().slice(0, 19);
      return `Fecha y hora actual: ${later}`;
    });
  }
  const reply = answerSandboxGeminiRequest(shifted);
  return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json' } });
}

const answers = (request: GeminiRequest, tool: string) => request.contents.at(-1)?.parts.some((part) => part.functionResponse?.name === tool) ?? false;

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox', aiModel: model });
  await listenOnRandomPort(t.app);
});
afterAll(() => t.close());
beforeEach(() => {
  interruption = undefined;
});

/** The answer job waits out its backoff before the retry: the test makes it due now. */
async function retryNow() {
  await t.database.db
    .update(jobs)
    .set({ runAt: new Date() })
    .where(and(eq(jobs.name, 'ai.answer-customer'), eq(jobs.status, 'pending')));
  await t.app.queue.drain();
}

const appointmentsOf = (shop: AssistantCompany) => t.database.db.select().from(appointments).where(eq(appointments.tenantId, shop.owner.tenant.id));
const scheduledOf = (shop: AssistantCompany) =>
  t.database.db.select().from(scheduledMessages).where(eq(scheduledMessages.tenantId, shop.owner.tenant.id)).orderBy(asc(scheduledMessages.createdAt));
const callsOf = async (shop: AssistantCompany) =>
  t.database.db
    .select({ tool: aiToolCalls.toolName, state: aiToolCalls.state, effect: aiToolCalls.effect })
    .from(aiToolCalls)
    .where(eq(aiToolCalls.cardId, (await shop.card()).id))
    .orderBy(asc(aiToolCalls.createdAt), asc(aiToolCalls.callIndex));

describe('a model error after a tool call, retried', () => {
  it('leaves exactly one booking: the retry gets the recorded booking back instead of booking again', async () => {
    const shop = await companyWithColumnAssistant(t);
    await seedCatalog(t.app, shop.owner, { everyDay: true });
    await shop.says('Quiero una cita mañana a las 10');
    expect(await appointmentsOf(shop)).toEqual([]);
    failOnceAfter('book_appointment', 503);
    await shop.says('Sí, a las 10');
    // The first attempt booked, then the model failed: nothing said yet, the booking stands for the retry.
    expect(await appointmentsOf(shop)).toHaveLength(1);
    expect(await shop.aiMessages()).toHaveLength(1);

    await retryNow();
    const booked = await appointmentsOf(shop);
    expect(booked).toHaveLength(1);
    expect((await shop.aiMessages()).at(-1)).toMatch(/^Listo, tu cita quedó agendada para /);
    expect((await callsOf(shop)).filter((call) => call.tool === 'book_appointment')).toEqual([
      { tool: 'book_appointment', state: 'done', effect: { kind: 'appointment', appointmentId: booked[0]!.id } },
    ]);
  });

  it('leaves exactly one scheduled message: a retry asking for another time takes the first one back', async () => {
    const shop = await companyWithColumnAssistant(t);
    failOnceAfter('schedule_message', 503);
    await shop.says('Recuérdame mi pedido más tarde');
    expect((await scheduledOf(shop)).map((row) => row.status)).toEqual(['scheduled']);

    // The retry's model reads a later "now", so it asks for "an hour from now" at another time: another call at the
    // same place in the answer.
    interruption = async (request) => answeredAt(request, 10);
    await retryNow();
    const rows = await scheduledOf(shop);
    expect(rows.filter((row) => row.status === 'scheduled')).toHaveLength(1);
    expect(rows.map((row) => [row.status, row.errorReason])).toEqual([
      ['failed', 'La respuesta de la IA que lo programó se descartó.'],
      ['scheduled', null],
    ]);
    expect(await shop.aiMessages()).toEqual([expect.stringContaining('te enviaré el recordatorio')]);
  });

  it('leaves exactly one move, and the retry answers as the assistant of the column the chat was in', async () => {
    const shop = await companyWithColumnAssistant(t);
    await shop.says('Hola');
    failOnceAfter('move_to_column', 503);
    await shop.says('Ya estamos en conversación sobre el precio');
    const target = shop.columns.find((column) => column.title === 'En conversación')!;
    expect((await shop.card()).columnId).toBe(target.id);

    // "En conversación" has no assistant: the retry still answers, as the first column's assistant did.
    await retryNow();
    expect((await shop.card()).columnId).toBe(target.id);
    expect((await shop.aiMessages()).at(-1)).toBe('Listo, pasé tu conversación a En conversación.');
    // One call moved it; the retry got that move back instead of moving again.
    const place = (columnId: string) => ({ columnId, funnelId: shop.funnelId });
    expect(await callsOf(shop)).toEqual([
      { tool: 'move_to_column', state: 'done', effect: { kind: 'card-move', from: place(shop.columns[0]!.id), to: place(target.id) } },
    ]);
  });
});

describe('an answer that is dropped takes what its tools did with it', () => {
  it('withdraws the booking when the model then fails for good, and the customer reads the neutral sentence', async () => {
    const shop = await companyWithColumnAssistant(t);
    await seedCatalog(t.app, shop.owner, { everyDay: true });
    await shop.says('Quiero una cita mañana a las 10');
    failOnceAfter('book_appointment', 400);
    await shop.says('Sí, a las 10');
    expect(await appointmentsOf(shop)).toEqual([]);
    expect(await shop.notes()).toEqual([failedNote('Gemini respondió 400 INVALID_ARGUMENT: fallo inyectado')]);
    expect((await shop.aiMessages()).at(-1)).toBe(AI_FALLBACK_REPLY_DEFAULT);
    expect((await callsOf(shop)).map((call) => [call.tool, call.state])).toEqual([
      ['find_free_slots', 'done'],
      ['find_free_slots', 'dropped'],
      ['book_appointment', 'dropped'],
    ]);
  });

  it('moves the chat back when the model then fails for good, unless someone moved it on meanwhile', async () => {
    const shop = await companyWithColumnAssistant(t);
    await shop.says('Hola');
    failOnceAfter('move_to_column', 400);
    await shop.says('Ya estamos en conversación sobre el precio');
    expect((await shop.card()).columnId).toBe(shop.columns[0]!.id);
    expect(await shop.notes()).toEqual([failedNote('Gemini respondió 400 INVALID_ARGUMENT: fallo inyectado')]);

    // A person moves the chat on while the model words its answer: where they put it stays.
    const later = shop.columns.at(-1)!;
    let moved = false;
    interruption = async (request) => {
      if (moved || !answers(request, 'move_to_column')) return undefined;
      moved = true;
      const move = await shop.call('POST', '/card/move', { cardId: (await shop.card()).id, targetColumnId: later.id });
      expect(move.statusCode, move.body).toBe(200);
      return new Response(JSON.stringify({ error: { code: 400, message: 'fallo inyectado', status: 'INVALID_ARGUMENT' } }), { status: 400 });
    };
    await shop.says('Ya estamos en conversación sobre el precio');
    expect(moved).toBe(true);
    expect((await shop.card()).columnId).toBe(later.id);
  });

  it('superseded by a newer message: its booking is withdrawn and the newer answer books once', async () => {
    const shop = await companyWithColumnAssistant(t);
    await seedCatalog(t.app, shop.owner, { everyDay: true });
    await shop.says('Quiero una cita mañana a las 10');
    let superseded = false;
    interruption = async (request, signal) => {
      if (superseded || !answers(request, 'book_appointment')) return undefined;
      superseded = true;
      // The customer writes again while the model words its answer: the call in flight is cancelled.
      await shop.writes('Sí, a las 10, por favor');
      await new Promise((resolve) => signal!.addEventListener('abort', resolve));
      throw signal!.reason;
    };
    await shop.says('Sí, a las 10');
    expect(superseded).toBe(true);
    const booked = await appointmentsOf(shop);
    expect(booked).toHaveLength(1);
    expect((await shop.aiMessages()).at(-1)).toMatch(/^Listo, tu cita quedó agendada para /);
    expect((await callsOf(shop)).map((call) => [call.tool, call.state])).toEqual([
      ['find_free_slots', 'done'],
      ['find_free_slots', 'dropped'],
      ['book_appointment', 'dropped'],
      ['find_free_slots', 'done'],
      ['book_appointment', 'done'],
    ]);
  });
});
