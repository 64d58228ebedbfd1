import { describe, expect, it } from 'vitest';
import { slugFromCompanyName } from './slug-from-company-name.ts';

describe('slugFromCompanyName', () => {
  it.each([
    ['Acme', 'acme'],
    ['Ferretería Núñez', 'ferreteria-nunez'],
    ['Ferretería Núñez 3fa9c1', 'ferreteria-nunez-3fa9c1'],
    ['  Café & Té  ', 'cafe-te'],
    ['Mi   Empresa', 'mi-empresa'],
    ['Hola---Mundo', 'hola-mundo'],
    ['--Ya_Tiene.Guiones--', 'ya-tiene-guiones'],
    ['ÁÉÍÓÚ Üñ Ç', 'aeiou-un-c'],
    ['Tienda #1 (Centro)', 'tienda-1-centro'],
    ['!!!', ''],
    ['', ''],
    [`${'a'.repeat(99)} bcd`, 'a'.repeat(99)],
  ])('%j → %j', (name, slug) => {
    expect(slugFromCompanyName(name)).toBe(slug);
  });
});
