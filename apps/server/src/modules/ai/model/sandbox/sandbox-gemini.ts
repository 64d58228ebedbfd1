import type { AiModel } from '../model-port.ts';
import { createGeminiModel } from '../gemini/gemini-model.ts';
import type {
  GeminiContent,
  GeminiErrorBody,
  GeminiFunctionCall,
  GeminiFunctionDeclaration,
  GeminiPart,
  GeminiRequest,
  GeminiResponse,
} from '../gemini/gemini-protocol.ts';
import { isPlainObject } from '../tool-loop.ts';

/**
 * The sandbox model: a deterministic stand-in that speaks Gemini's REST protocol (like the fake Gupshup speaks
 * Gupshup's), so the embedded default runs the real Gemini adapter end to end without a key or a network.
 * It reads the customer's last words and calls the tools they ask for (docs/decisions/0013-ai-model-port.md).
 */

export const SANDBOX_MODEL_ID = 'embudo-sandbox';
export const SANDBOX_LABEL = 'IA de prueba';
export const SANDBOX_TRANSCRIPT =
  'Transcripción de prueba: la IA de prueba no escucha el audio, así que escribe este texto en lugar de lo que dice la nota de voz.';
export const SANDBOX_FALLBACK = 'Gracias por escribirnos. Con gusto te ayudo; ¿me cuentas un poco más de lo que necesitas?';
const SANDBOX_API_KEY = 'sandbox';
const SANDBOX_CALL_ID = 'sandbox-call-';

export interface SandboxGeminiReply {
  status: number;
  body: GeminiResponse | GeminiErrorBody;
}

/** Gemini's generateContent as the sandbox answers it: request body (camelCase or snake_case) in, response JSON out. */
export function answerSandboxGeminiRequest(rawBody: unknown): SandboxGeminiReply {
  const request = camelCaseKeys(rawBody) as Partial<GeminiRequest>;
  if (!Array.isArray(request.contents) || request.contents.length === 0) return invalidArgument('contents must not be empty');
  const contents = request.contents.map((content) => ({ role: content.role, parts: Array.isArray(content.parts) ? content.parts.map(unwrappedResult) : [] }));
  const problem = unansweredCallProblem(contents);
  if (problem) return invalidArgument(problem);

  const instructions = (request.systemInstruction?.parts ?? []).map((part) => part.text ?? '').join('\n');
  const declarations: GeminiFunctionDeclaration[] =
    request.toolConfig?.functionCallingConfig?.mode === 'NONE'
      ? []
      : (request.tools ?? [])
          .flatMap((tool) => tool.functionDeclarations ?? [])
          .map(({ parameters, parametersJsonSchema, ...declaration }) => ({
            ...declaration,
            parameters: parameters ?? parametersJsonSchema ?? {},
          }));
  const parts = decide(contents, declarations);
  const promptChars = JSON.stringify(request).length;
  const answerChars = JSON.stringify(parts).length;
  return {
    status: 200,
    body: {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: Math.ceil(promptChars / 4),
        candidatesTokenCount: Math.ceil(answerChars / 4),
        totalTokenCount: Math.ceil(promptChars / 4) + Math.ceil(answerChars / 4),
      },
      modelVersion: SANDBOX_MODEL_ID,
    },
  };

  function decide(history: GeminiContent[], offered: GeminiFunctionDeclaration[]): GeminiPart[] {
    const last = history.at(-1)!;
    if (last.parts.some((part) => part.inlineData)) return [{ text: SANDBOX_TRANSCRIPT }];
    const responses = last.parts.flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));
    const callNumber = history.reduce((count, content) => count + content.parts.filter((part) => part.functionCall).length, 0) + 1;
    const call = (name: string, args: Record<string, unknown>): GeminiPart[] => [
      {
        functionCall: { id: `${SANDBOX_CALL_ID}${callNumber}`, name, args },
        thoughtSignature: signatureFor(callNumber),
      },
    ];
    const offers = (name: string) => offered.find((declaration) => declaration.name === name);

    if (responses.length > 0) {
      const slots = responses.find((response) => response.name === 'find_free_slots')?.response['slots'];
      const firstSlot = Array.isArray(slots) && isPlainObject(slots[0]) ? slots[0] : undefined;
      if (firstSlot && offers('book_appointment')) {
        return call('book_appointment', {
          start: firstSlot['start'],
          ...(typeof firstSlot['service'] === 'string' ? { service: firstSlot['service'] } : {}),
          ...(typeof firstSlot['professional'] === 'string' ? { professional: firstSlot['professional'] } : {}),
        });
      }
      return [{ text: responses.map((response) => sayResult(response.name, response.response)).join(' ') }];
    }

    const words = fold(lastCustomerText(history));
    if (offers('hand_over_to_person') && /\b(persona|humano|asesor|agente)s?\b/.test(words)) {
      return call('hand_over_to_person', { reason: 'El cliente pidió hablar con una persona.' });
    }
    if (offers('find_free_slots') && /\b(agendar|cita|turno|reservar)/.test(words)) return call('find_free_slots', {});
    for (const mover of offered.filter((declaration) => declaration.name === 'move_to_column' || declaration.name.startsWith('redirect_to_column'))) {
      const column = mover.parameters.properties?.['column']?.enum?.find((name) => containsWords(words, fold(name)));
      if (column) return call(mover.name, { column });
    }
    const scheduler = offered.find((declaration) => declaration.name.startsWith('schedule_message'));
    if (scheduler && /\b(recuerd|recordar|recordatorio|programa)/.test(words)) {
      return call(scheduler.name, { text: `Recordatorio: ${lastCustomerText(history)}`, sendAt: new Date(Date.now() + 60 * 60_000).toISOString() });
    }
    // Any other tool whose «label» shares a word with the customer's (the aiPrompt node's webhooks, a fixed redirect).
    const wanted = keywords(words);
    const labelled = offered.find((declaration) => {
      const label = /«([^»]+)»/.exec(declaration.description)?.[1];
      return label !== undefined && [...keywords(fold(label))].some((word) => wanted.has(word));
    });
    if (labelled) {
      const args = labelled.parameters.properties?.['datos'] ? { datos: JSON.stringify({ mensaje: lastCustomerText(history) }) } : {};
      return call(labelled.name, args);
    }
    const known = bestKnowledgeLine(instructions, words);
    return [{ text: known ? `Según nuestra información: ${known}` : SANDBOX_FALLBACK }];
  }
}

