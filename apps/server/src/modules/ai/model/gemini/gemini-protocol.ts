/**
 * The parts of Gemini's REST generateContent contract the sandbox model speaks (shared/provider/gemini.md §1), as the
 * AI SDK's Google provider sends them and as Google's other clients may.
 */
export interface GeminiFunctionCall {
  id?: string;
  name: string;
  args?: Record<string, unknown>;
}

export interface GeminiFunctionResponse {
  id?: string;
  name: string;
  /** Any JSON object; the AI SDK wraps a tool's result as `{ name, content: <result> }`. */
  response: Record<string, unknown>;
}

export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
}

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/** A function's parameters: Gemini's OpenAPI subset (`type: 'STRING'`) or plain JSON Schema (`type: 'string'`). */
export interface GeminiSchema {
  type?: string;
  description?: string;
  enum?: string[];
  properties?: Record<string, GeminiSchema>;
  required?: string[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parameters: GeminiSchema;
}

/** A declaration as sent: `parameters` in the OpenAPI subset, or `parametersJsonSchema` in plain JSON Schema (the AI SDK). */
export type GeminiSentFunctionDeclaration = Omit<GeminiFunctionDeclaration, 'parameters'> & { parameters?: GeminiSchema; parametersJsonSchema?: GeminiSchema };

export type GeminiFunctionCallingMode = 'AUTO' | 'ANY' | 'NONE';

export interface GeminiRequest {
  systemInstruction?: { parts: GeminiPart[] };
  contents: GeminiContent[];
  tools?: Array<{ functionDeclarations: GeminiSentFunctionDeclaration[] }>;
  toolConfig?: { functionCallingConfig: { mode: GeminiFunctionCallingMode } };
  generationConfig?: Record<string, unknown>;
}

export interface GeminiUsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  totalTokenCount?: number;
}

export interface GeminiCandidate {
  content?: { role?: string; parts?: GeminiPart[] };
  finishReason?: string;
  index?: number;
}

export interface GeminiResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
}

export interface GeminiErrorBody {
  error: { code: number; message: string; status: string; details?: Array<Record<string, unknown>> };
}

/** `google.rpc.RetryInfo.retryDelay` ("17s", "0.5s") in milliseconds, when the error carries one. */
export function geminiRetryDelayMs(details: Array<Record<string, unknown>> | undefined): number | undefined {
  for (const detail of details ?? []) {
    const delay = detail['retryDelay'];
    if (typeof delay === 'string' && /^\d+(\.\d+)?s$/.test(delay)) return Math.round(parseFloat(delay) * 1000);
  }
  return undefined;
}
