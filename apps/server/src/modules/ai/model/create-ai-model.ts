import type { AiModel } from './model-port.ts';
import { createGeminiModel, GEMINI_DEFAULT_EMBEDDING_MODEL } from './gemini/gemini-model.ts';
import { createOpenAiModel } from './openai/openai-model.ts';
import { createSandboxAiModel } from './sandbox/sandbox-gemini.ts';

export type AiProvider = AiModel['provider'];

/** The AI settings as configuration resolves them (AI_PROVIDER and the provider's variables, validated at start). */
export interface AiModelSettings {
  /** null: no model; the assistant, copilot and transcripts say AI is not configured. */
  aiProvider?: AiProvider | null;
  geminiApiKey?: string;
  geminiBaseUrl?: string;
  geminiModel?: string;
  /** Unset: gemini-embedding-001. */
  geminiEmbeddingModel?: string;
  openaiBaseUrl?: string;
  openaiApiKey?: string;
  openaiModel?: string;
  openaiTranscribeModel?: string;
  /** Unset: no embeddings (knowledge retrieval stays lexical). */
  openaiEmbeddingModel?: string;
}

/** Picks the adapter once, at the composition root; `fetch` is for tests that route the adapter somewhere else. */
export function createAiModel(settings: AiModelSettings, dependencies: { fetch?: typeof fetch } = {}): AiModel | null {
  switch (settings.aiProvider) {
    case 'sandbox':
      return createSandboxAiModel();
    case 'gemini':
      if (!settings.geminiApiKey) return null;
      return createGeminiModel({
        apiKey: settings.geminiApiKey,
        baseUrl: settings.geminiBaseUrl,
        model: settings.geminiModel,
        embeddingModel: settings.geminiEmbeddingModel ?? GEMINI_DEFAULT_EMBEDDING_MODEL,
        fetch: dependencies.fetch,
      });
    case 'openai':
      if (!settings.openaiModel) return null;
      return createOpenAiModel({
        baseUrl: settings.openaiBaseUrl,
        apiKey: settings.openaiApiKey,
        model: settings.openaiModel,
        transcribeModel: settings.openaiTranscribeModel,
        embeddingModel: settings.openaiEmbeddingModel,
        fetch: dependencies.fetch,
      });
    default:
      return null;
  }
}
