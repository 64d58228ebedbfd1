import { describe, expect, it } from 'vitest';
import { forcedPasswordProblem } from './forced-password-problem.ts';

describe('forcedPasswordProblem', () => {
  it.each([
    ['', '', 'La contraseña debe tener al menos 8 caracteres.'],
    ['Ab1', 'Ab1', 'La contraseña debe tener al menos 8 caracteres.'],
    ['abcdefg1', 'abcdefg1', 'Debe contener al menos una mayúscula.'],
    ['ABCDEFG1', 'ABCDEFG1', 'Debe contener al menos una minúscula.'],
    ['Abcdefgh', 'Abcdefgh', 'Debe contener al menos un número.'],
    ['Abcdefg1', 'Abcdefg2', 'Las contraseñas no coinciden.'],
    // Every rule broken at once still reports the first in order.
    ['a', 'b', 'La contraseña debe tener al menos 8 caracteres.'],
  ])('%j / %j → %s', (password, confirmation, message) => {
    expect(forcedPasswordProblem(password, confirmation)).toBe(message);
  });

  it('accepts a strong password confirmed exactly', () => {
    expect(forcedPasswordProblem('Secreto123', 'Secreto123')).toBeNull();
  });
});
