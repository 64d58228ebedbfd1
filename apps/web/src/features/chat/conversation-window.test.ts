import { describe, expect, it } from 'vitest';
import { conversationWindow, conversationWindowLabel } from './conversation-window.ts';

const NOW = Date.parse('2025-03-10T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MIN = 60_000;
const HOUR = 60 * MIN;

describe('conversationWindow', () => {
  it('is closed without a contact message', () => {
    expect(conversationWindow(null, NOW)).toEqual({ state: 'closed', hours: 0, minutes: 0 });
    expect(conversationWindow(undefined, NOW).state).toBe('closed');
  });

  it('counts hours and minutes left from the contact’s last message', () => {
    expect(conversationWindow(ago(30 * MIN), NOW)).toEqual({ state: 'open', hours: 23, minutes: 30 });
    expect(conversationWindow(ago(0), NOW)).toEqual({ state: 'open', hours: 24, minutes: 0 });
  });

  it('is closing under one hour left, and open at exactly one hour', () => {
    expect(conversationWindow(ago(23 * HOUR), NOW)).toEqual({ state: 'open', hours: 1, minutes: 0 });
    expect(conversationWindow(ago(23 * HOUR + 15 * MIN), NOW)).toEqual({ state: 'closing', hours: 0, minutes: 45 });
  });

  it('is closed once 24 hours have passed', () => {
    expect(conversationWindow(ago(24 * HOUR), NOW).state).toBe('closed');
    expect(conversationWindow(ago(3 * 24 * HOUR), NOW).state).toBe('closed');
  });

  it('labels the remaining time or the closed window', () => {
    expect(conversationWindowLabel(conversationWindow(ago(2 * HOUR + 5 * MIN), NOW))).toBe('Ventana: 21h 55m restantes');
    expect(conversationWindowLabel(conversationWindow(null, NOW))).toBe('Ventana cerrada');
  });
});
