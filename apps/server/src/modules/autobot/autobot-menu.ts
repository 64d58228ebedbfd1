import type { AutobotMenuOption } from '../../../db/schema/index.ts';
import { chosenReply, pressedReply, replyChoicesDraft, type OutboundDraft, type ReplyChoice } from '../chats/index.ts';

const POSTBACK_PREFIX = 'autobot:';

export const RETRY_INTRO = 'No reconocí tu respuesta. Elige una de estas opciones:';
export const HANDOFF_TEXT = 'Gracias. Una persona del equipo te atenderá en breve.';
export const confirmationText = (title: string) => `Listo, te comunicamos con ${title}. En breve te atenderemos.`;

const choicesOf = (options: readonly AutobotMenuOption[]): ReplyChoice<AutobotMenuOption>[] =>
  options.map((option) => ({ item: option, title: option.title, postbackText: `${POSTBACK_PREFIX}${option.columnId}` }));

/**
 * The menu: WhatsApp reply buttons when the options fit (at most 3, short distinct titles), else
 * the intro followed by a numbered list to answer with a number.
 */
export function menuDraft(intro: string, options: readonly AutobotMenuOption[], msgId: string): OutboundDraft {
  return replyChoicesDraft(intro, choicesOf(options), msgId);
}

interface CustomerReply {
  type: string;
  text: string | null;
  payload: unknown;
}

/** The option the contact chose: a button's postback, the option's number, or its title (any case or accents). */
export function chosenOption(message: CustomerReply, options: readonly AutobotMenuOption[]): AutobotMenuOption | undefined {
  const reply = pressedReply(message.payload);
  const choices = choicesOf(options);
  const pressed = reply?.postbackText ? chosenReply({ text: '', postback: reply.postbackText }, choices) : undefined;
  if (pressed) return pressed;
  if (message.type !== 'text') return undefined;
  return chosenReply({ text: reply?.title ?? message.text ?? '' }, choices);
}
