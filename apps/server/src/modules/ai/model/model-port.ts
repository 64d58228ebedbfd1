/**
 * The AI model port (issue 15). The assistant, the copilot, transcripts and the bots' aiPrompt node speak only this;
 * which adapter answers (Gemini REST, an OpenAI-compatible server, or the sandbox model that speaks Gemini's REST
 * protocol in-process) is configuration, picked once at the composition root.
 */

/** A JSON Schema object for a tool's arguments (plain JSON Schema; the Gemini adapter converts it to its subset). */
export interface ToolParameters {
  type: 'object';
  properties: Record<string, { type: 'string' | 'number' | 'integer' | 'boolean'; description?: string; enum?: string[] }>;
  required?: string[];
}

/** A function the model may call; `execute` runs it for this conversation (tenant and card already bound). */
export interface AiTool {
  name: string;
  description: string;
  parameters: ToolParameters;
  /** The result goes back to the model as the function's response object. A thrown error is sent back as `{ error }`. */
  execute(args: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** One turn of the conversation so far: the customer's words, or what the business (a person or the AI) answered. */
export interface AiTurn {
  role: 'customer' | 'business';
  text: string;
}

export interface AiToolCallRecord {
  name: string;
  args: Record<string, unknown>;
  result: Record<string, unknown>;
}

export interface AiUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface AiAnswerRequest {
  /** System instructions: the column's prompt, the company, its time zone, the knowledge excerpts. */
  instructions: string;
  /** Oldest first; the last turn is normally the customer's. */
  turns: AiTurn[];
  tools: AiTool[];
  /** Tool rounds before the model must answer in words; the loop stops there (default 5). */
  maxToolRounds?: number;
  signal?: AbortSignal;
}

export interface AiAnswer {
  /** The final words for the customer; empty when the model chose to say nothing. */
  text: string;
  /** Every tool call, in execution order, with what it returned. */
  toolCalls: AiToolCallRecord[];
  /** Summed over every round. */
  usage: AiUsage;
  /** The model id that answered (e.g. gemini-2.5-flash). */
  model: string;
  latencyMs: number;
}

export interface AiTranscript {
  text: string;
  usage: AiUsage;
  model: string;
}

export interface AiEmbeddingRequest {
  texts: string[];
  purpose: 'document' | 'query';
  signal?: AbortSignal;
}
export interface AiEmbeddings {
  model: string;
  vectors: number[][];
  usage?: { inputTokens: number };
}

export interface AiModel {
  /** gemini | openai | sandbox */
  readonly provider: 'gemini' | 'openai' | 'sandbox';
  /** What the UI calls this model: "IA de prueba" for the sandbox model. */
  readonly label: string;
  answer(request: AiAnswerRequest): Promise<AiAnswer>;
  transcribe(audio: { data: Buffer; mimeType: string; signal?: AbortSignal }): Promise<AiTranscript>;
  embed?(request: AiEmbeddingRequest): Promise<AiEmbeddings>;
}

/** Why a model call failed, in terms the caller acts on. */
export type AiFailureKind =
  | 'quota' //        429 / RESOURCE_EXHAUSTED after the retries
  | 'blocked' //      SAFETY and the other content blocks: hand the chat to a person
  | 'timeout'
  | 'unavailable' //  5xx, network
  | 'rejected' //     4xx: bad key, unknown model, malformed request
  | 'not_configured';

export class AiModelError extends Error {
  constructor(
    readonly kind: AiFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'AiModelError';
  }
}
