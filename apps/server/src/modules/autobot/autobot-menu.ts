import { MAX_QUICK_REPLY_BUTTONS } from '@embudo/contracts/http/autobot';
import type { AutobotMenuOption } from '../../../db/schema/index.ts';
import type { OutboundDraft } from '../chats/outbound.service.ts';

/** WhatsApp's reply-button title limit (gupshup.md §2.1, Meta's 20 characters). */
const BUTTON_TITLE_MAX = 20;
const POSTBACK_PREFIX = 'autobot:';

export const RETRY_INTRO = 'No reconocí tu respuesta. Elige una de estas opciones:';
export const HANDOFF_TEXT = 'Gracias. Una persona del equipo te atenderá en breve.';
export const confirmationText = (title: string) => `Listo, te comunicamos con ${title}. En breve te atenderemos.`;

const normalise = (value: string) =>
  value.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase().replace(/[\s.!¡?¿,;:]+/g, ' ').trim();

function fitsButtons(options: readonly AutobotMenuOption[]) {
  const titles = options.map((option) => normalise(option.title));
  return options.length <= MAX_QUICK_REPLY_BUTTONS
    && options.every((option) => option.title.length > 0 && option.title.length <= BUTTON_TITLE_MAX)
    && new Set(titles).size === titles.length;
}

/**
 * The menu: WhatsApp reply buttons when the options fit (at most 3, short distinct titles), else
 * the intro followed by a numbered list to answer with a number.
 */
export function menuDraft(intro: string, options: readonly AutobotMenuOption[], msgId: string): OutboundDraft {
  if (fitsButtons(options)) {
    return {
      type: 'interactive',
      text: intro,
      payload: { type: 'quick_reply', msgId, text: intro, options: options.map((option) => ({ title: option.title, postbackText: `${POSTBACK_PREFIX}${option.columnId}` })) },
    };
  }
  const list = options.map((option, index) => `${index + 1}. ${option.title}`).join('\n');
  return { type: 'text', text: `${intro}\n\n${list}\n\nResponde con el número de tu opción.` };
}

interface CustomerReply {
  type: string;
  text: string | null;
  payload: unknown;
}

function replyOf(payload: unknown): { title?: string; postbackText?: string } | undefined {
  if (!payload || typeof payload !== 'object' || !('reply' in payload)) return undefined;
  const reply = (payload as { reply: unknown }).reply;
  return reply && typeof reply === 'object' ? (reply as { title?: string; postbackText?: string }) : undefined;
}

/** The option the contact chose: a button's postback, the option's number, or its title (any case or accents). */
export function chosenOption(message: CustomerReply, options: readonly AutobotMenuOption[]): AutobotMenuOption | undefined {
  const reply = replyOf(message.payload);
  if (reply?.postbackText?.startsWith(POSTBACK_PREFIX)) {
    const columnId = reply.postbackText.slice(POSTBACK_PREFIX.length);
    const byPostback = options.find((option) => option.columnId === columnId);
    if (byPostback) return byPostback;
  }
  if (message.type !== 'text') return undefined;
  const answer = (reply?.title ?? message.text ?? '').trim();
  const number = /^(\d{1,2})\s*[.)]?$/.exec(answer);
  if (number) return options[Number(number[1]) - 1];
  const wanted = normalise(answer);
  return wanted ? options.find((option) => normalise(option.title) === wanted) : undefined;
}
