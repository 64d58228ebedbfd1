import { CONVERSATION_WINDOW_MS, EMPTY_MESSAGE, SCHEDULE_IN_PAST, SCHEDULE_NEEDS_TEMPLATE } from '@embudo/contracts/http/chats';

export interface ScheduleDraft {
  scheduledFor: Date | null;
  mode: 'text' | 'template';
  text: string;
  templateId: string;
}

/** True when the send time falls after the 24-hour window (or there is no contact message at all). */
export function scheduledOutsideWindow(scheduledFor: Date, contactLastMessageAt: string | null | undefined) {
  if (!contactLastMessageAt) return true;
  return scheduledFor.getTime() > new Date(contactLastMessageAt).getTime() + CONVERSATION_WINDOW_MS;
}

/** Spec 01 §5 Schedule, in its order: future time, template outside the window, non-empty text inside it. */
export function scheduleProblem(draft: ScheduleDraft, contactLastMessageAt: string | null | undefined, now = Date.now()): string | null {
  if (!draft.scheduledFor || Number.isNaN(draft.scheduledFor.getTime()) || draft.scheduledFor.getTime() <= now) return SCHEDULE_IN_PAST;
  const usesTemplate = draft.mode === 'template' && draft.templateId !== '';
  if (scheduledOutsideWindow(draft.scheduledFor, contactLastMessageAt) && !usesTemplate) return SCHEDULE_NEEDS_TEMPLATE;
  if (draft.mode === 'text' && draft.text.trim() === '') return EMPTY_MESSAGE;
  if (draft.mode === 'template' && !usesTemplate) return SCHEDULE_NEEDS_TEMPLATE;
  return null;
}
