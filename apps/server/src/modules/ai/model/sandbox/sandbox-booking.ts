import { instantAt } from '@embudo/contracts/time/wall-clock';
import { isPlainObject } from '../tool-loop.ts';
import { fold } from '../../knowledge/spanish-words.ts';
import { type CompanyClock, inPeriod, readableDayAndTime, readableTimesIn, readWhen, saysWhen, timeMatches, wallClockIn, type Wanted } from './sandbox-when.ts';

/**
 * How the sandbox model books, as a careful receptionist would: it asks for a day when none was said, looks up the
 * free times and offers them, and books only the one the customer then confirms — once. It reads all of this from
 * the conversation's words, since that is all a later answer sees of an earlier one.
 */

/** One message of the chat, as the model sees it. */
export interface SandboxTurn {
  role: 'customer' | 'business';
  text: string;
}

export interface DayAndTime {
  date: string;
  minutes: number;
}

export type BookingStep =
  /** A booking without a day or time: ask for one. */
  | { kind: 'ask-when' }
  /** Look up the free times, then offer them in words. */
  | { kind: 'search'; wanted: Wanted }
  /** The customer took an offered time: look it up again and book it. */
  | { kind: 'book'; slot: DayAndTime }
  /** A yes to several offered times: ask which one. */
  | { kind: 'choose'; offered: DayAndTime[] }
  /** The conversation already booked what is asked again. */
  | { kind: 'already-booked'; booked: DayAndTime };

export const ASK_WHEN = '¡Claro! ¿Para qué día y a qué hora te gustaría la cita?';
export const NO_FREE_SLOTS = 'No encontré horarios libres en esas fechas. ¿Te sirve otro día?';

const REMINDER = /\b(recuerd|recordar|recordatorio)/;
const CHANGE = /\b(cancel|anul|cambi|mover|muev|reprogram|posterg)/;
const BOOKING_VERB = /\b(agend|reserv|apart)/;
const BOOKING_NOUN = /\b(cita|turno)s?\b|\b(una|otra) hora\b|\bhora para\b/;
/** "mi cita" is one the customer already has: a question about it, not a booking. */
const OWN_BOOKING = /\b(mi|su) (cita|turno)\b/;
const DECLINED = /^\W*no\b|\bningun[oa]?\b|\botro (dia|horario)\b|\botra (hora|fecha)\b/;
const AGREED = /\b(si|dale|ok|okay|vale|perfecto|listo|de acuerdo|me sirve|me queda|esa|ese|confirmo|claro|genial|excelente|bueno|va)\b/;
const ORDINALS: Array<[RegExp, (count: number) => number]> = [
  [/\b(la|el) primer[oa]?\b/, () => 0],
  [/\b(la|el) segund[oa]\b/, () => 1],
  [/\b(la|el) tercer[oa]?\b/, () => 2],
  [/\b(la|el) ultim[oa]\b/, (count) => count - 1],
];
/** The business asked the customer for a day (or another one): a day in the reply goes on with the booking. */
const ASKED_FOR_A_DAY = /para que dia|te sirve otro dia|cual prefieres|te la reservo|que horario prefieres|dime para que dia/;
const BOOKED = /agendad[ao]|reservad[ao]|confirmad[ao]/;
/** An offer asks the customer to take a time; other messages that name one (a reminder's hour) offer nothing. */
const OFFER_QUESTION = /cual prefieres|horarios prefieres|te la reservo|te sirve|te queda bien|te parece/;

export const isReminderRequest = (folded: string) => REMINDER.test(folded);

const GREETINGS = 'hola buenas buenos dias tardes noches que tal chao adios saludos gracias muchas mil';
const BARE_ANSWERS = 'si no ok okay vale perfecto listo genial bueno dale excelente';
/** Words that make a message a greeting, a thanks or a bare yes: nothing to act on or summarise by themselves. */
const SMALL_TALK = new Set(`${GREETINGS} ${BARE_ANSWERS}`.split(' '));
const wordsOf = (text: string) =>
  fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
export const isSmallTalk = (text: string) => wordsOf(text).every((word) => SMALL_TALK.has(word));
/** "Perfecto, gracias": a thanks that asks for nothing more. */
export const isThanks = (text: string) => isSmallTalk(text) && wordsOf(text).includes('gracias');
export const mentionsBooking = (folded: string) => BOOKING_NOUN.test(folded) || BOOKING_VERB.test(folded);

/** Asks for a new appointment ("quiero agendar", "¿tienen turno mañana?"), not about one already made. */
export function isBookingRequest(folded: string): boolean {
  if (REMINDER.test(folded) || CHANGE.test(folded)) return false;
  return BOOKING_VERB.test(folded) || (BOOKING_NOUN.test(folded) && !OWN_BOOKING.test(folded));
}

