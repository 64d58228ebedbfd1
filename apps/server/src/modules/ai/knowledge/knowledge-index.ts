import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { knowledgeChunks, knowledgeFiles } from '../../../../db/schema/index.ts';
import type { Db, DbExecutor } from '../../../platform/db/database.ts';
import type { Logger } from '../../../platform/logger/logger.ts';
import type { MediaStorage } from '../../../platform/storage/media-storage.ts';
import type { JobQueue } from '../../../platform/queue/job-queue.ts';
import { defineJob, type JobContext } from '../../../platform/queue/job-definition.ts';
import { AiModelError, type AiModel } from '../model/model-port.ts';
import { chunkText, searchableText } from './chunking.ts';
import { featureCounts } from './spanish-words.ts';
import { unitVector } from './vector-ranking.ts';

/** Passages sent to the embedding model in one call, and written in one transaction. */
export const EMBED_BATCH = 32;
/** How long the knowledge upkeep waits between its runs; it also runs when the app starts. */
export const KNOWLEDGE_UPKEEP_EVERY_MS = 6 * 60 * 60_000;
const EMBED_MAX_ATTEMPTS = 5;

export const embeddingFailed = (reason: string) =>
  `No se pudieron calcular los vectores del archivo (${reason}). El asistente lo sigue encontrando por sus palabras.`;

/** Failures that may pass: the job tries again before the file shows the error. */
const TRANSIENT = new Set<AiModelError['kind']>(['quota', 'timeout', 'unavailable']);

export interface KnowledgeFileState {
  filePath: string;
  fileName: string;
  state: 'indexing' | 'indexed' | 'error';
  passages: number;
  error?: string;
}

export interface KnowledgeIndexDeps {
  db: Db;
  model: AiModel | null;
  log: Pick<Logger, 'warn' | 'info'>;
  /** Where the files are kept: the upkeep makes files stored before the members-only area members-only. */
  storage?: Pick<MediaStorage, 'restrict'>;
}

const filePayload = z.object({ tenantId: z.uuid(), filePath: z.string().min(1) });

/** The distinct word features of a passage: what the lexical half's index (`terms && …`) looks up. */
const termsOf = (fileName: string, text: string) => [...featureCounts(searchableText(fileName, text)).keys()];

/**
 * Learns which embedding model answers (its id names the vectors), once per process: a one-word call. A model change
 * (a new configuration) is a new process, so the id is learnt again and the upkeep re-embeds what another model made.
 */
export function embeddingModelId(model: AiModel): Promise<string> {
  const known = learntModelIds.get(model);
  if (known) return known;
  const learning = model.embed!({ texts: ['horario'], purpose: 'query' }).then((answer) => answer.model);
  learntModelIds.set(model, learning);
  learning.catch(() => learntModelIds.delete(model));
  return learning;
}
const learntModelIds = new WeakMap<AiModel, Promise<string>>();

/** Passages without a vector of this model (none yet, or another model's). */
const notEmbeddedBy = (modelId: string): SQL => sql`${knowledgeChunks.embeddingModel} is distinct from ${modelId}`;

/**
 * The knowledge index of the column assistants' files (docs/decisions/0030). A file is cut into overlapping passages
 * with their word features at once, inside the upload, so the lexical half finds it as soon as the upload answers;
 * the vectors come from the embedding job, which may wait on a slow provider, and the file shows `indexing` meanwhile.
 */
