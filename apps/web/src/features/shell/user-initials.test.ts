import { describe, expect, it } from 'vitest';
import { userInitials } from './user-initials.ts';

describe('userInitials', () => {
  it.each([
    ['Ana María', 'AM'],
    ['Demo', 'DE'],
    ['ana maría lópez', 'AM'],
    ['  Marta   Núñez  ', 'MN'],
    ['Óscar', 'ÓS'],
    ['J', 'J'],
    ['ñandú veloz', 'ÑV'],
    ['', '?'],
  ])('%j → %j', (name, initials) => {
    expect(userInitials(name)).toBe(initials);
  });
});
