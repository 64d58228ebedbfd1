import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knowledgeChunks, knowledgeFiles, tenants } from '../../../../db/schema/index.ts';
import { largeKnowledgeFile } from '../../../../test/support/knowledge-texts.ts';
import { createTestDatabase } from '../../../../test/support/test-database.ts';
import type { Database } from '../../../platform/db/database.ts';
import { AiModelError, type AiModel } from '../model/model-port.ts';
import { createSandboxAiModel } from '../model/sandbox/sandbox-gemini.ts';
import { SANDBOX_EMBEDDING_MODEL_ID, sandboxEmbedding } from '../model/sandbox/sandbox-embedding.ts';
import { KNOWLEDGE_BUDGET_CHARS } from '../assistant/conversation-context.ts';
import { createKnowledgeIndex, embeddingFailed, embedKnowledgeFile } from './knowledge-index.ts';
import { createKnowledgeSearch } from './knowledge-retrieval.ts';
import { vectorRanking, vectorScoringOf } from './vector-ranking.ts';

const log = { warn: () => {}, info: () => {} };
const sandbox = createSandboxAiModel();

/** A model whose embeddings are the sandbox's under another id (a configuration that changed model), or fail. */
function embeddingModel(id: string, failWith?: AiModelError): AiModel {
  return {
    ...sandbox,
    embed: async (request) => {
      if (failWith) throw failWith;
      return { model: id, vectors: request.texts.map(sandboxEmbedding) };
    },
  };
}

let database: Database;
let tenantId: string;
let otherTenantId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  const insertTenant = async (name: string) => {
    const [tenant] = await database.db
      .insert(tenants)
      .values({ name, slug: `${name.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}` })
      .returning();
    return tenant!.id;
  };
  tenantId = await insertTenant('Indice');
  otherTenantId = await insertTenant('Otra');
});
afterAll(() => database.close());

/** An index whose embedding jobs are kept to be run by hand. */
function indexWith(model: AiModel | null) {
  const scheduled: { tenantId: string; filePath: string }[] = [];
  const index = createKnowledgeIndex(
    { db: database.db, model, log },
    {
      enqueue: async (_executor, _definition, payload) => {
        scheduled.push(payload as { tenantId: string; filePath: string });
        return null;
      },
    },
  );
  return { index, scheduled };
}

const chunksOf = (filePath: string) =>
  database.db
    .select()
    .from(knowledgeChunks)
    .where(and(eq(knowledgeChunks.tenantId, tenantId), eq(knowledgeChunks.filePath, filePath)));
const fileRow = async (filePath: string) =>
  (
    await database.db
      .select()
      .from(knowledgeFiles)
      .where(and(eq(knowledgeFiles.tenantId, tenantId), eq(knowledgeFiles.filePath, filePath)))
  )[0]!;
const newPath = () => `/media/${tenantId}/${crypto.randomUUID()}.txt`;
const asked = (filePath: string, query: string) => ({ tenantId, filePaths: [filePath], query, maxChars: KNOWLEDGE_BUDGET_CHARS });
const mentions = (excerpts: { text: string }[], words: string) => excerpts.some((excerpt) => excerpt.text.includes(words));

