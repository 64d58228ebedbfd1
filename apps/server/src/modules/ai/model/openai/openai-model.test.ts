import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAiError, openAiText, openAiToolCalls, startFakeOpenAiServer } from '../../../../../test/fakes/fake-openai-server.ts';
import { AiModelError, type AiTool, TOOL_FAILED } from '../model-port.ts';
import { createOpenAiModel } from './openai-model.ts';
import { fakeEmbedding } from '../../../../../test/fakes/fake-embeddings.ts';

let fake: Awaited<ReturnType<typeof startFakeOpenAiServer>>;
let sleeps: number[];
beforeAll(async () => {
  fake = await startFakeOpenAiServer({ apiKey: 'sk-test' });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  sleeps = [];
});

const model = (overrides: { apiKey?: string; timeoutMs?: number } = {}) =>
  createOpenAiModel({
    baseUrl: fake.url,
    apiKey: overrides.apiKey ?? 'sk-test',
    model: 'gpt-4o-mini',
    timeoutMs: overrides.timeoutMs ?? 2_000,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });

const scheduleTool: AiTool = {
  name: 'schedule_message',
  description: 'Programa un mensaje',
  parameters: { type: 'object', properties: { text: { type: 'string' }, sendAt: { type: 'string', description: 'ISO-8601' } }, required: ['text', 'sendAt'] },
  execute: async (args) => ({ ok: true, scheduledFor: args['sendAt'] }),
};

async function failureOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AiModelError);
  return error as AiModelError;
}

const hello = { instructions: 'Eres el asistente.', turns: [{ role: 'customer' as const, text: 'Hola' }], tools: [] };