/** The sandbox model: the real Gemini adapter whose requests never leave the process. */
export function createSandboxAiModel(): AiModel {
  const inProcessFetch: typeof fetch = async (_input, init) => {
    const reply = answerSandboxGeminiRequest(JSON.parse(String(init?.body ?? '{}')) as unknown);
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json' } });
  };
  return createGeminiModel({
    apiKey: SANDBOX_API_KEY,
    baseUrl: 'http://sandbox.invalid',
    model: SANDBOX_MODEL_ID,
    fetch: inProcessFetch,
    provider: 'sandbox',
    label: SANDBOX_LABEL,
  });
}

/** What the sandbox says once a tool answered. */
function sayResult(name: string, result: Record<string, unknown>): string {
  if (typeof result['error'] === 'string') return `No pude completar eso: ${result['error']}`;
  const appointment = result['appointment'];
  if (name === 'book_appointment' && isPlainObject(appointment) && typeof appointment['start'] === 'string') {
    return `Listo, tu cita quedó agendada para el ${readableLocalTime(appointment['start'])}.`;
  }
  if (name === 'find_free_slots') {
    const starts = (Array.isArray(result['slots']) ? result['slots'] : []).flatMap((slot) =>
      isPlainObject(slot) && typeof slot['start'] === 'string' ? [slot['start']] : [],
    );
    if (starts.length === 0) return 'No encontré horarios libres en esas fechas. ¿Te sirve otro día?';
    return `Tengo estos horarios libres: ${starts.slice(0, 3).map(readableLocalTime).join('; ')}. ¿Cuál prefieres?`;
  }
  if (name === 'hand_over_to_person') return 'Te comunico con una persona del equipo; te responderá en breve.';
  if (name === 'move_to_column' || name.startsWith('redirect_to_column')) return `Listo, pasé tu conversación a ${String(result['column'] ?? 'esa etapa')}.`;
  if (name.startsWith('schedule_message') && typeof result['sendAt'] === 'string') return `Listo, te enviaré el recordatorio (${result['sendAt']}).`;
  if (typeof result['body'] === 'string') return `Esto es lo que encontré: ${result['body'].slice(0, 500)}`;
  return 'Listo.';
}

const WEEKDAYS = ['domingo', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado'];
const MONTHS = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];

