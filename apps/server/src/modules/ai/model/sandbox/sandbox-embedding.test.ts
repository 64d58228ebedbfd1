import { describe, expect, it } from 'vitest';
import { fold, isStopword } from '../../knowledge/spanish-words.ts';
import { CONCEPTS } from './concept-lexicon.ts';
import { createSandboxAiModel } from './sandbox-gemini.ts';
import { conceptsOf, cosineSimilarity, SANDBOX_EMBEDDING_DIMENSIONS, SANDBOX_EMBEDDING_MODEL_ID, sandboxEmbedding } from './sandbox-embedding.ts';

const near = (a: string, b: string) => cosineSimilarity(sandboxEmbedding(a), sandboxEmbedding(b));

describe('sandbox embeddings', () => {
  it('are unit vectors of a fixed size, the same for the same text every time', () => {
    const vector = sandboxEmbedding('Abrimos de lunes a sábado.');
    expect(vector).toHaveLength(SANDBOX_EMBEDDING_DIMENSIONS);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 10);
    expect(sandboxEmbedding('Abrimos de lunes a sábado.')).toEqual(vector);
    expect(sandboxEmbedding('¿Hola?').every((value) => value === 0)).toBe(true);
  });

  it('put verb forms, plurals and accents near each other', () => {
    expect(near('abren', 'abrimos')).toBeGreaterThan(0.5);
    expect(near('envíos', 'envio')).toBeGreaterThan(0.8);
    expect(near('abren', 'tarjeta')).toBeLessThan(0.2);
  });

  it('put words of one concept of the lexicon near each other, and apart from another concept', () => {
    expect(conceptsOf('¿Cuánto sale el despacho?')).toEqual(expect.arrayContaining(['precio', 'envio']));
    expect(near('¿Mandan a domicilio?', 'Hacemos envíos a todo el país')).toBeGreaterThan(near('¿Mandan a domicilio?', 'Aceptamos tarjeta de crédito'));
    expect(near('¿A qué hora abren mañana?', 'Abrimos a las 7:45 de lunes a sábado.')).toBeGreaterThan(
      near('¿A qué hora abren mañana?', 'El envío a domicilio cuesta 50 pesos.'),
    );
  });

  it('put the regional names of one thing near each other, and apart from other topics', () => {
    for (const [word, synonym] of [
      ['neumático', 'llanta'],
      ['caucho', 'cubierta'],
      ['celular', 'móvil'],
      ['guita', 'precio'],
      ['remera', 'playera'],
      ['parlante', 'bocina'],
      ['turno', 'cita'],
    ]) {
      expect(near(word!, synonym!), `${word} ~ ${synonym}`).toBeGreaterThan(0.4);
    }
    expect(near('neumático', 'tarjeta')).toBeLessThan(0.1);
    expect(near('celular', 'pizza')).toBeLessThan(0.1);
    expect(near('guita', 'horario')).toBeLessThan(0.1);
  });

  it('lead colloquial questions to their topic, and keep unrelated topics apart', () => {
    expect(conceptsOf('¿Cuánto aguanta?')).toContain('durabilidad');
    expect(conceptsOf('¿Me queda bien?')).toContain('talla');
    expect(near('¿Cuánto aguanta la batería?', 'Tiene una autonomía de 10 horas de uso')).toBeGreaterThan(
      near('¿Cuánto aguanta la batería?', 'Aceptamos pagos con tarjeta'),
    );
    expect(near('¿Arreglan bicis?', 'Reparamos bicicletas de todo rodado')).toBeGreaterThan(near('¿Arreglan bicis?', 'Tenemos estacionamiento gratis'));
    expect(near('¿Tienen estacionamiento?', 'Reparamos motos y autos')).toBeLessThan(0.1);
    expect(near('¿Tienen opciones sin TACC?', 'Las pizzas para celíacos se hacen aparte')).toBeGreaterThan(
      near('¿Tienen opciones sin TACC?', 'Las pizzas se envían a domicilio'),
    );
  });

  it('count a stopword only when the lexicon lists it as written, not when it merely sounds like a listed word', () => {
    expect(conceptsOf('¿Aceptan perros?')).toEqual(['mascota']);
    expect(conceptsOf('Pero hay que hacer el pedido antes')).toEqual(['pedido']);
    expect(conceptsOf('¿Dónde están?')).toEqual(['ubicacion']);
  });

  it('has a lexicon written folded, with no word that means nothing alone', () => {
    const words = Object.values(CONCEPTS).flatMap((group) => group.split(/\s+/).filter(Boolean));
    expect(words.filter((word) => word !== fold(word) || !/^[a-z]+$/.test(word))).toEqual([]);
    expect(words.filter((word) => isStopword(word) && word !== 'donde')).toEqual([]);
  });

  it('are what the sandbox model answers to embed, for documents and queries alike', async () => {
    const model = createSandboxAiModel();
    const answer = await model.embed!({ texts: ['horario de atención', 'precio'], purpose: 'document' });
    expect(answer.model).toBe(SANDBOX_EMBEDDING_MODEL_ID);
    expect(answer.vectors).toEqual([sandboxEmbedding('horario de atención'), sandboxEmbedding('precio')]);
    expect((await model.embed!({ texts: ['precio'], purpose: 'query' })).vectors[0]).toEqual(answer.vectors[1]);
  });
});
