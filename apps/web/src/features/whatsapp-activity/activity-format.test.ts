import { describe, expect, it } from 'vitest';
import { dailyLimitLabel, groupedNumber, numberEventLabel, qualityLabel, timeAgo } from './activity-format.ts';

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

describe("the number's health", () => {
  it('names the quality as the panel says it', () => {
    expect([qualityLabel('GREEN'), qualityLabel('YELLOW'), qualityLabel('RED'), qualityLabel('UNKNOWN'), qualityLabel(null)]).toEqual([
      'Alta',
      'Media',
      'Baja',
      'Desconocida',
      'Desconocida',
    ]);
  });

  it.each([
    [250, true, '250 conversaciones'],
    [1000, true, '1.000 conversaciones'],
    [100000, true, '100.000 conversaciones'],
    [null, true, 'sin límite'],
    [null, false, 'sin datos'],
  ] as const)('daily limit %s (reported: %s) → %s', (limit, reported, expected) => {
    expect(dailyLimitLabel(limit, reported)).toBe(expected);
  });

  it('groups thousands with a dot', () => {
    expect([groupedNumber(999), groupedNumber(1000), groupedNumber(1234567)]).toEqual(['999', '1.000', '1.234.567']);
  });

  it('says what Meta did and when, and names an event it has no words for as it came', () => {
    expect(numberEventLabel('FLAGGED', '2026-12-02T15:00:00Z')).toBe('Meta marcó el número (FLAGGED) el 2/12/26');
    expect(numberEventLabel('UPGRADE', '2027-01-09T15:00:00Z')).toBe('Meta subió el límite del número (UPGRADE) el 9/1/27');
    expect(numberEventLabel('ONBOARDING', null)).toBe('Aviso de Meta sobre el número: ONBOARDING');
  });
});
