import { describe, expect, it } from 'vitest';
import { QUICK_REPLIES_TOGETHER } from '@embudo/contracts/http/templates';
import {
  addableButtonTypes,
  addButton,
  draftErrors,
  emptyDraft,
  nameAsTyped,
  newButton,
  toRequest,
  withHeaderType,
  type DraftButton,
} from './template-draft.ts';

const x = (n: number) => 'x'.repeat(n);
const quick = (text = 'Sí'): DraftButton => ({ type: 'QUICK_REPLY', text });
const link = (text = 'Ver'): DraftButton => ({ type: 'URL', text, url: 'https://tienda.example/' });

describe('template name as typed', () => {
  it.each([
    ['Promo Verano', 'promoverano'],
    ['Pedido_Enviado-2024', 'pedido_enviado2024'],
    ['ÑANDÚ año!', 'andao'],
    ['ya_bien_123', 'ya_bien_123'],
  ])('%s becomes %s', (typed, expected) => {
    expect(nameAsTyped(typed)).toBe(expected);
  });
});

describe('header switching', () => {
  it('NONE removes the header and any other type starts a fresh one of that type', () => {
    const withText = { ...withHeaderType(emptyDraft(), 'TEXT') };
    expect(withText.header).toEqual({ type: 'TEXT', text: '' });
    const typed = { ...withText, header: { type: 'TEXT' as const, text: 'Oferta' } };
    expect(withHeaderType(typed, 'NONE').header).toBeNull();
    expect(withHeaderType(typed, 'IMAGE').header).toEqual({ type: 'IMAGE', example_handle: '' });
    const uploaded = { ...typed, header: { type: 'IMAGE' as const, example_handle: '4::abc', media_url: '/media/t/a.png' } };
    expect(withHeaderType(uploaded, 'IMAGE').header).toEqual({ type: 'IMAGE', example_handle: '' });
    expect(withHeaderType(uploaded, 'TEXT').header).toEqual({ type: 'TEXT', text: '' });
  });

  it('keeps everything else of the draft', () => {
    const draft = { ...emptyDraft(), name: 'aviso', body_text: 'Hola' };
    expect(withHeaderType(draft, 'VIDEO')).toMatchObject({ name: 'aviso', body_text: 'Hola', header: { type: 'VIDEO' } });
  });
});

describe('buttons', () => {
  it('offers every type until 3 buttons, then none', () => {
    expect(addableButtonTypes([])).toEqual(['QUICK_REPLY', 'URL', 'PHONE_NUMBER']);
    expect(addableButtonTypes([quick(), quick()])).toEqual(['QUICK_REPLY', 'URL', 'PHONE_NUMBER']);
    expect(addableButtonTypes([quick(), quick(), quick()])).toEqual([]);
  });

  it('offers no second call button and no third link button', () => {
    expect(addableButtonTypes([{ type: 'PHONE_NUMBER', text: 'Llamar', phone_number: '+521' }])).toEqual(['QUICK_REPLY', 'URL']);
    expect(addableButtonTypes([link(), link()])).toEqual(['QUICK_REPLY', 'PHONE_NUMBER']);
  });

  it("starts a URL button with this site's address", () => {
    expect(newButton('URL', 'crm.example.com:8080')).toEqual({ type: 'URL', text: '', url: 'https://crm.example.com:8080/' });
    expect(newButton('QUICK_REPLY', 'x')).toEqual({ type: 'QUICK_REPLY', text: '' });
    expect(newButton('PHONE_NUMBER', 'x')).toEqual({ type: 'PHONE_NUMBER', text: '', phone_number: '' });
  });

  it('adds each button beside its kind so quick replies stay together, and never a fourth', () => {
    let buttons = addButton([], 'QUICK_REPLY', 'h');
    buttons = addButton(buttons, 'URL', 'h');
    buttons = addButton(buttons, 'QUICK_REPLY', 'h');
    expect(buttons.map((button) => button.type)).toEqual(['QUICK_REPLY', 'QUICK_REPLY', 'URL']);
    expect(addButton(buttons, 'QUICK_REPLY', 'h')).toHaveLength(3);
    expect(addButton([link()], 'QUICK_REPLY', 'h').map((button) => button.type)).toEqual(['QUICK_REPLY', 'URL']);
    expect(draftErrors({ ...emptyDraft(), name: 'a', body_text: 'b', buttons: [quick('a'), link(), quick('b')] }).buttons).toBe(QUICK_REPLIES_TOGETHER);
  });
});

describe("client-side limits mirror the server's", () => {
  const valid = { ...emptyDraft(), name: 'aviso', body_text: 'Hola {{1}}' };
  it.each([
    [
      'header text',
      { header: { type: 'TEXT' as const, text: x(60) } },
      { header: { type: 'TEXT' as const, text: x(61) } },
      'header.text',
      'El encabezado no puede superar 60 caracteres.',
    ],
    ['body', { body_text: x(1024) }, { body_text: x(1025) }, 'body_text', 'El cuerpo del mensaje no puede superar 1024 caracteres.'],
    ['footer', { footer: x(60) }, { footer: x(61) }, 'footer', 'El pie de página no puede superar 60 caracteres.'],
    ['button text', { buttons: [quick(x(25))] }, { buttons: [quick(x(26))] }, 'buttons.0.text', 'El texto del botón no puede superar 25 caracteres.'],
    ['buttons', { buttons: [quick(), quick(), quick()] }, { buttons: [quick(), quick(), quick(), quick()] }, 'buttons', 'Máximo 3 botones.'],
  ])('%s: at the limit passes, one over fails', (_label, atLimit, overLimit, path, message) => {
    expect(draftErrors({ ...valid, ...atLimit })).toEqual({});
    expect(draftErrors({ ...valid, ...overLimit })[path]).toBe(message);
  });

  it('needs a body, a name and a sample for a media header; an empty footer is no footer', () => {
    const errors = draftErrors({ ...emptyDraft(), header: { type: 'IMAGE', example_handle: '' } });
    expect(Object.keys(errors).sort()).toEqual(['body_text', 'header.example_handle', 'name']);
    expect(toRequest({ ...valid, footer: '  ' }).footer).toBeNull();
  });
});