/** The times a business message offers for the customer to take; a message confirming a booking offers none. */
export function offeredIn(text: string, clock: CompanyClock): DayAndTime[] {
  const folded = fold(text);
  return OFFER_QUESTION.test(folded) && !BOOKED.test(folded) ? readableTimesIn(text, clock.today) : [];
}

/** The last appointment the business confirmed in these turns ("tu cita quedó agendada para el …"). */
export function lastBooking(turns: SandboxTurn[], clock: CompanyClock): DayAndTime | undefined {
  for (const turn of [...turns].reverse()) {
    if (turn.role !== 'business' || !BOOKED.test(fold(turn.text))) continue;
    const times = readableTimesIn(turn.text, clock.today);
    if (times.length > 0) return times.at(-1);
  }
  return undefined;
}

/** What to do about booking with the customer's last message, or nothing when it is not about booking. */
export function bookingStep(turns: SandboxTurn[], clock: CompanyClock): BookingStep | undefined {
  const lastIndex = turns.length - 1;
  if (turns[lastIndex]?.role !== 'customer') return undefined;
  const words = fold(turns[lastIndex].text);
  if (REMINDER.test(words) || CHANGE.test(words)) return undefined;
  const wanted = readWhen(words, clock.today);
  const before = turns.slice(0, lastIndex);
  const asked = before.at(-1)?.role === 'business' ? before.at(-1)!.text : '';
  const offered = offeredIn(asked, clock);
  if (offered.length > 0) {
    const reply = replyToOffer(words, wanted, offered, requestBefore(before, clock));
    if (reply) return reply;
  } else if (ASKED_FOR_A_DAY.test(fold(asked)) && saysWhen(wanted)) {
    return { kind: 'search', wanted };
  }
  if (!isBookingRequest(words)) return undefined;
  const booked = lastBooking(before, clock);
  // Asked again for what was booked (or with no new day): the same request, never a second appointment.
  if (booked && (wanted.date ?? booked.date) === booked.date && (wanted.minutes === undefined || timeMatches(wanted, booked.minutes))) {
    return { kind: 'already-booked', booked };
  }
  return saysWhen(wanted) ? { kind: 'search', wanted } : { kind: 'ask-when' };
}

/** When the customer asked for, in their last booking request before the offer. */
function requestBefore(turns: SandboxTurn[], clock: CompanyClock): Wanted {
  const request = [...turns].reverse().find((turn) => turn.role === 'customer' && isBookingRequest(fold(turn.text)));
  return request ? readWhen(fold(request.text), clock.today) : {};
}

/** The customer's answer to offered times: take one, ask which, look again on another day or time, or not about it. */
function replyToOffer(words: string, wanted: Wanted, offered: DayAndTime[], requested: Wanted): BookingStep | undefined {
  if (DECLINED.test(words)) return saysWhen(wanted) ? { kind: 'search', wanted } : undefined;
  const onThatDay = wanted.date ? offered.filter((slot) => slot.date === wanted.date) : offered;
  if (wanted.date && onThatDay.length === 0) return { kind: 'search', wanted };
  if (wanted.minutes !== undefined) {
    const named = onThatDay.find((slot) => timeMatches(wanted, slot.minutes));
    return named ? { kind: 'book', slot: named } : { kind: 'search', wanted: { ...wanted, date: wanted.date ?? offered[0]!.date } };
  }
  for (const [ordinal, index] of ORDINALS) {
    const slot = ordinal.test(words) ? onThatDay[index(onThatDay.length)] : undefined;
    if (slot) return { kind: 'book', slot };
  }
  const inThatPeriod = wanted.period ? onThatDay.filter((slot) => inPeriod(slot.minutes, wanted.period!)) : onThatDay;
  if (inThatPeriod.length === 0) return { kind: 'search', wanted: { ...wanted, date: wanted.date ?? offered[0]!.date } };
  // "Bueno, ¿y cuánto cuesta?" asks something else; "¿me la reservas?" still takes it.
  const agreed = BOOKING_VERB.test(words) || (AGREED.test(words) && !words.includes('?'));
  if (!agreed) return wanted.date || wanted.period ? { kind: 'choose', offered: inThatPeriod } : undefined;
  if (inThatPeriod.length === 1) return { kind: 'book', slot: inThatPeriod[0]! };
  const askedFor = inThatPeriod.find((slot) => timeMatches(requested, slot.minutes) && (requested.date ?? slot.date) === slot.date);
  if (askedFor) return { kind: 'book', slot: askedFor };
  return { kind: 'choose', offered: inThatPeriod };
}

