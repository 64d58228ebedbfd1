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
  /**
   * The result goes back to the model as the function's response object. A failure — a thrown error, or a result with
   * an `error` text — reaches the model only as a neutral `{ error }`: what went wrong is for the team, never for the
   * customer the model talks to.
   */
  execute(args: Record<string, unknown>, call: ToolCallContext): Promise<Record<string, unknown>>;
}

/** Which call of the answer a tool is running. */
export interface ToolCallContext {
  /** The call's position among the answer's calls, from 0, in execution order over every round. */
  index: number;
}

/** What a tool throws when it cannot do what was asked. */
export class ToolFailure extends Error {
  constructor(
    /** Why, for the team (an internal note): may name addresses, settings or other customers. */
    readonly reason: string,
    /** Words safe to tell the customer, for the model; without them the model hears TOOL_FAILED. */
    readonly advice?: string,
  ) {
    super(reason);
    this.name = 'ToolFailure';
  }
}

/** What the model hears of a failed call when nobody gave safer words. */
export const TOOL_FAILED = 'No se pudo completar en este momento.';

/** How one tool call ended: its result, or why it failed (`reason` for the team, `advice` for the model). */
export type ToolOutcome = { ok: true; result: Record<string, unknown> } | { ok: false; reason: string; advice?: string };

/** One call as the loop is about to run it. */
export interface PendingToolCall {
  index: number;
  name: string;
  args: Record<string, unknown>;
}

/** One turn of the conversation so far: the customer's words, or what the business (a person or the AI) answered. */
export interface AiTurn {
  role: 'customer' | 'business';
  text: string;
}

export interface AiToolCallRecord {
  name: string;
  args: Record<string, unknown>;
  /** What the model received. */
  result: Record<string, unknown>;
  /** Why the call failed, when it did: never shown to the model. */
  failure?: string;
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
  /**
   * Runs each tool call (default: `run()`). The column assistant's ledger answers a call an earlier attempt of the same
   * answer already made with its recorded outcome instead of running it again (docs/decisions/0028).
   */
  callTool?: (call: PendingToolCall, run: () => Promise<ToolOutcome>) => Promise<ToolOutcome>;
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

/** Texts to turn into vectors: a knowledge file's passages ('document') or the customer's words ('query'). */
export interface AiEmbeddingRequest {
  texts: string[];
  purpose: 'document' | 'query';
  signal?: AbortSignal;
}

export interface AiEmbeddings {
  /** The embedding model's id: vectors of different models are never compared. */
  model: string;
  /** One per text, in order. */
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
  /** Absent when the provider or model offers no embeddings: the knowledge search is then lexical only. */
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
