import { MAX_QUICK_REPLY_BUTTONS } from '@embudo/contracts/http/autobot';
import type { OutboundDraft } from './outbound.service.ts';

/**
 * Offering the customer a choice on WhatsApp and reading their answer, for the menu auto-bot and
 * Bots Studio flows alike: reply buttons when they fit, else a numbered list.
 */
export interface ReplyChoice<T> {
  item: T;
  title: string;
  /** What a pressed button sends back, naming the choice exactly. */
  postbackText: string;
  /** Other words that name the choice when typed (a value, an id). */
  aliases?: readonly string[];
}

/** WhatsApp's reply-button title limit (gupshup.md §2.1, Meta's 20 characters). */
const BUTTON_TITLE_MAX = 20;

export const normaliseChoiceText = (value: string) =>
  value
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[\s.!¡?¿,;:]+/g, ' ')
    .trim();

function fitsButtons(choices: readonly ReplyChoice<unknown>[]) {
  const titles = choices.map((choice) => normaliseChoiceText(choice.title));
  return (
    choices.length <= MAX_QUICK_REPLY_BUTTONS &&
    choices.every((choice) => choice.title.length > 0 && choice.title.length <= BUTTON_TITLE_MAX) &&
    new Set(titles).size === titles.length
  );
}

/** Reply buttons when the choices fit (at most 3, short distinct titles), else the intro and a numbered list. */
export function replyChoicesDraft(intro: string, choices: readonly ReplyChoice<unknown>[], msgId: string): OutboundDraft {
  if (fitsButtons(choices)) {
    return {
      type: 'interactive',
      text: intro,
      payload: { type: 'quick_reply', msgId, text: intro, options: choices.map((choice) => ({ title: choice.title, postbackText: choice.postbackText })) },
    };
  }
  const list = choices.map((choice, index) => `${index + 1}. ${choice.title}`).join('\n');
  return { type: 'text', text: `${intro}\n\n${list}\n\nResponde con el número de tu opción.` };
}

/** The choice answered: a button's postback, the choice's number, or its title or an alias (any case or accents). */
export function chosenReply<T>(answer: { text: string; postback?: string }, choices: readonly ReplyChoice<T>[]): T | undefined {
  if (answer.postback) {
    const pressed = choices.find((choice) => choice.postbackText === answer.postback);
    if (pressed) return pressed.item;
  }
  const text = answer.text.trim();
  const number = /^(\d{1,2})\s*[.)]?$/.exec(text);
  if (number) return choices[Number(number[1]) - 1]?.item;
  const wanted = normaliseChoiceText(text);
  if (!wanted) return undefined;
  return choices.find((choice) => [choice.title, ...(choice.aliases ?? [])].some((name) => name && normaliseChoiceText(name) === wanted))?.item;
}

/** The button a customer pressed, as the inbound path stores it ({ reply: { title, postbackText } }). */
export function pressedReply(payload: unknown): { title?: string; postbackText?: string } | undefined {
  if (!payload || typeof payload !== 'object' || !('reply' in payload)) return undefined;
  const reply = (payload as { reply: unknown }).reply;
  return reply && typeof reply === 'object' ? (reply as { title?: string; postbackText?: string }) : undefined;
}
