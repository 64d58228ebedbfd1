import { embedMany, type EmbeddingModel } from 'ai';
import { aiModelErrorOf } from './model-http.ts';
import type { AiEmbeddingRequest, AiEmbeddings } from './model-port.ts';

type ProviderOptions = Parameters<typeof embedMany>[0]['providerOptions'];

/**
 * Embeds the texts through the AI SDK, which splits them into the provider's batches (100 texts a request for Gemini,
 * 2,048 for an OpenAI-compatible server). One batch at a time: indexing a large knowledge file should not spend a
 * minute's quota in one burst, and a question is a single text anyway.
 */
export async function embedTexts(
  model: EmbeddingModel,
  request: AiEmbeddingRequest,
  adapter: { modelId: string; service: string; providerOptions?: ProviderOptions },
): Promise<AiEmbeddings> {
  if (request.texts.length === 0) return { model: adapter.modelId, vectors: [] };
  try {
    const { embeddings, usage } = await embedMany({
      model,
      values: request.texts,
      maxParallelCalls: 1,
      maxRetries: 0,
      abortSignal: request.signal,
      ...(adapter.providerOptions ? { providerOptions: adapter.providerOptions } : {}),
    });
    // Gemini reports no token count for embeddings; the SDK then sums NaN.
    return { model: adapter.modelId, vectors: embeddings, ...(Number.isFinite(usage.tokens) ? { usage: { inputTokens: usage.tokens } } : {}) };
  } catch (error) {
    if (request.signal?.aborted) throw request.signal.reason;
    throw aiModelErrorOf(error, adapter.service);
  }
}
