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

  it('is not named after the password, so a label lookup of "Contraseña" finds only the field', () => {
    // Browser tests find fields by a label substring (Playwright's getByLabel): the list must not answer too.
    render(
      <>
        <label htmlFor="password">Contraseña</label>
        <input id="password" type="password" />
        <PasswordRulesList password="" />
      </>,
    );
    expect(screen.getAllByLabelText(/contraseña/i)).toHaveLength(1);
    expect(screen.getByRole('list', { name: 'Requisitos de seguridad' })).toBeTruthy();
  });
});