export function createKnowledgeIndex(deps: KnowledgeIndexDeps, queue: Pick<JobQueue, 'enqueue'>) {
  const embedJob = defineJob({
    name: 'ai.embed-knowledge-file',
    payload: filePayload,
    maxAttempts: EMBED_MAX_ATTEMPTS,
    backoff: { baseMs: 10_000, maxMs: 10 * 60_000 },
    leaseMs: 5 * 60_000,
    handler: (file, ctx) => embedKnowledgeFile(deps, file, ctx),
  });

  const scheduleEmbedding = (executor: DbExecutor, file: z.output<typeof filePayload>) =>
    queue.enqueue(executor, embedJob, file, { singletonKey: `knowledge-embed:${file.tenantId}:${file.filePath}` });

  /** Indexes an uploaded tool file's text (replacing what the same path had); answers how many passages it holds. */
  async function indexFile(file: { tenantId: string; filePath: string; fileName: string; text: string }): Promise<number> {
    const embeds = deps.model?.embed !== undefined;
    const passages = await writePassages(deps.db, file, embeds ? 'indexing' : 'indexed', async (tx) => {
      if (embeds) await scheduleEmbedding(tx, { tenantId: file.tenantId, filePath: file.filePath });
    });
    return passages;
  }

  const upkeepJob = defineJob({
    name: 'ai.knowledge-upkeep',
    payload: z.object({}),
    maxAttempts: 3,
    handler: () => upkeep(),
  });

  /**
   * Makes older public knowledge files members-only, indexes again what an older version of the index left (files
   * without word features), and schedules the vectors of every file whose passages lack the current embedding
   * model's (a new file the job has not reached, a model changed since); with no embeddings offered, files waiting
   * for vectors are indexed as they are.
   */
  async function upkeep() {
    if (deps.storage) {
      const restricted = await restrictKnowledgeFiles(deps.db, deps.storage);
      if (restricted > 0) deps.log.info({ files: restricted }, 'knowledge files made members-only');
    }
    const stale = await deps.db
      .selectDistinct({ tenantId: knowledgeChunks.tenantId, filePath: knowledgeChunks.filePath })
      .from(knowledgeChunks)
      .where(sql`cardinality(${knowledgeChunks.terms}) = 0`);
    for (const file of stale) {
      const [row] = await deps.db
        .select()
        .from(knowledgeFiles)
        .where(and(eq(knowledgeFiles.tenantId, file.tenantId), eq(knowledgeFiles.filePath, file.filePath)));
      if (row) await indexFile(row);
    }
    if (!deps.model?.embed) {
      await deps.db
        .update(knowledgeFiles)
        .set({ state: 'indexed', updatedAt: sql`now()` })
        .where(eq(knowledgeFiles.state, 'indexing'));
      return;
    }
    const current = await embeddingModelId(deps.model);
    const outdated = await deps.db
      .selectDistinct({ tenantId: knowledgeChunks.tenantId, filePath: knowledgeChunks.filePath })
      .from(knowledgeChunks)
      .where(notEmbeddedBy(current));
    for (const file of outdated) {
      await deps.db.transaction(async (tx) => {
        await tx
          .update(knowledgeFiles)
          .set({ state: 'indexing', error: null, updatedAt: sql`now()` })
          .where(and(eq(knowledgeFiles.tenantId, file.tenantId), eq(knowledgeFiles.filePath, file.filePath)));
        await scheduleEmbedding(tx, file);
      });
    }
    if (outdated.length > 0) deps.log.info({ files: outdated.length, embeddingModel: current }, 'knowledge files scheduled for new vectors');
  }

  return { indexFile, embedJob, upkeepJob, fileStates: (tenantId: string, filePaths: string[]) => fileStates(deps.db, tenantId, filePaths) };
}

export type KnowledgeIndex = ReturnType<typeof createKnowledgeIndex>;

/** Replaces a file's passages and its row in one transaction; `then` runs inside it (the embedding job's enqueue). */
async function writePassages(
  db: Db,
  file: { tenantId: string; filePath: string; fileName: string; text: string },
  state: 'indexing' | 'indexed',
  then: (tx: DbExecutor) => Promise<void>,
): Promise<number> {
  const chunks = chunkText(file.text);
  await db.transaction(async (tx) => {
    const ofFile = and(eq(knowledgeChunks.tenantId, file.tenantId), eq(knowledgeChunks.filePath, file.filePath));
    await tx.delete(knowledgeChunks).where(ofFile);
    // Inserted in slices: one statement's parameters stay well under PostgreSQL's limit for a long file.
    for (let start = 0; start < chunks.length; start += 200) {
      await tx.insert(knowledgeChunks).values(
        chunks.slice(start, start + 200).map((text, offset) => ({
          tenantId: file.tenantId,
          filePath: file.filePath,
          fileName: file.fileName,
          position: start + offset,
          text,
          terms: termsOf(file.fileName, text),
        })),
      );
    }
    const row = { fileName: file.fileName, text: file.text, passages: chunks.length, state, error: null, updatedAt: sql`now()` };
    await tx
      .insert(knowledgeFiles)
      .values({ tenantId: file.tenantId, filePath: file.filePath, ...row })
      .onConflictDoUpdate({ target: [knowledgeFiles.tenantId, knowledgeFiles.filePath], set: row });
    await then(tx);
  });
  return chunks.length;
}

