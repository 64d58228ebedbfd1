import { AiModelError, type AiModel } from '../model-port.ts';
import { failureForStatus, modelHttpOptions, postWithRetries, type HttpFailure, type ModelHttpOptions } from '../model-http.ts';
import { isPlainObject, mergedTurns, runToolLoop, type ToolCall } from '../tool-loop.ts';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const OPENAI_DEFAULT_TRANSCRIBE_MODEL = 'whisper-1';

export interface OpenAiModelOptions extends Partial<ModelHttpOptions> {
  /** Includes the version path, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (Ollama). */
  baseUrl?: string;
  /** Optional: local servers (Ollama, vLLM, LM Studio) take none. */
  apiKey?: string;
  model: string;
  transcribeModel?: string;
}

/** Chat Completions messages as Embudo sends them. */
export type OpenAiMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAiToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string | Record<string, unknown> };
}

interface OpenAiChatResponse {
  choices?: Array<{ message?: { role?: string; content?: string | null; tool_calls?: OpenAiToolCall[]; refusal?: string | null }; finish_reason?: string }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
  model?: string;
}

interface OpenAiCall extends ToolCall {
  id: string;
}

/** An OpenAI-compatible Chat Completions server: OpenAI itself, Ollama, vLLM, LM Studio or a gateway. */
export function createOpenAiModel(options: OpenAiModelOptions): AiModel {
  const base = (options.baseUrl ?? OPENAI_DEFAULT_BASE_URL).replace(/\/$/, '');
  const http = modelHttpOptions(options);
  const auth: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  const post = (path: string, body: string | FormData, signal?: AbortSignal) =>
    postWithRetries(http, {
      url: `${base}${path}`,
      service: 'OpenAI',
      signal,
      classify: classifyOpenAiFailure,
      body,
      headers: typeof body === 'string' ? { 'content-type': 'application/json', ...auth } : auth,
    });

  return {
    provider: 'openai',
    label: `OpenAI (${options.model})`,
    async answer(request) {
      const started = performance.now();
      const messages: OpenAiMessage[] = [
        { role: 'system', content: request.instructions },
        ...mergedTurns(request.turns, (turn) => (turn.role === 'customer' ? ('user' as const) : ('assistant' as const))).map(({ role, text }) => ({
          role,
          content: text,
        })),
      ];
      const tools = request.tools.map((tool) => ({
        type: 'function' as const,
        function: { name: tool.name, description: tool.description, parameters: tool.parameters },
      }));
      let lastAssistant: OpenAiMessage | undefined;
      const result = await runToolLoop<OpenAiCall>(request, {
        async send(toolsAllowed) {
          const body = { model: options.model, messages, ...(tools.length > 0 ? { tools, tool_choice: toolsAllowed ? 'auto' : 'none' } : {}) };
          const response = (await post('/chat/completions', JSON.stringify(body), request.signal)) as OpenAiChatResponse;
          const choice = response.choices?.[0];
          if (choice?.finish_reason === 'content_filter' || choice?.message?.refusal) {
            throw new AiModelError('blocked', `OpenAI rechazó la respuesta (${choice.message?.refusal ?? 'content_filter'})`);
          }
          // Some local servers leave out call ids; the tool messages need one to point at.
          const toolCalls = (choice?.message?.tool_calls ?? []).map((call, index) => ({ ...call, id: call.id || `call_${messages.length}_${index}` }));
          lastAssistant = { role: 'assistant', content: choice?.message?.content ?? null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
          return {
            text: choice?.message?.content ?? '',
            calls: toolCalls.map((call) => ({ id: call.id, name: call.function.name, args: parseArguments(call.function.arguments) })),
            usage: { inputTokens: response.usage?.prompt_tokens ?? 0, outputTokens: response.usage?.completion_tokens ?? 0 },
          };
        },
        answerCalls(calls, results) {
          messages.push(lastAssistant!);
          calls.forEach((call, index) => messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(results[index]) }));
        },
      });
      return { ...result, model: options.model, latencyMs: Math.round(performance.now() - started) };
    },
    async transcribe(audio) {
      const transcribeModel = options.transcribeModel ?? OPENAI_DEFAULT_TRANSCRIBE_MODEL;
      const form = new FormData();
      form.append('model', transcribeModel);
      form.append('language', 'es');
      form.append('file', new Blob([new Uint8Array(audio.data)], { type: audio.mimeType }), `nota-de-voz.${extensionOf(audio.mimeType)}`);
      const response = (await post('/audio/transcriptions', form, audio.signal)) as {
        text?: string;
        usage?: { input_tokens?: number; output_tokens?: number };
      };
      return {
        text: (response.text ?? '').trim(),
        usage: { inputTokens: response.usage?.input_tokens ?? 0, outputTokens: response.usage?.output_tokens ?? 0 },
        model: transcribeModel,
      };
    },
  };
}

/** Arguments arrive as a JSON string (some local servers send the object); a malformed one reaches the tool as no arguments. */
function parseArguments(json: string | Record<string, unknown>): Record<string, unknown> {
  if (isPlainObject(json)) return json;
  try {
    const parsed: unknown = JSON.parse(json);
    return isPlainObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
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
