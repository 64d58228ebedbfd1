import { describe, expect, it } from 'vitest';
import { byteRange } from './byte-range.ts';

describe('byteRange', () => {
  it('reads a span, an open end, and a suffix, clamped to the file', () => {
    expect(byteRange('bytes=0-3', 100)).toEqual({ start: 0, end: 3 });
    expect(byteRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(byteRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
  });

  it('sends the whole file for no header, another unit or several ranges', () => {
    expect(byteRange(undefined, 100)).toBeNull();
    expect(byteRange('items=0-3', 100)).toBeNull();
    expect(byteRange('bytes=0-3,10-20', 100)).toBeNull();
    expect(byteRange('bytes=-', 100)).toBeNull();
  });

  it('refuses a range past the end or backwards', () => {
    expect(byteRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(byteRange('bytes=5-2', 100)).toBe('unsatisfiable');
    expect(byteRange('bytes=-0', 100)).toBe('unsatisfiable');
  });
});
