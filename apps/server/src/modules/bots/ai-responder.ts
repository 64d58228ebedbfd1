import type { AiTool } from '@embudo/contracts/flows/nodes/aiPrompt';

/** The aiPrompt node's model; present only when GEMINI_API_KEY is configured. */
export interface AiResponder {
  respond(input: { instructions: string; customerMessage: string; tools: readonly AiTool[] }): Promise<string>;
}

const GEMINI_MODEL = 'gemini-2.0-flash';
const GEMINI_TIMEOUT_MS = 20_000;

interface GeminiAnswer {
  candidates?: { content?: { parts?: { text?: string }[] } }[];
  error?: { message?: string };
}

/**
 * Gemini's REST generateContent: the node's prompt as system instructions, the customer's message as
 * the user turn. The node's tools are named in the instructions; the model does not call them yet.
 */
export function createGeminiResponder(options: { apiKey: string; baseUrl?: string }): AiResponder {
  const base = (options.baseUrl ?? 'https://generativelanguage.googleapis.com').replace(/\/$/, '');
  return {
    async respond(input) {
      const tools =
        input.tools.length > 0
          ? `\n\nAcciones que el equipo ofrece: ${input.tools
              .map((tool) => tool.label)
              .filter(Boolean)
              .join(', ')}.`
          : '';
      const response = await fetch(`${base}/v1beta/models/${GEMINI_MODEL}:generateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': options.apiKey },
        body: JSON.stringify({
          systemInstruction: { parts: [{ text: `${input.instructions}${tools}` }] },
          contents: [{ role: 'user', parts: [{ text: input.customerMessage || '(sin mensaje)' }] }],
        }),
        signal: AbortSignal.timeout(GEMINI_TIMEOUT_MS),
      });
      const answer = (await response.json().catch(() => ({}))) as GeminiAnswer;
      if (!response.ok) throw new Error(`Gemini respondió ${response.status}${answer.error?.message ? `: ${answer.error.message}` : ''}`);
      return (answer.candidates?.[0]?.content?.parts ?? []).map((part) => part.text ?? '').join('');
    },
  };
}
