import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { ModelMessage, StepResult, ToolSet } from 'ai';
import { AiModelError, type AiModel } from '../model-port.ts';
import { createModelFetch, failureForStatus, modelHttpOptions, type HttpFailure, type ModelHttpOptions } from '../model-http.ts';
import { answerWithTools, CONVERSATION_OPENER, isPlainObject, mergedTurns, type ToolLoopAdapter } from '../tool-loop.ts';
import { embedTexts } from '../embeddings.ts';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const OPENAI_DEFAULT_TRANSCRIBE_MODEL = 'whisper-1';

export interface OpenAiModelOptions extends Partial<ModelHttpOptions> {
  /** Includes the version path, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (Ollama). */
  baseUrl?: string;
  /** Optional: local servers (Ollama, vLLM, LM Studio) take none. */
  apiKey?: string;
  model: string;
  transcribeModel?: string;
  /** Without one the model has no `embed` and knowledge retrieval stays lexical. */
  embeddingModel?: string;
}

const SERVICE = 'OpenAI';
const adapter: ToolLoopAdapter = { service: SERVICE, refusal: openAiRefusal };

/**
 * An OpenAI-compatible server (OpenAI itself, Ollama, vLLM, LM Studio or a gateway): Chat Completions and embeddings
 * through the AI SDK's OpenAI-compatible provider; `/audio/transcriptions` by hand, as that provider has no
 * transcription model.
 */
export function createOpenAiModel(options: OpenAiModelOptions): AiModel {
  const base = (options.baseUrl ?? OPENAI_DEFAULT_BASE_URL).replace(/\/$/, '');
  const modelFetch = createModelFetch(modelHttpOptions(options), { service: SERVICE, classify: classifyOpenAiFailure });
  const provider = createOpenAICompatible({ name: 'openai', baseURL: base, apiKey: options.apiKey, fetch: withStringArguments(modelFetch) });
  const model = provider.chatModel(options.model);
  const embeddingModelId = options.embeddingModel;
  const embeddingModel = embeddingModelId ? provider.embeddingModel(embeddingModelId) : undefined;

  return {
    provider: 'openai',
    label: `OpenAI (${options.model})`,
    async answer(request) {
      const started = performance.now();
      const messages: ModelMessage[] = mergedTurns(request.turns);
      // The SDK sends no conversation without a message (a copilot asked about a chat that has only notes).
      if (messages.length === 0) messages.push({ role: 'user', content: CONVERSATION_OPENER });
      const result = await answerWithTools(model, request, messages, adapter);
      return { ...result, model: options.model, latencyMs: Math.round(performance.now() - started) };
    },
    async transcribe(audio) {
      const transcribeModel = options.transcribeModel ?? OPENAI_DEFAULT_TRANSCRIBE_MODEL;
      const form = new FormData();
      form.append('model', transcribeModel);
      form.append('language', 'es');
      form.append('file', new Blob([new Uint8Array(audio.data)], { type: audio.mimeType }), `nota-de-voz.${extensionOf(audio.mimeType)}`);
      const response = await modelFetch(`${base}/audio/transcriptions`, {
        method: 'POST',
        headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
        body: form,
        signal: audio.signal,
      });
      let body: { text?: string; usage?: { input_tokens?: number; output_tokens?: number } };
      try {
        body = (await response.json()) as typeof body;
      } catch {
        throw new AiModelError('unavailable', `${SERVICE} respondió algo que no es JSON`);
      }
      return {
        text: (body.text ?? '').trim(),
        usage: { inputTokens: body.usage?.input_tokens ?? 0, outputTokens: body.usage?.output_tokens ?? 0 },
        model: transcribeModel,
      };
    },
    ...(embeddingModelId && embeddingModel ? { embed: (request) => embedTexts(embeddingModel, request, { modelId: embeddingModelId, service: SERVICE }) } : {}),
  };
}

/** A content filter, or the model's refusal in words, is an answer the caller hands to a person. */
function openAiRefusal(step: StepResult<ToolSet>): AiModelError | undefined {
  if (step.finishReason !== 'content-filter') return undefined;
  return new AiModelError('blocked', `OpenAI rechazó la respuesta (${step.text || step.rawFinishReason || 'content_filter'})`);
}

/**
 * Some local servers send a tool call's `arguments` as a JSON object where Chat Completions has a JSON string; the
 * SDK reads only the string, so such an answer is rewritten before it gets there.
 */
function withStringArguments(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!String(input).endsWith('/chat/completions')) return response;
    const text = await response.text();
    let body: { choices?: Array<{ message?: { tool_calls?: Array<{ function?: { arguments?: unknown } }> } }> };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      return new Response(text, { status: response.status, headers: response.headers });
    }
    const calls = (body.choices ?? []).flatMap((choice) => choice.message?.tool_calls ?? []);
    const objects = calls.filter((call) => call.function && isPlainObject(call.function.arguments));
    if (objects.length === 0) return new Response(text, { status: response.status, headers: response.headers });
    for (const call of objects) call.function!.arguments = JSON.stringify(call.function!.arguments);
    return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
  };
}

/** The transcription endpoint guesses the format from the file name. */
function extensionOf(mimeType: string): string {
  const subtype = mimeType.split(';')[0]!.split('/')[1] ?? 'ogg';
  return ({ mpeg: 'mp3', 'x-wav': 'wav', 'x-m4a': 'm4a', mp4: 'm4a' } as Record<string, string>)[subtype] ?? subtype;
}

function classifyOpenAiFailure(status: number, bodyText: string, headers: Headers): HttpFailure {
  let error: { message?: string; code?: string | null; type?: string } = {};
  try {
    error = (JSON.parse(bodyText) as { error?: typeof error }).error ?? {};
  } catch {
    // A local server's plain-text error: the status alone decides.
  }
  const base = failureForStatus(status);
  // OpenAI's "insufficient_quota" 429 is a billing stop: waiting does not help.
  const retryable = base.retryable && error.code !== 'insufficient_quota';
  const retryAfter = Number(headers.get('retry-after'));
  const message = `OpenAI respondió ${status}${error.code ? ` ${error.code}` : ''}${error.message ? `: ${error.message}` : ''}`;
  return { ...base, retryable, retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined, message };
}
