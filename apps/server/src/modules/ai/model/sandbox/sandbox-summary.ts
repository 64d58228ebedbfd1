import { minutesToClockTime } from '@embudo/contracts/time/wall-clock';
import { bookingStep, isBookingRequest, isReminderRequest, isSmallTalk, lastBooking, mentionsBooking, offeredIn, type SandboxTurn } from './sandbox-booking.ts';
import { fold } from '../../knowledge/spanish-words.ts';
import { type CompanyClock, readableDay, readableDayAndTime, readWhen, type Wanted } from './sandbox-when.ts';

/**
 * The copilot's "Resumir conversación" on the sandbox model: who the customer is, what they want, what was agreed and
 * what is pending, read from the whole conversation (not its last message), in the bullets the copilot asks for.
 */

/** The copilot's summary task says "resume esta conversación". */
export const isSummaryRequest = (instructions: string) => /\bresume esta conversacion\b/.test(fold(instructions));

const PERSON = /\b(persona|humano|asesor|agente)s?\b/;
const QUOTE_CHARS = 120;

const quoted = (text: string) => {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return `«${oneLine.length > QUOTE_CHARS ? `${oneLine.slice(0, QUOTE_CHARS - 1)}…` : oneLine}»`;
};

export function conversationSummary(allTurns: SandboxTurn[], instructions: string, clock: CompanyClock): string {
  // The adapter opens a chat the business started with a placeholder customer turn in parentheses.
  const turns = allTurns.filter((turn) => !(turn.role === 'customer' && /^\(.*\)$/.test(turn.text.trim())));
  return [
    `- Cliente: ${customerName(turns, instructions) ?? 'no dijo su nombre'}.`,
    `- Quiere: ${wants(turns, clock).join('; ') || 'no lo dijo todavía'}.`,
    `- Acordado: ${agreed(turns, clock).join('; ') || 'nada todavía'}.`,
    `- Pendiente: ${pending(turns, clock)}`,
  ].join('\n');
}

/** The name the copilot passes ("Nombre del cliente: Ana.") or the one the customer gave ("me llamo Ana"). */
function customerName(turns: SandboxTurn[], instructions: string): string | undefined {
  const given = /^Nombre del cliente: (.+?)\.?$/m.exec(instructions)?.[1];
  if (given) return given;
  for (const turn of turns) {
    if (turn.role !== 'customer') continue;
    const said = /\b(?:[Mm]e llamo|[Mm]i nombre es|[Ss]oy)\s+(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)?)/u.exec(turn.text);
    if (said) return said[1];
  }
  return undefined;
}

function when(wanted: Wanted): string {
  const day = wanted.date ? `el ${wanted.minutes !== undefined ? readableDayAndTime(wanted.date, wanted.minutes) : readableDay(wanted.date)}` : '';
  const time = !wanted.date && wanted.minutes !== undefined ? `a las ${minutesToClockTime(wanted.minutes)}` : '';
  const period = wanted.period ? `por la ${wanted.period === 'manana' ? 'mañana' : wanted.period}` : '';
  return [day, time, period].filter(Boolean).join(' ');
}

function wants(turns: SandboxTurn[], clock: CompanyClock): string[] {
  const found: string[] = [];
  const add = (want: string) => {
    if (!found.includes(want)) found.push(want);
  };
  turns.forEach((turn, index) => {
    if (turn.role !== 'customer') return;
    const words = fold(turn.text);
    if (isBookingRequest(words)) {
      const asked = when(readWhen(words, clock.today));
      add(`agendar una cita${asked ? ` para ${asked}` : ''}`);
    } else if (isReminderRequest(words)) {
      add(mentionsBooking(words) ? 'que le recuerden su cita' : `un recordatorio (${quoted(turn.text)})`);
    } else if (PERSON.test(words)) {
      add('hablar con una persona del equipo');
    } else if (!isSmallTalk(turn.text) && !bookingStep(turns.slice(0, index + 1), clock)) {
      add(`saber ${quoted(turn.text)}`);
    }
  });
  return found;
}

const AGREEMENTS: Array<[RegExp, (match: RegExpExecArray) => string]> = [
  [/te enviaré el recordatorio/, () => 'enviarle un recordatorio'],
  [/Te comunico con una persona/, () => 'pasar la conversación a una persona del equipo'],
  [/pasé tu conversación a ([^.]+)/, (match) => `pasar su conversación a ${match[1]}`],
  [/Según nuestra información: (.+)/, (match) => `se le informó: ${match[1]!.trim().replace(/\.$/, '')}`],
];

function agreed(turns: SandboxTurn[], clock: CompanyClock): string[] {
  const found: string[] = [];
  const business = turns.filter((turn) => turn.role === 'business');
  for (const turn of business) {
    const booked = lastBooking([turn], clock);
    const said = booked
      ? `cita agendada para el ${readableDayAndTime(booked.date, booked.minutes)}`
      : AGREEMENTS.flatMap(([pattern, say]) => {
          const match = pattern.exec(turn.text);
          return match ? [say(match)] : [];
        })[0];
    if (said && !found.includes(said)) found.push(said);
  }
  // A person's own words agree nothing the sandbox can name: the summary keeps the team's last answer instead.
  const lastAnswer = business.at(-1);
  if (found.length === 0 && lastAnswer && offeredIn(lastAnswer.text, clock).length === 0)
    found.push(`nada cerrado; el equipo respondió ${quoted(lastAnswer.text)}`);
  return found;
}

function pending(turns: SandboxTurn[], clock: CompanyClock): string {
  const last = turns.at(-1);
  if (!last) return 'todo: la conversación no tiene mensajes.';
  if (last.role === 'customer') {
    const answered = turns.some((turn) => turn.role === 'business');
    return isSmallTalk(last.text) && answered ? 'nada.' : `responder su último mensaje, ${quoted(last.text)}.`;
  }
  const offered = offeredIn(last.text, clock);
  if (offered.length > 0) {
    return `que el cliente elija uno de los horarios ofrecidos (${offered.map((slot) => readableDayAndTime(slot.date, slot.minutes)).join('; ')}).`;
  }
  if (/Te comunico con una persona/.test(last.text)) return 'que una persona del equipo lo atienda.';
  if (last.text.trim().endsWith('?')) return `que el cliente responda a ${quoted(last.text)}.`;
  return 'nada.';
}