export interface FreeSlot extends DayAndTime {
  start: string;
  service?: string;
  professional?: string;
}

/** find_free_slots' answer as slots on the company's clock, first start first, one per start time. */
export function freeSlotsIn(result: Record<string, unknown>): FreeSlot[] {
  const slots = Array.isArray(result['slots']) ? result['slots'] : [];
  const seen = new Set<string>();
  return slots.flatMap((slot) => {
    if (!isPlainObject(slot) || typeof slot['start'] !== 'string' || seen.has(slot['start'])) return [];
    const clock = wallClockIn(slot['start']);
    if (!clock) return [];
    seen.add(slot['start']);
    return [
      {
        ...clock,
        start: slot['start'],
        ...(typeof slot['service'] === 'string' ? { service: slot['service'] } : {}),
        ...(typeof slot['professional'] === 'string' ? { professional: slot['professional'] } : {}),
      },
    ];
  });
}

const readable = (slot: DayAndTime) => readableDayAndTime(slot.date, slot.minutes);
const list = (slots: DayAndTime[]) => `Tengo estos horarios libres: ${slots.map(readable).join('; ')}. ¿Cuál prefieres?`;

/** The free times offered in words, closest to what the customer asked for; never a booking. */
export function offerText(slots: FreeSlot[], wanted: Wanted): string {
  if (slots.length === 0) return NO_FREE_SLOTS;
  if (wanted.minutes !== undefined) {
    const exact = slots.find((slot) => timeMatches(wanted, slot.minutes));
    if (exact) return `Tengo libre el ${readable(exact)}. ¿Te la reservo?`;
    const firstDay = slots.filter((slot) => slot.date === slots[0]!.date);
    const closest = [...firstDay].sort((a, b) => Math.abs(a.minutes - wanted.minutes!) - Math.abs(b.minutes - wanted.minutes!)).slice(0, 3);
    return `A esa hora no tengo libre. ${list(closest.sort((a, b) => a.minutes - b.minutes))}`;
  }
  if (wanted.period) {
    const inThatPeriod = slots.filter((slot) => inPeriod(slot.minutes, wanted.period!));
    if (inThatPeriod.length === 0) return `En ese horario no tengo libre. ${list(slots.slice(0, 3))}`;
    return list(inThatPeriod.slice(0, 3));
  }
  return list(slots.slice(0, 3));
}

export const chooseText = (offered: DayAndTime[]) =>
  offered.length === 1 ? `Tengo libre el ${readable(offered[0]!)}. ¿Te la reservo?` : `¿Cuál de estos horarios prefieres? ${offered.map(readable).join('; ')}.`;
export const alreadyBookedText = (booked: DayAndTime) =>
  `Tu cita ya quedó agendada para el ${readable(booked)}. Si quieres otra, dime para qué día y a qué hora.`;
export const takenText = (slots: FreeSlot[]) => `Ese horario ya no está libre. ${slots.length > 0 ? list(slots.slice(0, 3)) : NO_FREE_SLOTS}`;

const HOUR_MS = 60 * 60_000;
const REMINDER_MORNING_MINUTES = 8 * 60;
/** WhatsApp's 24-hour window runs from the customer's message, which is now: a reminder goes out before it closes. */
const WINDOW_MARGIN_MS = 23 * HOUR_MS;

/**
 * schedule_message's arguments for a reminder the customer asked for: about their appointment when the chat shows one;
 * on a later day they name ("mañana") at 08:00, inside the window; otherwise in an hour.
 */
export function reminderFor(turns: SandboxTurn[], clock: CompanyClock): { text: string; sendAt: string } {
  const asked = [...turns].reverse().find((turn) => turn.role === 'customer')?.text ?? '';
  const words = fold(asked);
  const booked = mentionsBooking(words) ? lastBooking(turns, clock) : undefined;
  const text = booked ? `Recordatorio: tienes una cita el ${readable(booked)}.` : `Recordatorio: ${asked}`;
  const day = readWhen(words, clock.today).date;
  const now = clock.now.getTime();
  const sendAt =
    day && day > clock.today ? Math.min(instantAt(day, REMINDER_MORNING_MINUTES, clock.timeZone).getTime(), now + WINDOW_MARGIN_MS) : now + HOUR_MS;
  return { text, sendAt: new Date(sendAt).toISOString() };
}

/** A reminder asked for with no way to schedule one: what the chat knows of the appointment. */
export function reminderAnswer(turns: SandboxTurn[], clock: CompanyClock): string | undefined {
  const booked = lastBooking(turns, clock);
  return booked ? `Tu cita quedó agendada para el ${readable(booked)}. ¡Te esperamos!` : undefined;
}
