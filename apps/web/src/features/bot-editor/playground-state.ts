import type { SimulateResponse } from '@embudo/contracts/http/bots';

/** Spec 02 §3 Playground message: sender (user or bot) and text. */
export interface PlaygroundMessage {
  sender: 'user' | 'bot';
  text: string;
}

export interface PlaygroundState {
  messages: PlaygroundMessage[];
  sessionId: string | null;
  waiting: boolean;
  /** Choices the bot waits on, offered as buttons. */
  options: SimulateResponse['options'];
}

export type PlaygroundAction =
  { type: 'sent'; text: string } | { type: 'replied'; answer: SimulateResponse } | { type: 'failed'; error: unknown } | { type: 'reset' };

export const UNKNOWN_PLAYGROUND_ERROR = 'An unknown error occurred.';
export const initialPlayground: PlaygroundState = { messages: [], sessionId: null, waiting: false, options: [] };

/** An empty or whitespace-only message is not sent, nor anything while a reply is awaited. */
export const canSend = (state: PlaygroundState, text: string) => !state.waiting && text.trim() !== '';

/** Errors show as a bot message prefixed [ERROR] (spec 02 §8 Playground). */
export function errorText(error: unknown): string {
  return error instanceof Error && error.message ? `[ERROR] ${error.message}` : UNKNOWN_PLAYGROUND_ERROR;
}

export function playgroundReducer(state: PlaygroundState, action: PlaygroundAction): PlaygroundState {
  switch (action.type) {
    case 'sent':
      return { ...state, messages: [...state.messages, { sender: 'user', text: action.text }], waiting: true, options: [] };
    case 'replied':
      // One bubble per message or note, in the order the flow produced them; the first reply brings the session id later messages reuse.
      return {
        ...state,
        messages: [...state.messages, ...action.answer.replies.map((text) => ({ sender: 'bot' as const, text }))],
        sessionId: action.answer.sessionId,
        waiting: false,
        options: action.answer.options,
      };
    case 'failed':
      return { ...state, messages: [...state.messages, { sender: 'bot', text: errorText(action.error) }], waiting: false };
    case 'reset':
      return initialPlayground;
  }
}
