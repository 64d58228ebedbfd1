import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyReply } from 'fastify';
import multipart from '@fastify/multipart';
import { fakeEmbedding } from './fake-embeddings.ts';

export interface OpenAiRecordedRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** JSON body for chat completions; the form fields (and `file` as its name, size and type) for transcriptions. */
  body: Record<string, unknown>;
}

export interface OpenAiScriptedReply {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}

const usage = { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 };

export const openAiText = (content: string): OpenAiScriptedReply => ({
  body: { id: 'chatcmpl-fake', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage },
});

export const openAiToolCalls = (calls: Array<{ id: string; name: string; args: Record<string, unknown> }>): OpenAiScriptedReply => ({
  body: {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: calls.map(({ id, name, args }) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } })),
        },
        finish_reason: 'tool_calls',
      },
    ],
    usage,
  },
});

export const openAiError = (status: number, code: string, headers?: Record<string, string>): OpenAiScriptedReply => ({
  status,
  headers,
  body: { error: { message: `fake ${code}`, type: 'fake_error', code } },
});

/**
 * An OpenAI-compatible server on a random local port: `POST /v1/chat/completions`, `POST /v1/audio/transcriptions` and
 * `POST /v1/embeddings`. Records every request; answers scripted replies first, then a fixed text (chat), transcript,
 * or `fakeEmbedding` of each input with a token count (embeddings). With `apiKey` set,
 * a request without `Authorization: Bearer <apiKey>` gets 401, as OpenAI does; without it, like a local server, none is needed.
 */
export async function startFakeOpenAiServer(options: { apiKey?: string } = {}) {
  const requests: OpenAiRecordedRequest[] = [];
  const script: OpenAiScriptedReply[] = [];
  const server = Fastify({ bodyLimit: 30 * 1024 * 1024, forceCloseConnections: true });
  await server.register(multipart, { limits: { fileSize: 25 * 1024 * 1024 } });
  const authorized = (authorization: string | undefined) => !options.apiKey || authorization === `Bearer ${options.apiKey}`;
  const answer = async (reply: FastifyReply, fallback: unknown) => {
    const scripted = script.shift();
    if (scripted?.delayMs) await new Promise((resolve) => setTimeout(resolve, scripted.delayMs));
    if (!scripted) return reply.send(fallback);
    return reply
      .code(scripted.status ?? 200)
      .headers(scripted.headers ?? {})
      .send(scripted.body);
  };
  const unauthorized = { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } };

  server.post('/v1/chat/completions', async (request, reply) => {
    requests.push({ path: '/v1/chat/completions', headers: request.headers, body: request.body as Record<string, unknown> });
    if (!authorized(request.headers.authorization)) return reply.code(401).send(unauthorized);
    return answer(reply, openAiText('Hola desde el servidor compatible con OpenAI de prueba.').body);
  });
  server.post('/v1/audio/transcriptions', async (request, reply) => {
    const body: Record<string, unknown> = {};
    for await (const part of request.parts()) {
      if (part.type === 'file') body[part.fieldname] = { filename: part.filename, mimetype: part.mimetype, size: (await part.toBuffer()).length };
      else body[part.fieldname] = part.value;
    }
    requests.push({ path: '/v1/audio/transcriptions', headers: request.headers, body });
    if (!authorized(request.headers.authorization)) return reply.code(401).send(unauthorized);
    return answer(reply, { text: 'Hola, quiero saber el precio.' });
  });
  server.post('/v1/embeddings', async (request, reply) => {
    const body = request.body as { model: string; input: string[] };
    requests.push({ path: '/v1/embeddings', headers: request.headers, body: body as unknown as Record<string, unknown> });
    if (!authorized(request.headers.authorization)) return reply.code(401).send(unauthorized);
    const tokens = body.input.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);
    return answer(reply, {
      object: 'list',
      data: body.input.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text) })),
      model: body.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  });
  await server.listen({ port: 0, host: '127.0.0.1' });
  return {
    /** The base URL an adapter is given (with /v1, as OPENAI_BASE_URL is written). */
    url: `http://127.0.0.1:${(server.server.address() as AddressInfo).port}/v1`,
    requests,
    reply: (...replies: OpenAiScriptedReply[]) => script.push(...replies),
    close: () => server.close(),
  };
}
