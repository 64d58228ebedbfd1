import { EMPTY_MESSAGE, SCHEDULE_IN_PAST, SCHEDULE_NEEDS_TEMPLATE } from '@embudo/contracts/http/chats';
import { describe, expect, it } from 'vitest';
import { scheduleProblem } from './schedule-rules.ts';

const NOW = Date.parse('2025-03-10T12:00:00Z');
const at = (offsetMs: number) => new Date(NOW + offsetMs);
const HOUR = 3_600_000;
const lastContact = new Date(NOW - 2 * HOUR).toISOString();

describe('scheduleProblem', () => {
  it('needs a future time', () => {
    expect(scheduleProblem({ scheduledFor: at(-1000), mode: 'text', text: 'hola', templateId: '' }, lastContact, NOW)).toBe(SCHEDULE_IN_PAST);
    expect(scheduleProblem({ scheduledFor: null, mode: 'text', text: 'hola', templateId: '' }, lastContact, NOW)).toBe(SCHEDULE_IN_PAST);
  });

  it('needs a template after the window closes', () => {
    expect(scheduleProblem({ scheduledFor: at(23 * HOUR), mode: 'text', text: 'hola', templateId: '' }, lastContact, NOW)).toBe(SCHEDULE_NEEDS_TEMPLATE);
    expect(scheduleProblem({ scheduledFor: at(23 * HOUR), mode: 'template', text: '', templateId: 't1' }, lastContact, NOW)).toBeNull();
  });

  it('needs text inside the window', () => {
    expect(scheduleProblem({ scheduledFor: at(HOUR), mode: 'text', text: '   ', templateId: '' }, lastContact, NOW)).toBe(EMPTY_MESSAGE);
    expect(scheduleProblem({ scheduledFor: at(HOUR), mode: 'text', text: 'hola', templateId: '' }, lastContact, NOW)).toBeNull();
  });
});
