import { createGoogle } from '@ai-sdk/google';
import { generateText, type ModelMessage, type StepResult, type ToolSet } from 'ai';
import { AiModelError, type AiModel } from '../model-port.ts';
import { createModelFetch, failureForStatus, modelHttpOptions, type HttpFailure, type ModelHttpOptions } from '../model-http.ts';
import { answerWithTools, CONVERSATION_OPENER, mergedTurns, modelSteps, usageOf, type ToolLoopAdapter } from '../tool-loop.ts';
import { embedTexts } from '../embeddings.ts';
import { geminiRetryDelayMs, type GeminiErrorBody } from './gemini-protocol.ts';

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';
export const GEMINI_DEFAULT_MODEL = 'gemini-2.5-flash';
export const GEMINI_DEFAULT_EMBEDDING_MODEL = 'gemini-embedding-001';

export const TRANSCRIBE_INSTRUCTION =
  'Transcribe textualmente este audio en español. Responde solo con la transcripción, sin comentarios; si no se entiende nada, responde vacío.';

export interface GeminiModelOptions extends Partial<ModelHttpOptions> {
  apiKey: string;
  /** Host only, without /v1beta (as @google/genai takes it; the SDK is given it with /v1beta). */
  baseUrl?: string;
  model?: string;
  /** Without one the model has no `embed` (the sandbox model brings its own). */
  embeddingModel?: string;
  /** The sandbox model is this adapter talking to an in-process fake. */
  provider?: AiModel['provider'];
  label?: string;
}

const SERVICE = 'Gemini';
const adapter: ToolLoopAdapter = { service: SERVICE, refusal: geminiRefusal };

/** Gemini's REST API (generateContent, batchEmbedContents) through the AI SDK's Google provider (shared/provider/gemini.md §3). */
export function createGeminiModel(options: GeminiModelOptions): AiModel {
  const modelId = options.model ?? GEMINI_DEFAULT_MODEL;
  const google = createGoogle({
    apiKey: options.apiKey,
    baseURL: `${(options.baseUrl ?? GEMINI_DEFAULT_BASE_URL).replace(/\/$/, '')}/v1beta`,
    fetch: createModelFetch(modelHttpOptions(options), { service: SERVICE, classify: classifyGeminiFailure }),
  });
  const model = google(modelId);
  const embeddingModelId = options.embeddingModel;
  const embeddingModel = embeddingModelId ? google.embeddingModel(embeddingModelId) : undefined;

  return {
    provider: options.provider ?? 'gemini',
    label: options.label ?? `Gemini (${modelId})`,
    async answer(request) {
      const started = performance.now();
      const messages: ModelMessage[] = mergedTurns(request.turns);
      // Gemini wants the conversation to open with a user turn; a chat the business opened (a template) does not.
      if (messages[0]?.role !== 'user') messages.unshift({ role: 'user', content: CONVERSATION_OPENER });
      const result = await answerWithTools(model, request, messages, adapter);
      return { ...result, model: modelId, latencyMs: Math.round(performance.now() - started) };
    },
    async transcribe(audio) {
      const steps = await modelSteps(adapter, audio.signal, () =>
        generateText({
          model,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'file', data: new Uint8Array(audio.data), mediaType: audio.mimeType },
                { type: 'text', text: TRANSCRIBE_INSTRUCTION },
              ],
            },
          ],
          maxRetries: 0,
          abortSignal: audio.signal,
        }),
      );
      return {
        text: steps
          .map((step) => step.text)
          .join('')
          .trim(),
        usage: usageOf(steps),
        model: modelId,
      };
    },
    ...(embeddingModelId && embeddingModel
      ? {
          embed: (request) =>
            embedTexts(embeddingModel, request, {
              modelId: embeddingModelId,
              service: SERVICE,
              providerOptions: { google: { taskType: request.purpose === 'query' ? 'RETRIEVAL_QUERY' : 'RETRIEVAL_DOCUMENT' } },
            }),
        }
      : {}),
  };
}

/** A blocked prompt or answer is an error the caller hands to a person; a malformed call is a model that failed. */
function geminiRefusal(step: StepResult<ToolSet>): AiModelError | undefined {
  const reason = step.rawFinishReason;
  if (step.finishReason === 'content-filter') {
    const promptFeedback = step.providerMetadata?.['google']?.['promptFeedback'] as { blockReason?: string } | null | undefined;
    const what = promptFeedback?.blockReason === reason ? 'la conversación' : 'la respuesta';
    return new AiModelError('blocked', `Gemini bloqueó ${what} (${reason})`);
  }
  if (reason === 'MALFORMED_FUNCTION_CALL' || reason === 'UNEXPECTED_TOOL_CALL') {
    return new AiModelError('unavailable', `Gemini no pudo formular la llamada a la herramienta (${reason})`);
  }
  return undefined;
}

function classifyGeminiFailure(status: number, bodyText: string): HttpFailure {
  let error: Partial<GeminiErrorBody['error']> = {};
  try {
    error = (JSON.parse(bodyText) as GeminiErrorBody).error ?? {};
  } catch {
    // Not Google's error shape (a proxy's page): the status alone decides.
  }
  const base = failureForStatus(status);
  const kind = error.status === 'RESOURCE_EXHAUSTED' ? 'quota' : base.kind;
  const retryable = status === 429 || base.retryable;
  const message = `Gemini respondió ${status}${error.status ? ` ${error.status}` : ''}${error.message ? `: ${error.message}` : ''}`;
  return { kind, retryable, retryAfterMs: geminiRetryDelayMs(error.details), message };
}
