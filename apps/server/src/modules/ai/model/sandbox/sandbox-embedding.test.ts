import { describe, expect, it } from 'vitest';
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

  it('are what the sandbox model answers to embed, for documents and queries alike', async () => {
    const model = createSandboxAiModel();
    const answer = await model.embed!({ texts: ['horario de atención', 'precio'], purpose: 'document' });
    expect(answer.model).toBe(SANDBOX_EMBEDDING_MODEL_ID);
    expect(answer.vectors).toEqual([sandboxEmbedding('horario de atención'), sandboxEmbedding('precio')]);
    expect((await model.embed!({ texts: ['precio'], purpose: 'query' })).vectors[0]).toEqual(answer.vectors[1]);
  });
});
