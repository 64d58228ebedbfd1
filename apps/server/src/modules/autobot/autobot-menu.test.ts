import { describe, expect, it } from 'vitest';
import { chosenOption, menuDraft } from './autobot-menu.ts';

const options = [
  { columnId: 'c-ventas', title: 'Ventas' },
  { columnId: 'c-soporte', title: 'Soporte técnico' },
];
const text = (value: string) => ({ type: 'text', text: value, payload: null });

describe('menuDraft', () => {
  it('uses reply buttons for up to three short options, carrying each column in the postback', () => {
    const draft = menuDraft('Hola, ¿en qué te ayudamos?', options, 'menu-1');
    expect(draft).toEqual({
      type: 'interactive',
      text: 'Hola, ¿en qué te ayudamos?',
      payload: {
        type: 'quick_reply',
        msgId: 'menu-1',
        text: 'Hola, ¿en qué te ayudamos?',
        options: [
          { title: 'Ventas', postbackText: 'autobot:c-ventas' },
          { title: 'Soporte técnico', postbackText: 'autobot:c-soporte' },
        ],
      },
    });
  });

  it('falls back to a numbered list for four options or a title longer than a button allows', () => {
    const four = [...options, { columnId: 'c3', title: 'Facturas' }, { columnId: 'c4', title: 'Otros' }];
    expect(menuDraft('Hola', four, 'm')).toEqual({
      type: 'text',
      text: 'Hola\n\n1. Ventas\n2. Soporte técnico\n3. Facturas\n4. Otros\n\nResponde con el número de tu opción.',
    });
    expect(menuDraft('Hola', [{ columnId: 'c', title: 'Atención a distribuidores mayoristas' }], 'm').type).toBe('text');
  });
});

describe('chosenOption', () => {
  it('understands the option number, with or without a dot', () => {
    expect(chosenOption(text('2'), options)?.columnId).toBe('c-soporte');
    expect(chosenOption(text(' 1. '), options)?.columnId).toBe('c-ventas');
    expect(chosenOption(text('3'), options)).toBeUndefined();
    expect(chosenOption(text('0'), options)).toBeUndefined();
  });

  it('understands the option title whatever the case, accents or punctuation', () => {
    expect(chosenOption(text('soporte tecnico!'), options)?.columnId).toBe('c-soporte');
    expect(chosenOption(text('VENTAS'), options)?.columnId).toBe('c-ventas');
  });

  it('understands a button press by its postback, even if the title changed since', () => {
    const press = { type: 'text', text: 'Soporte', payload: { reply: { id: 'menu-1', title: 'Soporte', postbackText: 'autobot:c-soporte' } } };
    expect(chosenOption(press, options)?.columnId).toBe('c-soporte');
  });

  it('refuses anything else', () => {
    expect(chosenOption(text('quiero hablar con alguien'), options)).toBeUndefined();
    expect(chosenOption(text(''), options)).toBeUndefined();
    expect(chosenOption({ type: 'image', text: '1', payload: null }, options)).toBeUndefined();
  });
});
