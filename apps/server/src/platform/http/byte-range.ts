/**
 * One `Range: bytes=…` request over a file of `size` bytes (RFC 9110 §14.1.2).
 * Browsers ask media for ranges to seek; without them Chromium cannot read an ogg's last
 * page and shows a voice note's length as 0:00.
 * Answers the inclusive byte span, 'unsatisfiable' (416), or null to send the whole file
 * (no header, another unit, or several ranges, which we do not serve).
 */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    // A suffix: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