/** "martes 25 de noviembre a las 10:30": an ISO time with offset is already the company's wall-clock time. */
export function readableLocalTime(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(iso);
  if (!match) return iso;
  const [, year, month, day, hour, minute] = match.map(Number) as [number, number, number, number, number, number];
  const weekday = WEEKDAYS[new Date(Date.UTC(year, month - 1, day)).getUTCDay()];
  return `${weekday} ${day} de ${MONTHS[month - 1]} a las ${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

function lastCustomerText(history: GeminiContent[]): string {
  for (const content of [...history].reverse()) {
    if (content.role !== 'user') continue;
    const text = content.parts
      .map((part) => part.text ?? '')
      .join(' ')
      .trim();
    if (text) return text;
  }
  return '';
}

const STOPWORDS = new Set([
  'que',
  'con',
  'para',
  'por',
  'los',
  'las',
  'del',
  'una',
  'uno',
  'unos',
  'unas',
  'como',
  'cual',
  'cuales',
  'esta',
  'este',
  'esto',
  'hay',
  'hola',
  'tienen',
  'tiene',
  'quiero',
  'quisiera',
  'saber',
  'puedo',
  'pueden',
  'sus',
  'mas',
  'muy',
  'pero',
  'sobre',
  'buenas',
  'buenos',
]);

/** Lower case, accents folded: "Cuánto cuesta" → "cuanto cuesta". */
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

function keywords(folded: string): Set<string> {
  return new Set(
    folded
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word.length >= 3 && !STOPWORDS.has(word))
      .map((word) => word.replace(/s$/, '')),
  );
}

function containsWords(text: string, phrase: string): boolean {
  const escaped = phrase.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return escaped !== '' && new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'u').test(text);
}

/** The sentence under "# Conocimiento" sharing the most keywords with the customer's words, if any shares one. */
function bestKnowledgeLine(instructions: string, customerWords: string): string | undefined {
  const section = instructions.split(/^# Conocimiento\s*$/m)[1];
  if (!section) return undefined;
  const wanted = keywords(customerWords);
  let best: { sentence: string; score: number } | undefined;
  for (const line of section.split('\n')) {
    if (line.startsWith('#') || !line.trim()) continue;
    for (const sentence of line.trim().split(/(?<=[.!?])\s+/)) {
      const score = [...keywords(fold(sentence))].filter((word) => wanted.has(word)).length;
      if (score > 0 && (!best || score > best.score)) best = { sentence, score };
    }
  }
  return best?.sentence;
}

function signatureFor(callNumber: number): string {
  return Buffer.from(`sandbox-thought-${callNumber}`).toString('base64');
}

/**
 * gemini.md §4: every functionResponse answers a functionCall of the model turn just before it, by name and by id when
 * the call had one; `response` is an object; and the sandbox's own calls come back with their thoughtSignature.
 */
function unansweredCallProblem(contents: GeminiContent[]): string | undefined {
  for (const [index, content] of contents.entries()) {
    const calls = content.parts.filter((part) => part.functionCall);
    for (const part of calls) {
      const id = part.functionCall!.id;
      if (id?.startsWith(SANDBOX_CALL_ID) && part.thoughtSignature !== signatureFor(Number(id.slice(SANDBOX_CALL_ID.length)))) {
        return `Function call ${part.functionCall!.name} is missing its thought_signature`;
      }
    }
    const responses = content.parts.flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));
    if (responses.length === 0) continue;
    const previous = contents[index - 1];
    const previousCalls: GeminiFunctionCall[] =
      previous?.role === 'model' ? previous.parts.flatMap((part) => (part.functionCall ? [part.functionCall] : [])) : [];
    if (content.role !== 'user') return 'functionResponse parts belong in a user turn';
    if (responses.length !== previousCalls.length)
      return 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
    for (const response of responses) {
      if (!isPlainObject(response.response)) return `functionResponse ${response.name} must have an object response`;
      const answered = previousCalls.some((call) => call.name === response.name && (call.id === undefined || call.id === response.id));
      if (!answered) return `functionResponse ${response.name}${response.id ? ` (${response.id})` : ''} answers no function call of the previous model turn`;
    }
  }
  return undefined;
}

/**
 * A tool's result as the model reads it. The AI SDK sends `response: { name, content: <result> }`; the sandbox reads
 * the result inside, as a model would. Anything else (`{ name, error }` for a call of a tool that was not offered, or
 * another client's bare result) is read as sent.
 */
function unwrappedResult(part: GeminiPart): GeminiPart {
  const response = part.functionResponse?.response;
  if (!response || !isPlainObject(response['content']) || response['name'] !== part.functionResponse!.name) return part;
  return { ...part, functionResponse: { ...part.functionResponse!, response: response['content'] } };
}

function invalidArgument(message: string): SandboxGeminiReply {
  return { status: 400, body: { error: { code: 400, message, status: 'INVALID_ARGUMENT', details: [] } } };
}

/** Keys whose object values are the caller's own data (arguments, results, property names): never renamed. */
const VERBATIM_KEYS = new Set(['args', 'response', 'properties']);

/** Google's JSON mapping takes snake_case and camelCase alike; the sandbox reads both as camelCase. */
export function camelCaseKeys(value: unknown, verbatim = false): unknown {
  if (Array.isArray(value)) return value.map((item) => camelCaseKeys(item));
  if (!isPlainObject(value) || verbatim) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      const camel = key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
      return [camel, camelCaseKeys(inner, VERBATIM_KEYS.has(camel))];
    }),
  );
}
