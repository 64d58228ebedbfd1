import { describe, expect, it } from 'vitest';
import { renamedValue } from './rename-value.ts';

describe('renamedValue', () => {
  it('keeps a trimmed, changed, non-empty value', () => {
    expect(renamedValue('  Ventas 2025 ', 'Ventas')).toBe('Ventas 2025');
  });

  it.each([
    ['blank', '   '],
    ['cancelled', null],
    ['unchanged', 'Ventas'],
    ['unchanged once trimmed', '  Ventas  '],
  ])('ignores a %s value', (_case, input) => {
    expect(renamedValue(input, 'Ventas')).toBeNull();
  });
});
