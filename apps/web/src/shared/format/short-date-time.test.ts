import { describe, expect, it } from 'vitest';
import { shortDateTime } from './short-date-time.ts';

const intlShort = new Intl.DateTimeFormat('es', { dateStyle: 'short', timeStyle: 'short' });

describe('shortDateTime', () => {
  it('writes what Intl writes for Spanish short date and time', () => {
    const moments = [
      new Date(2026, 2, 5, 9, 5),
      new Date(2026, 10, 28, 20, 35),
      new Date(2026, 0, 1, 0, 0),
      new Date(2005, 11, 31, 23, 59),
      new Date(2030, 6, 10, 12, 0),
    ];
    for (let hour = 0; hour < 24; hour++) moments.push(new Date(2025, hour % 12, hour + 1, hour, (hour * 7) % 60));
    for (const moment of moments) expect(shortDateTime(moment)).toBe(intlShort.format(moment));
  });

  it('keeps single-digit days, months and hours unpadded, minutes and years on two digits', () => {
    expect(shortDateTime(new Date(2007, 3, 2, 4, 3))).toBe('2/4/07, 4:03');
  });
});