describe('OpenAI-compatible adapter', () => {
  it('sends the system message, merged user/assistant turns and function tools with a Bearer key', async () => {
    fake.reply(openAiText('¡Hola!'));
    const answer = await model().answer({
      instructions: 'Eres el asistente.',
      turns: [
        { role: 'customer', text: 'Hola' },
        { role: 'business', text: 'Buenas' },
        { role: 'business', text: '¿Qué necesitas?' },
        { role: 'customer', text: 'Un recordatorio' },
      ],
      tools: [scheduleTool],
    });
    expect(answer).toMatchObject({ text: '¡Hola!', usage: { inputTokens: 12, outputTokens: 4 }, model: 'gpt-4o-mini', toolCalls: [] });
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer sk-test');
    expect(fake.requests[0]!.body).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Eres el asistente.' },
        { role: 'user', content: 'Hola' },
        { role: 'assistant', content: 'Buenas\n¿Qué necesitas?' },
        { role: 'user', content: 'Un recordatorio' },
      ],
      tools: [{ type: 'function', function: { name: 'schedule_message', description: 'Programa un mensaje', parameters: scheduleTool.parameters } }],
      tool_choice: 'auto',
    });
  });

  it('answers parallel tool_calls with role tool messages, round after round, usage summed', async () => {
    fake.reply(
      openAiToolCalls([
        { id: 'call_1', name: 'schedule_message', args: { text: 'Recordatorio', sendAt: '2026-11-25T09:00:00-03:00' } },
        { id: 'call_2', name: 'unknown_tool', args: {} },
      ]),
      openAiToolCalls([{ id: 'call_3', name: 'schedule_message', args: { text: 'Otro', sendAt: '2026-11-26T09:00:00-03:00' } }]),
      openAiText('Listo, te lo recuerdo.'),
    );
    const answer = await model().answer({ ...hello, tools: [scheduleTool] });

    expect(answer.text).toBe('Listo, te lo recuerdo.');
    expect(answer.usage).toEqual({ inputTokens: 36, outputTokens: 12 });
    expect(answer.toolCalls.map((call) => [call.name, call.result])).toEqual([
      ['schedule_message', { ok: true, scheduledFor: '2026-11-25T09:00:00-03:00' }],
      ['unknown_tool', { error: TOOL_FAILED }],
      ['schedule_message', { ok: true, scheduledFor: '2026-11-26T09:00:00-03:00' }],
    ]);
    const messages = fake.requests[1]!.body['messages'] as unknown[];
    expect(messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'schedule_message', arguments: JSON.stringify({ text: 'Recordatorio', sendAt: '2026-11-25T09:00:00-03:00' }) },
          },
          { id: 'call_2', type: 'function', function: { name: 'unknown_tool', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: JSON.stringify({ ok: true, scheduledFor: '2026-11-25T09:00:00-03:00' }) },
      // A tool that was not offered: the SDK refused the call; the model reads only the neutral words.
      { role: 'tool', tool_call_id: 'call_2', content: JSON.stringify({ error: TOOL_FAILED }) },
    ]);
    expect((fake.requests[2]!.body['messages'] as unknown[]).at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_3' });
  });

  it('copes with a local server that leaves out call ids and sends arguments as an object', async () => {
    fake.reply(
      {
        body: {
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: '',
                tool_calls: [{ type: 'function', function: { name: 'schedule_message', arguments: { text: 'x', sendAt: 'y' } } }],
              },
              finish_reason: 'tool_calls',
            },
          ],
        },
      },
      openAiText('Hecho.'),
    );
    const answer = await model().answer({ ...hello, tools: [scheduleTool] });
    expect(answer.toolCalls).toEqual([{ name: 'schedule_message', args: { text: 'x', sendAt: 'y' }, result: { ok: true, scheduledFor: 'y' } }]);
    const [assistant, toolMessage] = (fake.requests[1]!.body['messages'] as Array<Record<string, unknown>>).slice(2);
    const id = (assistant!['tool_calls'] as Array<{ id: string }>)[0]!.id;
    expect(id).toMatch(/^\w{8,}$/);
    expect(toolMessage).toMatchObject({ role: 'tool', tool_call_id: id });
  });

  it('opens a conversation without turns (a chat with only notes) with a stand-in user message', async () => {
    fake.reply(openAiText('Resumen: sin mensajes.'));
    expect((await model().answer({ ...hello, turns: [] })).text).toBe('Resumen: sin mensajes.');
    expect(fake.requests[0]!.body['messages']).toEqual([
      { role: 'system', content: 'Eres el asistente.' },
      { role: 'user', content: '(comienzo de la conversación)' },
    ]);
  });

  it('forbids tools on the last call once maxToolRounds are used', async () => {
    const call = openAiToolCalls([{ id: 'c', name: 'schedule_message', args: { text: 'x', sendAt: 'y' } }]);
    fake.reply(call, openAiText('Hecho.'));
    const answer = await model().answer({ ...hello, tools: [scheduleTool], maxToolRounds: 1 });
    expect(answer.text).toBe('Hecho.');
    expect(fake.requests.map((request) => request.body['tool_choice'])).toEqual(['auto', 'none']);
  });

  it('retries 429 as Retry-After asks and 503 with backoff; gives up as quota, unavailable; 401 is rejected at once', async () => {
    fake.reply(openAiError(429, 'rate_limit_exceeded', { 'retry-after': '4' }), openAiError(503, 'overloaded'), openAiText('ok'));
    expect((await model().answer(hello)).text).toBe('ok');
    expect(sleeps).toEqual([4_000, 2_000]);

    fake.reply(openAiError(429, 'insufficient_quota'));
    expect((await failureOf(model().answer(hello))).kind).toBe('quota');
    fake.reply(openAiError(500, 'server_error'), openAiError(502, 'bad_gateway'), openAiError(503, 'overloaded'));
    expect((await failureOf(model().answer(hello))).kind).toBe('unavailable');
    const badKey = await failureOf(model({ apiKey: 'sk-wrong' }).answer(hello));
    expect(badKey.kind).toBe('rejected');
    expect(badKey.message).toContain('401 invalid_api_key');
    expect(fake.requests).toHaveLength(8);
  });

  it('maps a content filter to blocked and a slow answer to timeout', async () => {
    fake.reply({ body: { choices: [{ index: 0, message: { role: 'assistant', content: null }, finish_reason: 'content_filter' }] } });
    expect((await failureOf(model().answer(hello))).kind).toBe('blocked');
    fake.reply({ ...openAiText('tarde'), delayMs: 300 });
    expect((await failureOf(model({ timeoutMs: 50 }).answer(hello))).kind).toBe('timeout');
  });

  it('transcribes through /audio/transcriptions as multipart with the transcription model', async () => {
    const transcript = await model().transcribe({ data: Buffer.from('OggS-audio'), mimeType: 'audio/ogg; codecs=opus' });
    expect(transcript).toEqual({ text: 'Hola, quiero saber el precio.', usage: { inputTokens: 0, outputTokens: 0 }, model: 'whisper-1' });
    expect(fake.requests[0]).toMatchObject({
      path: '/v1/audio/transcriptions',
      headers: { authorization: 'Bearer sk-test' },
      body: { model: 'whisper-1', language: 'es', file: { filename: 'nota-de-voz.ogg', mimetype: 'audio/ogg', size: 10 } },
    });
  });

  describe('embeddings', () => {
    const embedder = (overrides: { apiKey?: string } = {}) =>
      createOpenAiModel({
        baseUrl: fake.url,
        apiKey: overrides.apiKey ?? 'sk-test',
        model: 'gpt-4o-mini',
        embeddingModel: 'text-embedding-3-small',
        timeoutMs: 2_000,
        sleep: async (ms) => {
          sleeps.push(ms);
        },
      });

    it('has none unless an embedding model is named, so retrieval stays lexical', () => {
      expect(model().embed).toBeUndefined();
      expect(embedder().embed).toBeTypeOf('function');
    });

    it('posts the texts to /embeddings with a Bearer key and returns the vectors in order with the tokens counted', async () => {
      const texts = ['Abrimos de lunes a sábado.', '¿Abren el sábado?'];
      const embeddings = await embedder().embed!({ texts, purpose: 'document' });
      expect(embeddings).toEqual({ model: 'text-embedding-3-small', vectors: texts.map((text) => fakeEmbedding(text)), usage: { inputTokens: 12 } });
      expect(fake.requests).toHaveLength(1);
      expect(fake.requests[0]).toMatchObject({ path: '/v1/embeddings', headers: { authorization: 'Bearer sk-test' } });
      expect(fake.requests[0]!.body).toEqual({ model: 'text-embedding-3-small', input: texts, encoding_format: 'float' });
    });

    it('sends 2,048 texts a request at most', async () => {
      const texts = Array.from({ length: 2_050 }, (_, index) => `t${index}`);
      const embeddings = await embedder().embed!({ texts, purpose: 'document' });
      expect(embeddings.vectors).toHaveLength(2_050);
      expect(embeddings.vectors.at(-1)).toEqual(fakeEmbedding('t2049'));
      expect(fake.requests.map((request) => (request.body['input'] as unknown[]).length)).toEqual([2_048, 2]);
    });

    it('classifies failures: 401 rejected at once, 5xx unavailable after the retries', async () => {
      const badKey = await failureOf(embedder({ apiKey: 'sk-wrong' }).embed!({ texts: ['a'], purpose: 'query' }));
      expect(badKey.kind).toBe('rejected');
      expect(badKey.message).toContain('401 invalid_api_key');
      fake.reply(openAiError(500, 'server_error'), openAiError(503, 'overloaded'), openAiError(503, 'overloaded'));
      expect((await failureOf(embedder().embed!({ texts: ['a'], purpose: 'query' }))).kind).toBe('unavailable');
      expect(sleeps).toEqual([1_000, 2_000]);
    });
  });

  describe('a local server without a key', () => {
    let local: Awaited<ReturnType<typeof startFakeOpenAiServer>>;
    beforeAll(async () => {
      local = await startFakeOpenAiServer();
    });
    afterAll(() => local.close());

    it('sends no Authorization header', async () => {
      const answer = await createOpenAiModel({ baseUrl: local.url, model: 'llama3.1' }).answer(hello);
      expect(answer.text).toBe('Hola desde el servidor compatible con OpenAI de prueba.');
      expect(local.requests[0]!.headers).not.toHaveProperty('authorization');
    });
  });
});