describe('the knowledge index', () => {
  it('stores overlapping passages with their word features, and the vectors from the embedding job', async () => {
    const { index, scheduled } = indexWith(sandbox);
    const filePath = newPath();
    const passages = await index.indexFile({ tenantId, filePath, fileName: 'manual.txt', text: largeKnowledgeFile('Hacemos envíos a todo el país.') });
    expect(scheduled).toEqual([{ tenantId, filePath }]);
    expect(await fileRow(filePath)).toMatchObject({ state: 'indexing', passages, error: null });
    const stored = await chunksOf(filePath);
    expect(stored).toHaveLength(passages);
    expect(stored.every((chunk) => chunk.embedding === null && chunk.terms.length > 0)).toBe(true);
    expect(stored.find((chunk) => chunk.text.includes('Hacemos envíos'))!.terms).toEqual(expect.arrayContaining(['s:envi', 'p:envi', 'p:pais']));

    await embedKnowledgeFile({ db: database.db, model: sandbox, log }, { tenantId, filePath }, { attempt: 1 });
    expect(await fileRow(filePath)).toMatchObject({ state: 'indexed', error: null });
    for (const chunk of await chunksOf(filePath)) {
      expect(chunk.embeddingModel).toBe(SANDBOX_EMBEDDING_MODEL_ID);
      expect(chunk.embedding![0]).toBeCloseTo(sandboxEmbedding(chunk.text)[0]!, 5);
    }
  });

  it('without embeddings offered, indexes at once and the search is lexical', async () => {
    const { index, scheduled } = indexWith(null);
    const filePath = newPath();
    await index.indexFile({ tenantId, filePath, fileName: 'manual.txt', text: largeKnowledgeFile('Abrimos a las 7:45 de lunes a sábado.') });
    expect(scheduled).toEqual([]);
    expect(await fileRow(filePath)).toMatchObject({ state: 'indexed' });
    const search = createKnowledgeSearch({ model: null, log });
    expect(mentions(await search(database.db, asked(filePath, '¿A qué hora abren?')), 'Abrimos a las 7:45')).toBe(true);
  });

  it('compares only vectors of the current model, and re-embeds on a model change', async () => {
    const before = embeddingModel('modelo-a');
    const after = embeddingModel('modelo-b');
    const filePath = newPath();
    await indexWith(before).index.indexFile({ tenantId, filePath, fileName: 'manual.txt', text: largeKnowledgeFile('Aceptamos tarjeta de crédito.') });
    await embedKnowledgeFile({ db: database.db, model: before, log }, { tenantId, filePath }, { attempt: 1 });
    const query = { ...asked(filePath, '¿Puedo pagar con débito?'), strategy: 'vector' as const };
    expect(mentions(await createKnowledgeSearch({ model: before, log })(database.db, query), 'tarjeta de crédito')).toBe(true);
    // Model B's query vector meets no vector of model A.
    expect(await createKnowledgeSearch({ model: after, log })(database.db, query)).toEqual([]);

    // The upkeep finds the passages of another model and schedules their vectors; the job replaces them.
    const { index, scheduled } = indexWith(after);
    await index.upkeepJob.handler({}, { jobId: 'upkeep', attempt: 1 });
    expect(scheduled).toContainEqual({ tenantId, filePath });
    expect(await fileRow(filePath)).toMatchObject({ state: 'indexing' });
    await embedKnowledgeFile({ db: database.db, model: after, log }, { tenantId, filePath }, { attempt: 1 });
    expect(new Set((await chunksOf(filePath)).map((chunk) => chunk.embeddingModel))).toEqual(new Set(['modelo-b']));
    expect(await fileRow(filePath)).toMatchObject({ state: 'indexed' });
    expect(mentions(await createKnowledgeSearch({ model: after, log })(database.db, query), 'tarjeta de crédito')).toBe(true);
  });

  it('retries a provider that may recover, then leaves the file in error with the reason, still found by its words', async () => {
    const filePath = newPath();
    const failing = embeddingModel('modelo-caido', new AiModelError('unavailable', 'el proveedor no responde'));
    await indexWith(failing).index.indexFile({ tenantId, filePath, fileName: 'manual.txt', text: largeKnowledgeFile('Hacemos envíos a todo el país.') });
    const deps = { db: database.db, model: failing, log };
    await expect(embedKnowledgeFile(deps, { tenantId, filePath }, { attempt: 1 })).rejects.toThrow('el proveedor no responde');
    expect(await fileRow(filePath)).toMatchObject({ state: 'indexing' });
    await embedKnowledgeFile(deps, { tenantId, filePath }, { attempt: 5 });
    expect(await fileRow(filePath)).toMatchObject({ state: 'error', error: embeddingFailed('el proveedor no responde') });

    const refused = embeddingModel('modelo-sin-permiso', new AiModelError('rejected', 'clave inválida'));
    await embedKnowledgeFile({ ...deps, model: refused }, { tenantId, filePath }, { attempt: 1 });
    expect(await fileRow(filePath)).toMatchObject({ state: 'error', error: embeddingFailed('clave inválida') });
    expect(mentions(await createKnowledgeSearch({ model: failing, log })(database.db, asked(filePath, '¿Mandan envíos?')), 'Hacemos envíos')).toBe(true);
  });

  it('indexes again what an older index left: files whose passages have no word features', async () => {
    const filePath = newPath();
    const text = largeKnowledgeFile('La garantía cubre un año.');
    // As the migration leaves a file indexed before it: the file row rebuilt, passages without features or vectors.
    await database.db.insert(knowledgeFiles).values({ tenantId, filePath, fileName: 'viejo.txt', text, passages: 1, state: 'indexing' });
    await database.db.insert(knowledgeChunks).values({ tenantId, filePath, fileName: 'viejo.txt', position: 0, text });
    const { index, scheduled } = indexWith(null);
    await index.upkeepJob.handler({}, { jobId: 'upkeep', attempt: 1 });
    expect(scheduled).toEqual([]);
    const chunks = await chunksOf(filePath);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.every((chunk) => chunk.terms.length > 0)).toBe(true);
    expect(await fileRow(filePath)).toMatchObject({ state: 'indexed', passages: chunks.length });
  });

  it("scores vectors alike with pgvector and as arrays, and never another company's", async () => {
    const filePath = newPath();
    const { index } = indexWith(sandbox);
    await index.indexFile({ tenantId, filePath, fileName: 'manual.txt', text: largeKnowledgeFile('Los envíos tardan tres días hábiles.') });
    await embedKnowledgeFile({ db: database.db, model: sandbox, log }, { tenantId, filePath }, { attempt: 1 });
    // The other company's copy of the same path and text.
    await createKnowledgeIndex({ db: database.db, model: sandbox, log }, { enqueue: async () => null }).indexFile({
      tenantId: otherTenantId,
      filePath,
      fileName: 'manual.txt',
      text: largeKnowledgeFile('Los envíos tardan tres días hábiles.'),
    });
    await embedKnowledgeFile({ db: database.db, model: sandbox, log }, { tenantId: otherTenantId, filePath }, { attempt: 1 });

    const scope = sql`${knowledgeChunks.tenantId} = ${tenantId} and ${knowledgeChunks.filePath} = ${filePath}`;
    const query = { vector: sandboxEmbedding('¿Cuánto tarda el envío?'), modelId: SANDBOX_EMBEDDING_MODEL_ID };
    const arrays = await vectorRanking(database.db, scope, query, 10, 'arrays');
    const own = new Set((await chunksOf(filePath)).map((chunk) => chunk.id));
    expect(arrays.length).toBe(10);
    expect(arrays.every((hit) => own.has(hit.id))).toBe(true);
    const best = (await chunksOf(filePath)).find((chunk) => chunk.id === arrays[0]!.id)!;
    expect(best.text).toContain('Los envíos tardan');

    // PGlite has pgvector; the PostgreSQL these tests run on may not (then only the arrays are scored).
    if ((await vectorScoringOf(database.db)) === 'pgvector') {
      const pgvector = await vectorRanking(database.db, scope, query, 10, 'pgvector');
      expect(pgvector.map((hit) => hit.id)).toEqual(arrays.map((hit) => hit.id));
      pgvector.forEach((hit, place) => expect(hit.score).toBeCloseTo(arrays[place]!.score, 4));
    }
  });
});
