import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { geminiBlocked, geminiCalls, geminiError, geminiText, startFakeGeminiServer } from '../../../../../test/fakes/fake-gemini-server.ts';
import { AiModelError, type AiTool, TOOL_FAILED } from '../model-port.ts';
import { createGeminiModel, TRANSCRIBE_INSTRUCTION } from './gemini-model.ts';
import { SANDBOX_TRANSCRIPT } from '../sandbox/sandbox-gemini.ts';
import { fakeEmbedding } from '../../../../../test/fakes/fake-embeddings.ts';

let fake: Awaited<ReturnType<typeof startFakeGeminiServer>>;
let sleeps: number[];
beforeAll(async () => {
  fake = await startFakeGeminiServer();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  sleeps = [];
});

// Far above any answer of the in-process fake, so a run slowed by a busy machine never turns into a timeout and a
// retry; the timeout test sets its own.
const TEST_TIMEOUT_MS = 15_000;

const model = (overrides: { apiKey?: string; timeoutMs?: number } = {}) =>
  createGeminiModel({
    apiKey: overrides.apiKey ?? fake.apiKey,
    baseUrl: fake.url,
    model: 'gemini-2.5-flash',
    timeoutMs: overrides.timeoutMs ?? TEST_TIMEOUT_MS,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });

function tool(name: string, execute: AiTool['execute'] = async (args) => ({ ok: true, ...args })): AiTool {
  return {
    name,
    description: `Herramienta ${name}`,
    execute,
    parameters: {
      type: 'object',
      properties: { column: { type: 'string', description: 'Columna', enum: ['Ventas'] }, count: { type: 'integer' } },
      required: ['column'],
    },
  };
}

async function failureOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AiModelError);
  return error as AiModelError;
}

