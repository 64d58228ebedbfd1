import type { KeyboardEvent } from 'react';

/** Enter sends, Shift+Enter breaks the line; an IME still composing a character keeps its Enter. */
export function isSubmitEnter(event: KeyboardEvent<HTMLTextAreaElement>): boolean {
  return event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing;
}
