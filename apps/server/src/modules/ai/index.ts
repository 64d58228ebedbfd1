export * from './model/model-port.ts';
export { createAiModel, type AiModelSettings, type AiProvider } from './model/create-ai-model.ts';
export { answerSandboxGeminiRequest, createSandboxAiModel, SANDBOX_LABEL } from './model/sandbox/sandbox-gemini.ts';
export { aiPlugin } from './ai.plugin.ts';
export { type AssistantConversation } from './assistant/assistant.service.ts';
export { type KnowledgeExcerpt, type KnowledgeQuery, type KnowledgeSearch } from './knowledge/knowledge-search.ts';
export { indexKnowledgeFile, searchKnowledge } from './knowledge/knowledge-index.ts';
export { KnowledgeReader } from './knowledge/knowledge-reader.ts';
export { flowTools, type FlowToolServices, webhookTool } from './tools/flow-tools.ts';
