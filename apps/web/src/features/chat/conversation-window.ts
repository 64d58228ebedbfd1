import { CONVERSATION_WINDOW_MS } from '@embudo/contracts/http/chats';

const HOUR_MS = 60 * 60 * 1000;

export type ConversationWindowState = 'open' | 'closing' | 'closed';

export interface ConversationWindow {
  state: ConversationWindowState;
  /** Whole hours and minutes left, both 0 when closed. */
  hours: number;
  minutes: number;
}

/**
 * Spec 01 §4: open until 24 hours after the contact's last message, closed when there is none;
 * "closing" when under one hour remains.
 */
export function conversationWindow(contactLastMessageAt: string | null | undefined, now = Date.now()): ConversationWindow {
  const start = contactLastMessageAt ? new Date(contactLastMessageAt).getTime() : Number.NaN;
  const remaining = Number.isNaN(start) ? 0 : start + CONVERSATION_WINDOW_MS - now;
  if (remaining <= 0) return { state: 'closed', hours: 0, minutes: 0 };
  const totalMinutes = Math.floor(remaining / 60_000);
  return {
    state: remaining < HOUR_MS ? 'closing' : 'open',
    hours: Math.floor(totalMinutes / 60),
    minutes: totalMinutes % 60,
  };
}

export function conversationWindowLabel(window: ConversationWindow): string {
  return window.state === 'closed' ? 'Ventana cerrada' : `Ventana: ${window.hours}h ${window.minutes}m restantes`;
}
