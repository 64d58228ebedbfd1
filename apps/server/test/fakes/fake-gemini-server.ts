import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { answerSandboxGeminiRequest } from '../../src/modules/ai/index.ts';
import { fakeEmbedding } from './fake-embeddings.ts';

/** A request the fake received, as sent. */
export interface GeminiRecordedRequest {
  model: string;
  method: 'generateContent' | 'embedContent' | 'batchEmbedContents';
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/** What the fake answers next instead of the sandbox model: a response body, an error, or a pause (timeouts). */
export interface GeminiScriptedReply {
  status?: number;
  body: unknown;
  delayMs?: number;
}

export const geminiText = (text: string, usage: Record<string, number> = { promptTokenCount: 10, candidatesTokenCount: 5 }): GeminiScriptedReply => ({
  body: { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }], usageMetadata: usage },
});

export const geminiCalls = (
  calls: Array<{ name: string; args: Record<string, unknown>; id?: string; thoughtSignature?: string }>,
  usage = { promptTokenCount: 10, candidatesTokenCount: 5 },
): GeminiScriptedReply => ({
  body: {
    candidates: [
      {
        content: {
          role: 'model',
          parts: calls.map(({ name, args, id, thoughtSignature }) => ({
            functionCall: { ...(id ? { id } : {}), name, args },
            ...(thoughtSignature ? { thoughtSignature } : {}),
          })),
        },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata: usage,
  },
});

/** A candidate that ends with no parts and this finish reason (SAFETY and the other blocks, MALFORMED_FUNCTION_CALL). */
export const geminiBlocked = (finishReason = 'SAFETY'): GeminiScriptedReply => ({
  body: { candidates: [{ content: { role: 'model', parts: [] }, finishReason, index: 0 }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 0 } },
});

/** Google's error shape (gemini.md §1.5); a 429 may carry `google.rpc.RetryInfo`. */
export const geminiError = (code: 429 | 500 | 503 | 400 | 403 | 404, options: { retryDelay?: string } = {}): GeminiScriptedReply => {
  const status = { 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE', 400: 'INVALID_ARGUMENT', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND' }[code];
  const details = options.retryDelay ? [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: options.retryDelay }] : [];
  return { status: code, body: { error: { code, message: `fake ${status}`, status, details } } };
};

/**
 * Gemini's REST API on a random local port: `POST /v1beta/models/{model}:generateContent`, `:embedContent` and
 * `:batchEmbedContents`. It records every request, answers scripted replies first (in order), then as the sandbox
 * model does (embeddings: `fakeEmbedding` of each text); a wrong `x-goog-api-key` gets 403.
 */
export async function startFakeGeminiServer(options: { apiKey?: string } = {}) {
  const apiKey = options.apiKey ?? 'test-gemini-key';
  const requests: GeminiRecordedRequest[] = [];
  const script: GeminiScriptedReply[] = [];
  const server = Fastify({ bodyLimit: 30 * 1024 * 1024, forceCloseConnections: true });
  server.post('/v1beta/models/*', async (request, reply) => {
    const match = /^([^:]+):(generateContent|embedContent|batchEmbedContents)$/.exec((request.params as { '*': string })['*']);
    if (!match) return reply.code(404).send({ error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
    const body = request.body as Record<string, unknown>;
    const method = match[2] as GeminiRecordedRequest['method'];
    requests.push({ model: match[1]!, method, headers: request.headers, body });
    if (request.headers['x-goog-api-key'] !== apiKey) {
      return reply.code(403).send({ error: { code: 403, message: "Method doesn't allow unregistered callers.", status: 'PERMISSION_DENIED', details: [] } });
    }
    const scripted = script.shift();
    if (scripted?.delayMs) await new Promise((resolve) => setTimeout(resolve, scripted.delayMs));
    if (scripted) return reply.code(scripted.status ?? 200).send(scripted.body);
    if (method === 'embedContent') return { embedding: { values: fakeEmbedding(textOf(body['content'])) } };
    if (method === 'batchEmbedContents') {
      return { embeddings: (body['requests'] as Array<{ content: unknown }>).map((embedRequest) => ({ values: fakeEmbedding(textOf(embedRequest.content)) })) };
    }
    const answer = answerSandboxGeminiRequest(body);
    return reply.code(answer.status).send(answer.body);
  });
  await server.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    apiKey,
    requests,
    /** Queues replies served before the sandbox behaviour resumes. */
    reply: (...replies: GeminiScriptedReply[]) => script.push(...replies),
    close: () => server.close(),
  };
}

/** The text of an embedding request's `content` (its parts' texts, joined). */
function textOf(content: unknown): string {
  const parts = (content as { parts?: Array<{ text?: string }> } | undefined)?.parts ?? [];
  return parts.map((part) => part.text ?? '').join('');
}
