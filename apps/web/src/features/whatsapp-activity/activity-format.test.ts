import { describe, expect, it } from 'vitest';
import { timeAgo } from './activity-format.ts';

describe('timeAgo', () => {
  const now = Date.parse('2031-05-01T12:00:00Z');
  it.each([
    [null, 'Nunca'],
    ['2031-05-01T11:59:30Z', 'hace menos de un minuto'],
    ['2031-05-01T11:55:00Z', 'hace 5 min'],
    ['2031-05-01T09:00:00Z', 'hace 3 h'],
    ['2031-04-30T11:00:00Z', 'hace 1 día'],
    ['2031-04-26T12:00:00Z', 'hace 5 días'],
  ])('%s → %s', (iso, expected) => {
    expect(timeAgo(iso, now)).toBe(expected);
  });
});
