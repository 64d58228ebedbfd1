import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PasswordRulesList } from './PasswordRulesList.tsx';

function metRules() {
  return screen
    .getAllByRole('listitem')
    .filter((item) => item.getAttribute('data-met') === 'true')
    .map((item) => item.getAttribute('data-rule'));
}

describe('PasswordRulesList', () => {
  it('lists the four rules of the contract', () => {
    render(<PasswordRulesList password="" />);
    for (const label of ['Al menos 8 caracteres', 'Una letra mayúscula', 'Una letra minúscula', 'Un número']) {
      expect(screen.getByText(label)).toBeTruthy();
    }
    expect(metRules()).toEqual([]);
  });

  it.each([
    ['abc', ['lower']],
    ['ABC', ['upper']],
    ['12345678', ['length', 'digit']],
    ['abcdefgh', ['length', 'lower']],
    ['Abcdefg1', ['length', 'upper', 'lower', 'digit']],
  ])('marks the rules met by %j', (password, met) => {
    render(<PasswordRulesList password={password} />);
    expect(metRules()).toEqual(met);
  });
});
