import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGeminiServer } from '../../../../test/fakes/fake-gemini-server.ts';
import { startFakeOpenAiServer } from '../../../../test/fakes/fake-openai-server.ts';
import { createAiModel } from './create-ai-model.ts';
import { SANDBOX_FALLBACK } from './sandbox/sandbox-gemini.ts';

let gemini: Awaited<ReturnType<typeof startFakeGeminiServer>>;
let openai: Awaited<ReturnType<typeof startFakeOpenAiServer>>;
beforeAll(async () => {
  gemini = await startFakeGeminiServer();
  openai = await startFakeOpenAiServer({ apiKey: 'sk-test' });
});
afterAll(async () => {
  await gemini.close();
  await openai.close();
});

const hello = { instructions: 'x', turns: [{ role: 'customer' as const, text: 'Hola' }], tools: [] };

describe('createAiModel', () => {
  it('is null without a provider', () => {
    expect(createAiModel({})).toBeNull();
    expect(createAiModel({ aiProvider: null })).toBeNull();
  });

  it('builds the sandbox model, which needs no network', async () => {
    const model = createAiModel({ aiProvider: 'sandbox' }, { fetch: () => Promise.reject(new Error('no network in the sandbox')) });
    expect(model).toMatchObject({ provider: 'sandbox', label: 'IA de prueba' });
    expect((await model!.answer(hello)).text).toBe(SANDBOX_FALLBACK);
  });

  it('builds Gemini from its settings, through the fetch it is given', async () => {
    const urls: string[] = [];
    const model = createAiModel(
      { aiProvider: 'gemini', geminiApiKey: gemini.apiKey, geminiBaseUrl: `${gemini.url}/`, geminiModel: 'gemini-2.5-pro' },
      {
        fetch: (input, init) => {
          urls.push(String(input));
          return fetch(input, init);
        },
      },
    );
    expect(model).toMatchObject({ provider: 'gemini', label: 'Gemini (gemini-2.5-pro)' });
    expect((await model!.answer(hello)).model).toBe('gemini-2.5-pro');
    expect(urls).toEqual([`${gemini.url}/v1beta/models/gemini-2.5-pro:generateContent`]);
    expect(gemini.requests.at(-1)!.model).toBe('gemini-2.5-pro');
    // Embeddings with Google's embedding model unless another one is named.
    expect((await model!.embed!({ texts: ['hola'], purpose: 'query' })).model).toBe('gemini-embedding-001');
    expect(urls.at(-1)).toBe(`${gemini.url}/v1beta/models/gemini-embedding-001:embedContent`);
    const named = createAiModel({ aiProvider: 'gemini', geminiApiKey: gemini.apiKey, geminiBaseUrl: gemini.url, geminiEmbeddingModel: 'gemini-embedding-2' });
    expect((await named!.embed!({ texts: ['hola'], purpose: 'query' })).model).toBe('gemini-embedding-2');
    expect(gemini.requests.at(-1)).toMatchObject({ model: 'gemini-embedding-2', method: 'embedContent' });
  });

  it('builds the OpenAI-compatible model from its settings', async () => {
    const model = createAiModel({
      aiProvider: 'openai',
      openaiBaseUrl: openai.url,
      openaiApiKey: 'sk-test',
      openaiModel: 'gpt-4o-mini',
      openaiTranscribeModel: 'gpt-4o-transcribe',
    });
    expect(model).toMatchObject({ provider: 'openai' });
    await model!.answer(hello);
    expect(openai.requests.at(-1)!.body['model']).toBe('gpt-4o-mini');
    expect((await model!.transcribe({ data: Buffer.from('a'), mimeType: 'audio/mpeg' })).model).toBe('gpt-4o-transcribe');
    expect(openai.requests.at(-1)!.body).toMatchObject({ model: 'gpt-4o-transcribe', file: { filename: 'nota-de-voz.mp3' } });
    expect(model!.embed).toBeUndefined();

    const embedding = createAiModel({
      aiProvider: 'openai',
      openaiBaseUrl: openai.url,
      openaiApiKey: 'sk-test',
      openaiModel: 'gpt-4o-mini',
      openaiEmbeddingModel: 'nomic-embed-text',
    });
    expect((await embedding!.embed!({ texts: ['hola'], purpose: 'document' })).model).toBe('nomic-embed-text');
    expect(openai.requests.at(-1)).toMatchObject({ path: '/v1/embeddings', body: { model: 'nomic-embed-text', input: ['hola'] } });
  });
});