/**
 * The embedding job: vectors for every passage of the file that has none from the current model, a batch at a time,
 * then the file is indexed. A provider that keeps failing leaves the file in error with the reason; its passages are
 * still found by their words.
 */
export async function embedKnowledgeFile(deps: KnowledgeIndexDeps, file: { tenantId: string; filePath: string }, ctx: Pick<JobContext, 'attempt'>) {
  const ofFile = and(eq(knowledgeFiles.tenantId, file.tenantId), eq(knowledgeFiles.filePath, file.filePath));
  const model = deps.model;
  try {
    if (model?.embed) {
      const current = await embeddingModelId(model);
      for (;;) {
        const batch = await deps.db
          .select({ id: knowledgeChunks.id, fileName: knowledgeChunks.fileName, text: knowledgeChunks.text })
          .from(knowledgeChunks)
          .where(and(eq(knowledgeChunks.tenantId, file.tenantId), eq(knowledgeChunks.filePath, file.filePath), notEmbeddedBy(current)))
          .orderBy(asc(knowledgeChunks.position))
          .limit(EMBED_BATCH);
        if (batch.length === 0) break;
        const answer = await model.embed({ texts: batch.map((chunk) => searchableText(chunk.fileName, chunk.text)), purpose: 'document' });
        if (answer.vectors.length !== batch.length)
          throw new AiModelError('rejected', `el modelo devolvió ${answer.vectors.length} vectores para ${batch.length} textos`);
        if (answer.model !== current) throw new AiModelError('rejected', `el modelo de vectores cambió de ${current} a ${answer.model}`);
        await deps.db.transaction(async (tx) => {
          for (const [index, chunk] of batch.entries()) {
            await tx
              .update(knowledgeChunks)
              .set({ embedding: unitVector(answer.vectors[index]!), embeddingModel: answer.model })
              .where(eq(knowledgeChunks.id, chunk.id));
          }
        });
      }
    }
    await deps.db
      .update(knowledgeFiles)
      .set({ state: 'indexed', error: null, updatedAt: sql`now()` })
      .where(ofFile);
  } catch (error) {
    const transient = error instanceof AiModelError && TRANSIENT.has(error.kind);
    if (transient && ctx.attempt < EMBED_MAX_ATTEMPTS) throw error;
    deps.log.warn({ err: error, tenantId: file.tenantId, filePath: file.filePath }, 'knowledge file vectors failed');
    const reason = error instanceof Error ? error.message : String(error);
    await deps.db
      .update(knowledgeFiles)
      .set({ state: 'error', error: embeddingFailed(reason), updatedAt: sql`now()` })
      .where(ofFile);
  }
}

/** Where each of these files' indexing stands, in the order asked; a path this company never indexed is left out. */
export async function fileStates(db: Db, tenantId: string, filePaths: string[]): Promise<KnowledgeFileState[]> {
  if (filePaths.length === 0) return [];
  const rows = await db
    .select({
      filePath: knowledgeFiles.filePath,
      fileName: knowledgeFiles.fileName,
      state: knowledgeFiles.state,
      passages: knowledgeFiles.passages,
      error: knowledgeFiles.error,
    })
    .from(knowledgeFiles)
    .where(and(eq(knowledgeFiles.tenantId, tenantId), inArray(knowledgeFiles.filePath, filePaths)));
  const byPath = new Map(rows.map((row) => [row.filePath, row]));
  return filePaths.flatMap((filePath) => {
    const row = byPath.get(filePath);
    if (!row) return [];
    return [{ filePath, fileName: row.fileName, state: row.state, passages: row.passages, ...(row.error ? { error: row.error } : {}) }];
  });
}

/**
 * Knowledge files are stored members-only; those uploaded before that (issue 44) were public by URL. Every indexed
 * file still in the public area is moved to the members-only one; answers how many moved (none once done).
 */
export async function restrictKnowledgeFiles(db: Db, storage: Pick<MediaStorage, 'restrict'>): Promise<number> {
  const files = await db.select({ filePath: knowledgeFiles.filePath }).from(knowledgeFiles);
  let moved = 0;
  for (const { filePath } of files) if (await storage.restrict(filePath)) moved++;
  return moved;
}
