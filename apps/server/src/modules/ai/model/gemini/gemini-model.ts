import { AiModelError, type AiModel, type AiUsage } from '../model-port.ts';
import { failureForStatus, modelHttpOptions, postWithRetries, type HttpFailure, type ModelHttpOptions } from '../model-http.ts';
import { isPlainObject, mergedTurns, runToolLoop, type ToolCall } from '../tool-loop.ts';
import {
  GEMINI_BLOCK_REASONS,
  geminiRetryDelayMs,
  toGeminiSchema,
  type GeminiContent,
  type GeminiErrorBody,
  type GeminiPart,
  type GeminiRequest,
  type GeminiResponse,
} from './gemini-protocol.ts';

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';
export const GEMINI_DEFAULT_MODEL = 'gemini-2.5-flash';

export const TRANSCRIBE_INSTRUCTION =
  'Transcribe textualmente este audio en español. Responde solo con la transcripción, sin comentarios; si no se entiende nada, responde vacío.';

export interface GeminiModelOptions extends Partial<ModelHttpOptions> {
  apiKey: string;
  /** Host only, without /v1beta (as @google/genai takes it). */
  baseUrl?: string;
  model?: string;
  /** The sandbox model is this adapter talking to an in-process fake. */
  provider?: AiModel['provider'];
  label?: string;
}

interface GeminiCall extends ToolCall {
  id?: string;
}

/** Gemini's REST generateContent with the manual function-calling loop (shared/provider/gemini.md §1.4). */
export function createGeminiModel(options: GeminiModelOptions): AiModel {
  const model = options.model ?? GEMINI_DEFAULT_MODEL;
  const url = `${(options.baseUrl ?? GEMINI_DEFAULT_BASE_URL).replace(/\/$/, '')}/v1beta/models/${model}:generateContent`;
  const http = modelHttpOptions(options);
  const generate = async (body: GeminiRequest, signal?: AbortSignal) => {
    const response = (await postWithRetries(http, {
      url,
      service: 'Gemini',
      signal,
      classify: classifyGeminiFailure,
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'x-goog-api-key': options.apiKey },
    })) as GeminiResponse;
    return readResponse(response);
  };

  return {
    provider: options.provider ?? 'gemini',
    label: options.label ?? `Gemini (${model})`,
    async answer(request) {
      const started = performance.now();
      const contents: GeminiContent[] = mergedTurns(request.turns, (turn) => (turn.role === 'customer' ? 'user' : 'model')).map(({ role, text }) => ({
        role,
        parts: [{ text }],
      }));
      // Gemini wants the conversation to open with a user turn; a chat the business opened (a template) does not.
      if (contents[0]?.role !== 'user') contents.unshift({ role: 'user', parts: [{ text: '(comienzo de la conversación)' }] });
      const functionDeclarations = request.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: toGeminiSchema(tool.parameters),
      }));
      let lastModelTurn: GeminiContent | undefined;
      const result = await runToolLoop<GeminiCall>(request, {
        async send(toolsAllowed) {
          const body: GeminiRequest = { systemInstruction: { parts: [{ text: request.instructions }] }, contents };
          // Once the rounds are used up the declarations stay (the history names them) but the model may not call them.
          if (functionDeclarations.length > 0) {
            body.tools = [{ functionDeclarations }];
            body.toolConfig = { functionCallingConfig: { mode: toolsAllowed ? 'AUTO' : 'NONE' } };
          }
          const step = await generate(body, request.signal);
          lastModelTurn = step.content;
          return step;
        },
        answerCalls(calls, results) {
          contents.push(lastModelTurn!);
          contents.push({
            role: 'user',
            parts: calls.map((call, index) => ({
              functionResponse: { ...(call.id ? { id: call.id } : {}), name: call.name, response: results[index]! },
            })),
          });
        },
      });
      return { ...result, model, latencyMs: Math.round(performance.now() - started) };
    },
    async transcribe(audio) {
      const step = await generate(
        {
          contents: [
            { role: 'user', parts: [{ inlineData: { mimeType: audio.mimeType, data: audio.data.toString('base64') } }, { text: TRANSCRIBE_INSTRUCTION }] },
          ],
        },
        audio.signal,
      );
      return { text: step.text.trim(), usage: step.usage, model };
    },
  };
}

/** The first candidate's words and calls; a blocked prompt or answer is an error the caller hands to a person. */
function readResponse(response: GeminiResponse) {
  const blockReason = response.promptFeedback?.blockReason;
  if (blockReason) throw new AiModelError('blocked', `Gemini bloqueó la conversación (${blockReason})`);
  const candidate = response.candidates?.[0];
  if (candidate?.finishReason && GEMINI_BLOCK_REASONS.has(candidate.finishReason)) {
    throw new AiModelError('blocked', `Gemini bloqueó la respuesta (${candidate.finishReason})`);
  }
  if (candidate?.finishReason === 'MALFORMED_FUNCTION_CALL' || candidate?.finishReason === 'UNEXPECTED_TOOL_CALL') {
    throw new AiModelError('unavailable', `Gemini no pudo formular la llamada a la herramienta (${candidate.finishReason})`);
  }
  const parts: GeminiPart[] = candidate?.content?.parts ?? [];
  const calls: GeminiCall[] = parts.flatMap((part) =>
    part.functionCall
      ? [
          {
            ...(part.functionCall.id ? { id: part.functionCall.id } : {}),
            name: part.functionCall.name,
            args: isPlainObject(part.functionCall.args) ? part.functionCall.args : {},
          },
        ]
      : [],
  );
  const text = parts
    .filter((part) => part.text && !part.thought)
    .map((part) => part.text)
    .join('');
  const usage: AiUsage = {
    inputTokens: response.usageMetadata?.promptTokenCount ?? 0,
    // Thinking tokens are billed as output.
    outputTokens: (response.usageMetadata?.candidatesTokenCount ?? 0) + (response.usageMetadata?.thoughtsTokenCount ?? 0),
  };
  // Echoed back unchanged on the next round (thoughtSignature included), so it is kept as the server sent it.
  const content: GeminiContent = { role: 'model', parts, ...(candidate?.content ?? {}) } as GeminiContent;
  return { text, calls, usage, content };
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
