import type { ToolParameters } from '../model-port.ts';

/** The parts of Gemini's REST generateContent contract Embudo uses (shared/provider/gemini.md §1). */
export interface GeminiFunctionCall {
  id?: string;
  name: string;
  args?: Record<string, unknown>;
}

export interface GeminiFunctionResponse {
  id?: string;
  name: string;
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

export interface GeminiSchema {
  type: 'OBJECT' | 'STRING' | 'NUMBER' | 'INTEGER' | 'BOOLEAN';
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

export type GeminiFunctionCallingMode = 'AUTO' | 'ANY' | 'NONE';

export interface GeminiRequest {
  systemInstruction?: { parts: GeminiPart[] };
  contents: GeminiContent[];
  tools?: Array<{ functionDeclarations: GeminiFunctionDeclaration[] }>;
  toolConfig?: { functionCallingConfig: { mode: GeminiFunctionCallingMode } };
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

/** The port's JSON Schema in Gemini's OpenAPI subset: the same shape with upper-case type names. */
export function toGeminiSchema(parameters: ToolParameters): GeminiSchema {
  const properties: Record<string, GeminiSchema> = {};
  for (const [name, property] of Object.entries(parameters.properties)) {
    properties[name] = {
      type: property.type.toUpperCase() as GeminiSchema['type'],
      ...(property.description ? { description: property.description } : {}),
      ...(property.enum ? { enum: property.enum } : {}),
    };
  }
  return { type: 'OBJECT', properties, ...(parameters.required?.length ? { required: parameters.required } : {}) };
}

/** Finish reasons that mean the content was refused, not that the model is done. */
export const GEMINI_BLOCK_REASONS = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']);

/** `google.rpc.RetryInfo.retryDelay` ("17s", "0.5s") in milliseconds, when the error carries one. */
export function geminiRetryDelayMs(details: Array<Record<string, unknown>> | undefined): number | undefined {
  for (const detail of details ?? []) {
    const delay = detail['retryDelay'];
    if (typeof delay === 'string' && /^\d+(\.\d+)?s$/.test(delay)) return Math.round(parseFloat(delay) * 1000);
  }
  return undefined;
}
