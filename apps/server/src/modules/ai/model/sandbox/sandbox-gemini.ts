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
import { wallClockOf } from '@embudo/contracts/time/wall-clock';
import { fold } from '../../knowledge/spanish-words.ts';
import { isPlainObject } from '../tool-loop.ts';
import {
  alreadyBookedText,
  ASK_WHEN,
  bookingStep,
  chooseText,
  freeSlotsIn,
  isReminderRequest,
  isThanks,
  mentionsBooking,
  offerText,
  reminderAnswer,
  reminderFor,
  type BookingStep,
  type SandboxTurn,
  takenText,
} from './sandbox-booking.ts';
import { cosineSimilarity, sandboxEmbed, sandboxEmbedding, sharesMeaning } from './sandbox-embedding.ts';
import { conversationSummary, isSummaryRequest } from './sandbox-summary.ts';
import { type CompanyClock, companyClock, readableDayAndTime, readableLocalTime } from './sandbox-when.ts';

export { readableLocalTime } from './sandbox-when.ts';

/**
 * The sandbox model: a deterministic stand-in that speaks Gemini's REST protocol (like the fake Gupshup speaks
 * Gupshup's), so the embedded default runs the real Gemini adapter end to end without a key or a network.
 * It reads the conversation and calls the tools the customer asks for (docs/decisions/0013-ai-model-port.md): it books
 * only a time the customer confirmed, and summarises a chat when the copilot asks it to.
 */

export const SANDBOX_MODEL_ID = 'embudo-sandbox';
export const SANDBOX_LABEL = 'IA de prueba';
export const SANDBOX_TRANSCRIPT =
  'Transcripción de prueba: la IA de prueba no escucha el audio, así que escribe este texto en lugar de lo que dice la nota de voz.';
export const SANDBOX_FALLBACK = 'Gracias por escribirnos. Con gusto te ayudo; ¿me cuentas un poco más de lo que necesitas?';
export const SANDBOX_YOU_ARE_WELCOME = '¡Con gusto! Si necesitas algo más, aquí estamos.';
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
    const clock = companyClock(instructions);
    const turns = textTurns(history);
    if (isSummaryRequest(instructions)) return [{ text: conversationSummary(turns, instructions, clock) }];
    const responses = last.parts.flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));
    const callNumber = history.reduce((count, content) => count + content.parts.filter((part) => part.functionCall).length, 0) + 1;
    const call = (name: string, args: Record<string, unknown>): GeminiPart[] => [
      {
        functionCall: { id: `${SANDBOX_CALL_ID}${callNumber}`, name, args },
        thoughtSignature: signatureFor(callNumber),
      },
    ];
    const offers = (name: string) => offered.find((declaration) => declaration.name === name);
    const booking = offers('find_free_slots') ? bookingStep(turns, clock) : undefined;

    if (responses.length > 0) {
      const found = responses.find((response) => response.name === 'find_free_slots');
      if (found && typeof found.response['error'] !== 'string') return afterFreeSlots(found.response, booking);
      return [{ text: responses.map((response) => sayResult(response.name, response.response, clock)).join(' ') }];
    }

    const words = fold(lastCustomerText(history));
    if (offers('hand_over_to_person') && /\b(persona|humano|asesor|agente)s?\b/.test(words)) {
      return call('hand_over_to_person', { reason: 'El cliente pidió hablar con una persona.' });
    }
    if (booking) return bookingMove(booking);
    if (isThanks(words)) return [{ text: SANDBOX_YOU_ARE_WELCOME }];
    for (const mover of offered.filter((declaration) => declaration.name === 'move_to_column' || declaration.name.startsWith('redirect_to_column'))) {
      const column = mover.parameters.properties?.['column']?.enum?.find((name) => containsWords(words, fold(name)));
      if (column) return call(mover.name, { column });
    }
    const scheduler = offered.find((declaration) => declaration.name.startsWith('schedule_message'));
    if (scheduler && /\b(recuerd|recordar|recordatorio|programa)/.test(words)) return call(scheduler.name, { ...reminderFor(turns, clock) });
    const appointmentReminder = isReminderRequest(words) && mentionsBooking(words) ? reminderAnswer(turns, clock) : undefined;
    if (appointmentReminder) return [{ text: appointmentReminder }];
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
    const known = bestKnowledgeLine(instructions, lastCustomerText(history));
    return [{ text: known ? `Según nuestra información: ${known}` : SANDBOX_FALLBACK }];

    /** Asks for a day, offers, or looks the confirmed time up again before booking it; a booking never comes first. */
    function bookingMove(step: BookingStep): GeminiPart[] {
      const onDay = (date: string | undefined) => (date && offers('find_free_slots')?.parameters.properties?.['date'] ? { date } : {});
      if (step.kind === 'ask-when') return [{ text: ASK_WHEN }];
      if (step.kind === 'choose') return [{ text: chooseText(step.offered) }];
      if (step.kind === 'already-booked') return [{ text: alreadyBookedText(step.booked) }];
      return call('find_free_slots', onDay(step.kind === 'book' ? step.slot.date : step.wanted.date));
    }

    /** The free times in words; book_appointment only for the time the customer confirmed, if it is still free. */
    function afterFreeSlots(result: Record<string, unknown>, step: BookingStep | undefined): GeminiPart[] {
      const slots = freeSlotsIn(result);
      if (step?.kind !== 'book' || !offers('book_appointment')) return [{ text: offerText(slots, step?.kind === 'search' ? step.wanted : {}) }];
      const chosen = slots.find((slot) => slot.date === step.slot.date && slot.minutes === step.slot.minutes);
      if (!chosen) return [{ text: takenText(slots) }];
      return call('book_appointment', {
        start: chosen.start,
        ...(chosen.service ? { service: chosen.service } : {}),
        ...(chosen.professional ? { professional: chosen.professional } : {}),
      });
    }
  }
}