describe('Gemini adapter', () => {
  it('sends systemInstruction, merged user/model turns, JSON Schema function declarations and AUTO calling', async () => {
    fake.reply(geminiText('Hola, ¿en qué te ayudo?'));
    const answer = await model().answer({
      instructions: 'Eres el asistente de Peluquería Sol.',
      turns: [
        { role: 'customer', text: 'Hola' },
        { role: 'customer', text: '¿Abren hoy?' },
        { role: 'business', text: 'Sí' },
        { role: 'customer', text: 'Gracias' },
      ],
      tools: [tool('move_to_column')],
    });

    expect(answer).toMatchObject({ text: 'Hola, ¿en qué te ayudo?', toolCalls: [], usage: { inputTokens: 10, outputTokens: 5 }, model: 'gemini-2.5-flash' });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.model).toBe('gemini-2.5-flash');
    expect(fake.requests[0]!.headers['x-goog-api-key']).toBe(fake.apiKey);
    expect(fake.requests[0]!.body).toEqual({
      systemInstruction: { parts: [{ text: 'Eres el asistente de Peluquería Sol.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Hola\n¿Abren hoy?' }] },
        { role: 'model', parts: [{ text: 'Sí' }] },
        { role: 'user', parts: [{ text: 'Gracias' }] },
      ],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'move_to_column',
              description: 'Herramienta move_to_column',
              // Plain JSON Schema, which Gemini takes as `parametersJsonSchema` (the AI SDK's choice).
              parametersJsonSchema: {
                type: 'object',
                properties: { column: { type: 'string', description: 'Columna', enum: ['Ventas'] }, count: { type: 'integer' } },
                required: ['column'],
              },
            },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
      generationConfig: {},
    });
  });

  it('sends no tools at all when none are offered', async () => {
    fake.reply(geminiText('Hola'));
    await model().answer({ instructions: 'x', turns: [{ role: 'customer', text: 'Hola' }], tools: [] });
    expect(fake.requests[0]!.body).not.toHaveProperty('tools');
    expect(fake.requests[0]!.body).not.toHaveProperty('toolConfig');
  });

  it('runs parallel and multi-round calls, echoing the model turn with its thoughtSignature and answering each call by id', async () => {
    fake.reply(
      geminiCalls(
        [
          { name: 'move_to_column', args: { column: 'Ventas' }, id: 'call-a', thoughtSignature: 'U0lHLUE=' },
          { name: 'broken', args: { column: 'x' }, id: 'call-b' },
        ],
        { promptTokenCount: 100, candidatesTokenCount: 7 },
      ),
      geminiCalls([{ name: 'move_to_column', args: { column: 'Nuevos' } }], { promptTokenCount: 150, candidatesTokenCount: 3 }),
      geminiText('Listo.', { promptTokenCount: 200, candidatesTokenCount: 2 }),
    );
    const answer = await model().answer({
      instructions: 'x',
      turns: [{ role: 'customer', text: 'Pásame a ventas' }],
      tools: [
        tool('move_to_column'),
        tool('broken', async () => {
          throw new Error('la columna no existe');
        }),
      ],
    });

    expect(answer.text).toBe('Listo.');
    expect(answer.usage).toEqual({ inputTokens: 450, outputTokens: 12 });
    expect(answer.toolCalls).toEqual([
      { name: 'move_to_column', args: { column: 'Ventas' }, result: { ok: true, column: 'Ventas' } },
      // The model hears only neutral words; the reason stays with the caller.
      { name: 'broken', args: { column: 'x' }, result: { error: TOOL_FAILED }, failure: 'la columna no existe' },
      { name: 'move_to_column', args: { column: 'Nuevos' }, result: { ok: true, column: 'Nuevos' } },
    ]);
    const second = fake.requests[1]!.body['contents'] as unknown[];
    expect(second.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          { functionCall: { id: 'call-a', name: 'move_to_column', args: { column: 'Ventas' } }, thoughtSignature: 'U0lHLUE=' },
          { functionCall: { id: 'call-b', name: 'broken', args: { column: 'x' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          // The AI SDK wraps each result as { name, content }.
          { functionResponse: { id: 'call-a', name: 'move_to_column', response: { name: 'move_to_column', content: { ok: true, column: 'Ventas' } } } },
          { functionResponse: { id: 'call-b', name: 'broken', response: { name: 'broken', content: { error: TOOL_FAILED } } } },
        ],
      },
    ]);
    const third = fake.requests[2]!.body['contents'] as unknown[];
    // A call without an id gets one from the SDK, and its answer points at it.
    const unnamedCall = (third.at(-2) as { parts: Array<{ functionCall: { id: string } }> }).parts[0]!.functionCall.id;
    expect(third.at(-1)).toEqual({
      role: 'user',
      parts: [{ functionResponse: { id: unnamedCall, name: 'move_to_column', response: { name: 'move_to_column', content: { ok: true, column: 'Nuevos' } } } }],
    });
  });

  it('stops offering tools after maxToolRounds: the last call forbids calling and its words are the answer', async () => {
    const call = geminiCalls([{ name: 'move_to_column', args: { column: 'Ventas' } }]);
    fake.reply(call, call, geminiText('Ya moví tu conversación.'));
    const answer = await model().answer({ instructions: 'x', turns: [{ role: 'customer', text: 'hola' }], tools: [tool('move_to_column')], maxToolRounds: 2 });

    expect(answer.text).toBe('Ya moví tu conversación.');
    expect(answer.toolCalls).toHaveLength(2);
    expect(fake.requests.map((request) => (request.body['toolConfig'] as { functionCallingConfig: { mode: string } }).functionCallingConfig.mode)).toEqual([
      'AUTO',
      'AUTO',
      'NONE',
    ]);
  });

  it('reports a call on the round where calling was forbidden as unavailable', async () => {
    const call = geminiCalls([{ name: 'move_to_column', args: { column: 'Ventas' } }]);
    fake.reply(call, call);
    const failure = await failureOf(
      model().answer({ instructions: 'x', turns: [{ role: 'customer', text: 'hola' }], tools: [tool('move_to_column')], maxToolRounds: 1 }),
    );
    expect(failure.kind).toBe('unavailable');
    expect(fake.requests.at(-1)!.body['toolConfig']).toEqual({ functionCallingConfig: { mode: 'NONE' } });
  });

  it('retries 429 (waiting what RetryInfo asks, capped) and 503 with exponential backoff, then answers', async () => {
    fake.reply(geminiError(429, { retryDelay: '3s' }), geminiError(503), geminiText('Por fin'));
    const answer = await model().answer({ instructions: 'x', turns: [{ role: 'customer', text: 'hola' }], tools: [] });
    expect(answer.text).toBe('Por fin');
    expect(sleeps).toEqual([3_000, 2_000]);

    fake.reply(geminiError(429, { retryDelay: '600s' }), geminiText('Ok'));
    await model().answer({ instructions: 'x', turns: [{ role: 'customer', text: 'hola' }], tools: [] });
    expect(sleeps.at(-1)).toBe(20_000);
  });

  it('gives up after the attempts: quota for 429, unavailable for 500/503', async () => {
    fake.reply(geminiError(429), geminiError(429), geminiError(429));
    const quota = await failureOf(model().answer({ instructions: 'x', turns: [{ role: 'customer', text: 'hola' }], tools: [] }));
    expect(quota.kind).toBe('quota');
    expect(quota.message).toContain('429 RESOURCE_EXHAUSTED');
    expect(sleeps).toEqual([1_000, 2_000]);

    fake.reply(geminiError(500), geminiError(503), geminiError(500));
    expect((await failureOf(model().answer({ instructions: 'x', turns: [{ role: 'customer', text: 'hola' }], tools: [] }))).kind).toBe('unavailable');
    expect(fake.requests).toHaveLength(6);
  });

  it('maps SAFETY answers and blocked prompts to blocked', async () => {
    fake.reply(geminiBlocked('SAFETY'));
    expect((await failureOf(model().answer({ instructions: 'x', turns: [{ role: 'customer', text: 'hola' }], tools: [] }))).kind).toBe('blocked');
    fake.reply({ body: { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 3 } } });
    const blocked = await failureOf(model().answer({ instructions: 'x', turns: [{ role: 'customer', text: 'hola' }], tools: [] }));
    expect(blocked.kind).toBe('blocked');
    expect(blocked.message).toContain('PROHIBITED_CONTENT');
  });

  it('reports a malformed function call instead of answering nothing', async () => {
    fake.reply(geminiBlocked('MALFORMED_FUNCTION_CALL'));
    const failure = await failureOf(model().answer({ instructions: 'x', turns: [{ role: 'customer', text: 'hola' }], tools: [tool('move_to_column')] }));
    expect(failure.kind).toBe('unavailable');
    expect(failure.message).toContain('MALFORMED_FUNCTION_CALL');
  });

  it('times out a request that takes too long', async () => {
    fake.reply({ ...geminiText('tarde'), delayMs: 300 });
    const failure = await failureOf(model({ timeoutMs: 50 }).answer({ instructions: 'x', turns: [{ role: 'customer', text: 'hola' }], tools: [] }));
    expect(failure.kind).toBe('timeout');
  });

  it('rejects at once a bad key or a malformed request (no retries)', async () => {
    const badKey = await failureOf(model({ apiKey: 'wrong' }).answer({ instructions: 'x', turns: [{ role: 'customer', text: 'hola' }], tools: [] }));
    expect(badKey.kind).toBe('rejected');
    expect(badKey.message).toContain('403 PERMISSION_DENIED');
    fake.reply(geminiError(400));
    expect((await failureOf(model().answer({ instructions: 'x', turns: [{ role: 'customer', text: 'hola' }], tools: [] }))).kind).toBe('rejected');
    expect(fake.requests).toHaveLength(2);
    expect(sleeps).toEqual([]);
  });

  it('transcribes audio as an inlineData part with a Spanish verbatim instruction', async () => {
    const transcript = await model().transcribe({ data: Buffer.from('OggS-fake-audio'), mimeType: 'audio/ogg; codecs=opus' });
    expect(transcript).toMatchObject({ text: SANDBOX_TRANSCRIPT, model: 'gemini-2.5-flash' });
    expect(transcript.usage.inputTokens).toBeGreaterThan(0);
    expect(fake.requests[0]!.body).toEqual({
      contents: [
        {
          role: 'user',
          parts: [
            { inlineData: { mimeType: 'audio/ogg; codecs=opus', data: Buffer.from('OggS-fake-audio').toString('base64') } },
            { text: TRANSCRIBE_INSTRUCTION },
          ],
        },
      ],
      generationConfig: {},
    });
  });

  it('opens with a user turn when the business wrote first, and counts thinking tokens as output', async () => {
    fake.reply(geminiText('Claro', { promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: 20 }));
    const answer = await model().answer({
      instructions: 'x',
      turns: [
        { role: 'business', text: 'Tu pedido está listo' },
        { role: 'customer', text: '¿Lo envían?' },
      ],
      tools: [],
    });
    expect(answer.usage).toEqual({ inputTokens: 10, outputTokens: 25 });
    expect(fake.requests[0]!.body['contents']).toEqual([
      { role: 'user', parts: [{ text: '(comienzo de la conversación)' }] },
      { role: 'model', parts: [{ text: 'Tu pedido está listo' }] },
      { role: 'user', parts: [{ text: '¿Lo envían?' }] },
    ]);
  });

  it('allows five tool rounds by default', async () => {
    const call = geminiCalls([{ name: 'move_to_column', args: { column: 'Ventas' } }]);
    fake.reply(call, call, call, call, call, geminiText('Fin'));
    const answer = await model().answer({ instructions: 'x', turns: [{ role: 'customer', text: 'hola' }], tools: [tool('move_to_column')] });
    expect(answer.toolCalls).toHaveLength(5);
    expect(fake.requests).toHaveLength(6);
    expect(fake.requests.at(-1)!.body['toolConfig']).toEqual({ functionCallingConfig: { mode: 'NONE' } });
  });

  it('stops when the caller aborts, without retrying', async () => {
    const controller = new AbortController();
    controller.abort(new Error('superseded'));
    await expect(model().answer({ instructions: 'x', turns: [{ role: 'customer', text: 'hola' }], tools: [], signal: controller.signal })).rejects.toThrow(
      'superseded',
    );
    expect(fake.requests).toHaveLength(0);
  });

  it('runs no tool once the caller aborts, even when the abort comes as the model answers, and asks nothing more', async () => {
    const controller = new AbortController();
    const ran: string[] = [];
    // The customer writes again just as the model's call arrives.
    const abortingOnAnswer = createGeminiModel({
      apiKey: fake.apiKey,
      baseUrl: fake.url,
      timeoutMs: TEST_TIMEOUT_MS,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        const body = await response.text();
        controller.abort(new Error('superseded'));
        return new Response(body, { status: response.status, headers: response.headers });
      },
    });
    fake.reply(geminiCalls([{ name: 'move_to_column', args: { column: 'Ventas' }, id: 'a' }]));
    const answering = abortingOnAnswer.answer({
      instructions: 'x',
      turns: [{ role: 'customer', text: 'hola' }],
      signal: controller.signal,
      tools: [
        tool('move_to_column', async () => {
          ran.push('move_to_column');
          return { ok: true };
        }),
      ],
    });
    await expect(answering).rejects.toThrow('superseded');
    expect(ran).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it('reports a server nobody answers on as unavailable after the retries', async () => {
    const closed = await startFakeGeminiServer();
    await closed.close();
    const unreachable = createGeminiModel({
      apiKey: 'k',
      baseUrl: closed.url,
      timeoutMs: TEST_TIMEOUT_MS,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    expect((await failureOf(unreachable.answer({ instructions: 'x', turns: [{ role: 'customer', text: 'hola' }], tools: [] }))).kind).toBe('unavailable');
    expect(sleeps).toEqual([1_000, 2_000]);
  });
});

describe('Gemini embeddings', () => {
  const embedder = (overrides: { apiKey?: string } = {}) =>
    createGeminiModel({
      apiKey: overrides.apiKey ?? fake.apiKey,
      baseUrl: fake.url,
      model: 'gemini-2.5-flash',
      embeddingModel: 'gemini-embedding-001',
      timeoutMs: TEST_TIMEOUT_MS,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });

  it('embeds a question with :embedContent as a RETRIEVAL_QUERY', async () => {
    const embeddings = await embedder().embed!({ texts: ['¿Abren el sábado?'], purpose: 'query' });
    expect(embeddings).toEqual({ model: 'gemini-embedding-001', vectors: [fakeEmbedding('¿Abren el sábado?')] });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ model: 'gemini-embedding-001', method: 'embedContent', headers: { 'x-goog-api-key': fake.apiKey } });
    expect(fake.requests[0]!.body).toEqual({
      model: 'models/gemini-embedding-001',
      content: { parts: [{ text: '¿Abren el sábado?' }] },
      taskType: 'RETRIEVAL_QUERY',
    });
  });

  it('embeds documents with :batchEmbedContents as RETRIEVAL_DOCUMENT, 100 texts a request, one request at a time, vectors in order', async () => {
    const texts = Array.from({ length: 230 }, (_, index) => `Fragmento ${index} del archivo de conocimiento.`);
    fake.reply({ body: { embeddings: texts.slice(0, 100).map((text) => ({ values: fakeEmbedding(text) })) }, delayMs: 1_000 });
    const embedding = embedder().embed!({ texts, purpose: 'document' });
    for (const deadline = Date.now() + 5_000; fake.requests.length === 0 && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The first batch is still being answered: nothing else was sent.
    expect(fake.requests).toHaveLength(1);
    const embeddings = await embedding;

    expect(embeddings.vectors).toEqual(texts.map((text) => fakeEmbedding(text)));
    expect(embeddings.usage).toBeUndefined();
    expect(fake.requests.map((request) => [request.method, (request.body['requests'] as unknown[]).length])).toEqual([
      ['batchEmbedContents', 100],
      ['batchEmbedContents', 100],
      ['batchEmbedContents', 30],
    ]);
    expect((fake.requests[2]!.body['requests'] as unknown[])[0]).toEqual({
      model: 'models/gemini-embedding-001',
      content: { role: 'user', parts: [{ text: 'Fragmento 200 del archivo de conocimiento.' }] },
      taskType: 'RETRIEVAL_DOCUMENT',
    });
  });

  it('asks nothing for no texts', async () => {
    expect(await embedder().embed!({ texts: [], purpose: 'document' })).toEqual({ model: 'gemini-embedding-001', vectors: [] });
    expect(fake.requests).toHaveLength(0);
  });

  it('retries a 429 as RetryInfo asks; classifies what stays failed: quota, unavailable, rejected', async () => {
    fake.reply(geminiError(429, { retryDelay: '2s' }));
    expect((await embedder().embed!({ texts: ['a', 'b'], purpose: 'document' })).vectors).toHaveLength(2);
    expect(sleeps).toEqual([2_000]);

    fake.reply(geminiError(429), geminiError(429), geminiError(429));
    expect((await failureOf(embedder().embed!({ texts: ['a'], purpose: 'query' }))).kind).toBe('quota');
    fake.reply(geminiError(503), geminiError(500), geminiError(503));
    expect((await failureOf(embedder().embed!({ texts: ['a', 'b'], purpose: 'document' }))).kind).toBe('unavailable');
    const badKey = await failureOf(embedder({ apiKey: 'wrong' }).embed!({ texts: ['a'], purpose: 'query' }));
    expect(badKey.kind).toBe('rejected');
    expect(badKey.message).toContain('403 PERMISSION_DENIED');
  });

  it('reports an answer without vectors as unavailable, and stops when the caller aborts', async () => {
    fake.reply({ body: { embeddings: 'none' } });
    expect((await failureOf(embedder().embed!({ texts: ['a', 'b'], purpose: 'document' }))).kind).toBe('unavailable');

    const controller = new AbortController();
    controller.abort(new Error('superseded'));
    await expect(embedder().embed!({ texts: ['a'], purpose: 'query', signal: controller.signal })).rejects.toThrow('superseded');
    expect(fake.requests).toHaveLength(1);
  });

  it('has no embed without an embedding model', () => {
    expect(model().embed).toBeUndefined();
  });
});
