import { describe, expect, it } from 'vitest';
import { chunkText, isHeading, searchableText } from './chunking.ts';
import { excerptsWithinBudget, fuseRankings } from './knowledge-retrieval.ts';
import { contentWords, featureCounts, fold, soundOf, stem } from './spanish-words.ts';

describe('reading Spanish words', () => {
  it('folds case, accents and ñ', () => {
    expect(fold('Envío en AÑO Nuevo, ¿cuánto?')).toBe('envio en ano nuevo, ¿cuanto?');
  });

  it('gives verb forms, plurals and near words one stem', () => {
    expect(['abren', 'abrimos', 'abrir', 'abre'].map(stem)).toEqual(['abr', 'abr', 'abr', 'abr']);
    expect(['hora', 'horas'].map(stem)).toEqual(['hor', 'hor']);
    expect(['horario', 'horarios'].map(stem)).toEqual(['horari', 'horari']);
    expect(['envio', 'envios', 'enviamos', 'enviar'].map(stem)).toEqual(['envi', 'envi', 'envi', 'envi']);
    expect(['devolucion', 'devoluciones'].map(stem)).toEqual(['devolu', 'devolu']);
    // Short words and numbers stay as they are.
    expect(['mes', 'sol', '745', '2x1'].map(stem)).toEqual(['mes', 'sol', '745', '2x1']);
  });

  it('spells a word as it sounds, so WhatsApp spelling meets the written word', () => {
    const pairs = [
      ['sierran', 'cierran'],
      ['kuesta', 'cuesta'],
      ['bale', 'vale'],
      ['yantas', 'llantas'],
      ['aseptan', 'aceptan'],
      ['recojer', 'recoger'],
      ['ora', 'hora'],
    ];
    for (const [written, meant] of pairs) expect(soundOf(written!)).toBe(soundOf(meant!));
    expect(soundOf('guerra')).toBe('gera');
    expect(soundOf('chico')).toBe('chiko');
    expect(featureCounts('kuesta').has(`f:${stem(soundOf('cuesta'))}`)).toBe(true);
  });

  it('drops the words every question holds and keeps the ones that say what is asked', () => {
    expect(contentWords('¿A qué hora abren mañana?')).toEqual(['hora', 'abren', 'manana']);
  });

  it('matches "hora" and "horario" by their first four letters, at half the weight of a stem', () => {
    const asked = featureCounts('hora');
    const passage = featureCounts('Nuestro horario');
    expect([...asked.keys()].filter((feature) => passage.has(feature))).toEqual(['p:hora']);
    expect(featureCounts('abren abrimos').get('s:abr')).toBe(2);
  });
});

describe('cutting a file into passages', () => {
  const sentences = Array.from({ length: 40 }, (_, index) => `La frase número ${index} dice algo distinto.`);

  it('keeps every passage within the size, cut at sentence ends', () => {
    const chunks = chunkText(sentences.join(' '), 200, 60);
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(200);
      expect(chunk).toMatch(/^La frase número \d+ dice algo distinto\./);
      expect(chunk).toMatch(/distinto\.$/);
    }
  });

  it('starts each passage with the end of the one before, so a fact on the border is whole in one of them', () => {
    const chunks = chunkText(sentences.join('\n'), 200, 60);
    for (let index = 1; index < chunks.length; index++) {
      const previousLines = chunks[index - 1]!.split('\n');
      expect(chunks[index]!.startsWith(previousLines.at(-1)!)).toBe(true);
    }
    // Every sentence is in some passage.
    for (const sentence of sentences) expect(chunks.some((chunk) => chunk.includes(sentence))).toBe(true);
  });

  it('cuts a sentence longer than a passage at word boundaries, and overlaps its tail', () => {
    const long = Array.from({ length: 120 }, (_, index) => `palabra${index}`).join(' ');
    const chunks = chunkText(long, 300, 50);
    expect(chunks.every((chunk) => chunk.length <= 300)).toBe(true);
    expect(chunks.join(' ')).toContain('palabra119');
    const firstEnd = chunks[0]!.split(' ').at(-1)!;
    expect(chunks[1]!.split('\n')[0]).toContain(firstEnd);
  });

  it("starts a passage inside a section with the section's heading", () => {
    expect(['## Envíos', 'TALLER Y SERVICIO', 'Hoja Precios:'].every(isHeading)).toBe(true);
    expect(['Abrimos a las 9.', 'Sábados 10:00 a 19:00', '- Café'].some(isHeading)).toBe(false);
    const lines = Array.from({ length: 20 }, (_, index) => `Servicio ${index}: ajuste con revisión completa.`);
    const chunks = chunkText(['TALLER', ...lines, 'CAFÉ', 'Espresso doble: 42 pesos.'].join('\n'), 200, 40);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks.slice(1, -1)) expect(chunk.startsWith('TALLER\n')).toBe(true);
    expect(chunks.at(-1)).toContain('CAFÉ\nEspresso doble');
    expect(searchableText('politica-de-envios.md', 'Texto')).toBe('politica de envios\nTexto');
  });

  it('leaves a short text in one passage', () => {
    expect(chunkText('Abrimos a las 9.\nCerramos a las 18.')).toEqual(['Abrimos a las 9.\nCerramos a las 18.']);
  });
});

describe('fusing the two rankings', () => {
  it('puts first what both halves rank high, and keeps what only one found', () => {
    expect(
      fuseRankings([
        ['a', 'b', 'c'],
        ['b', 'd', 'a'],
      ]),
    ).toEqual(['b', 'a', 'd', 'c']);
    expect(fuseRankings([['x', 'y'], []])).toEqual(['x', 'y']);
    expect(fuseRankings([[], []])).toEqual([]);
  });
});

describe('excerpts within the budget', () => {
  const passage = (id: string, position: number, text: string, filePath = '/f') => ({ id, filePath, fileName: 'f.txt', position, text });

  it('takes passages in rank order while they fit, passing over one that does not', () => {
    const ranked = [passage('a', 5, 'x'.repeat(60)), passage('b', 9, 'y'.repeat(50)), passage('c', 1, 'z'.repeat(30))];
    expect(excerptsWithinBudget(ranked, 100).map((excerpt) => excerpt.text)).toEqual(['x'.repeat(60), 'z'.repeat(30)]);
  });

  it('joins neighbouring passages of a file once, without their shared lines twice', () => {
    const chunks = chunkText(Array.from({ length: 12 }, (_, index) => `Línea ${index} del archivo.`).join('\n'), 100, 40);
    const ranked = [passage('second', 1, chunks[1]!), passage('first', 0, chunks[0]!)];
    const [joined, ...rest] = excerptsWithinBudget(ranked, 1_000);
    expect(rest).toEqual([]);
    expect(joined!.text).toBe(Array.from({ length: joined!.text.split('\n').length }, (_, index) => `Línea ${index} del archivo.`).join('\n'));
  });
});