/** The sandbox model: the real Gemini adapter whose requests never leave the process. */
export function createSandboxAiModel(): AiModel {
  const inProcessFetch: typeof fetch = async (_input, init) => {
    const reply = answerSandboxGeminiRequest(JSON.parse(String(init?.body ?? '{}')) as unknown);
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json' } });
  };
  const gemini = createGeminiModel({
    apiKey: SANDBOX_API_KEY,
    baseUrl: 'http://sandbox.invalid',
    model: SANDBOX_MODEL_ID,
    fetch: inProcessFetch,
    provider: 'sandbox',
    label: SANDBOX_LABEL,
  });
  // Gemini's REST protocol is not faked for embeddings: the deterministic vectors are made in-process.
  return { ...gemini, embed: sandboxEmbed };
}

/** What the sandbox says once a tool answered. */
function sayResult(name: string, result: Record<string, unknown>, clock: CompanyClock): string {
  // A failure's words are already safe for the customer (tool-loop.ts): said as they are.
  if (typeof result['error'] === 'string') return result['error'];
  const appointment = result['appointment'];
  if (name === 'book_appointment' && isPlainObject(appointment) && typeof appointment['start'] === 'string') {
    return `Listo, tu cita quedó agendada para el ${readableLocalTime(appointment['start'])}.`;
  }
  if (name === 'hand_over_to_person') return 'Te comunico con una persona del equipo; te responderá en breve.';
  if (name === 'move_to_column' || name.startsWith('redirect_to_column')) return `Listo, pasé tu conversación a ${String(result['column'] ?? 'esa etapa')}.`;
  if (name.startsWith('schedule_message') && typeof result['sendAt'] === 'string') {
    const sendAt = new Date(result['sendAt']);
    if (Number.isNaN(sendAt.getTime())) return 'Listo, te enviaré el recordatorio.';
    const local = wallClockOf(sendAt, clock.timeZone);
    return `Listo, te enviaré el recordatorio el ${readableDayAndTime(local.date, local.minutes)}.`;
  }
  if (typeof result['body'] === 'string') return `Esto es lo que encontré: ${result['body'].slice(0, 500)}`;
  return 'Listo.';
}

/** The chat's messages in words, without this answer's tool calls and results. */
function textTurns(history: GeminiContent[]): SandboxTurn[] {
  return history.flatMap((content) => {
    const text = content.parts
      .filter((part) => part.text && !part.thought)
      .map((part) => part.text)
      .join(' ')
      .trim();
    return text ? [{ role: content.role === 'user' ? ('customer' as const) : ('business' as const), text }] : [];
  });
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

/**
 * A question for a time, an amount or a price ("¿a qué hora…?", "¿cuánto…?") is answered by a sentence that states a
 * figure: among sentences about the same thing, one with digits is preferred ("Abrimos a las 7:45" over "Los
 * domingos no abrimos").
 */
const ASKS_FOR_A_FIGURE = /\b(cuant[oa]s?|que hora|cuando|hasta que hora|desde que hora|precio|cuesta|cuestan|vale|valen|sale|salen|costo|tarifa)\b/;
const FIGURE_BONUS = 0.25;

/**
 * The sentence under "# Conocimiento" nearest in meaning to the customer's words, by the sandbox embedding, among
 * those sharing a word (by its stem or first letters) or a concept with them: "¿A qué hora abren?" finds "Abrimos a
 * las 9", and a greeting finds nothing.
 */
function bestKnowledgeLine(instructions: string, customerText: string): string | undefined {
  const section = instructions.split(/^# Conocimiento\s*$/m)[1];
  if (!section) return undefined;
  const asked = sandboxEmbedding(customerText);
  const wantsFigure = ASKS_FOR_A_FIGURE.test(fold(customerText));
  let best: { sentence: string; score: number } | undefined;
  for (const line of section.split('\n')) {
    if (line.startsWith('#') || !line.trim()) continue;
    for (const sentence of line.trim().split(/(?<=[.!?])\s+/)) {
      if (!sharesMeaning(customerText, sentence)) continue;
      const figureBonus = wantsFigure && /\d/.test(sentence) ? FIGURE_BONUS : 0;
      const score = cosineSimilarity(asked, sandboxEmbedding(sentence)) + figureBonus;
      if (!best || score > best.score) best = { sentence, score };
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
