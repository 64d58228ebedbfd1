import { randomUUID } from 'node:crypto';
import { loadEvalDocuments, loadEvalQuestions, type EvalQuestion, type QuestionKind } from '../../../../bench/knowledge-eval/dataset.ts';
import type { Db } from '../../src/platform/db/database.ts';
import {
  type AiModel,
  createKnowledgeIndex,
  createKnowledgeSearch,
  embedKnowledgeFile,
  KNOWLEDGE_BUDGET_CHARS,
  KnowledgeReader,
  type KnowledgeSearch,
  type RetrievalStrategy,
} from '../../src/modules/ai/index.ts';

/**
 * The knowledge retrieval evaluation (issue 44 item 3), shared by the recall test and `npm run bench`: the evaluation
 * set's documents read by the product's reader and indexed as an upload indexes them, all in one company's column (they
 * compete, as one business's files do), with their vectors from `model`; then every question searched as the
 * assistant searches (its knowledge budget, the column's files), counting a hit when an excerpt of the question's
 * document holds its expected fact.
 */

const quietLog = { warn: () => {}, info: () => {} };

export interface IndexedEvalSet {
  tenantId: string;
  filePaths: string[];
  questions: EvalQuestion[];
}

/** Indexes the evaluation documents for `tenantId` (an existing company) and makes their vectors with `model`. */
export async function indexEvalSet(db: Db, tenantId: string, model: AiModel | null): Promise<IndexedEvalSet> {
  const index = createKnowledgeIndex({ db, model, log: quietLog }, { enqueue: async () => null });
  const reader = new KnowledgeReader();
  const filePaths: string[] = [];
  try {
    for (const document of loadEvalDocuments()) {
      const { extension, text } = await reader.read(document);
      const filePath = `/media/${tenantId}/${randomUUID()}.${extension}`;
      await index.indexFile({ tenantId, filePath, fileName: document.fileName, text });
      await embedKnowledgeFile({ db, model, log: quietLog }, { tenantId, filePath }, { attempt: 1 });
      filePaths.push(filePath);
    }
  } finally {
    await reader.stop();
  }
  return { tenantId, filePaths, questions: loadEvalQuestions() };
}

export interface RecallFigures {
  strategy: RetrievalStrategy;
  hits: number;
  total: number;
  recall: number;
  byKind: Map<QuestionKind, { hits: number; total: number }>;
  missed: EvalQuestion[];
}

export const isHit = (question: EvalQuestion, excerpts: { fileName: string; text: string }[]) =>
  excerpts.some((excerpt) => excerpt.fileName === question.document && excerpt.text.includes(question.expect));

/** The share of questions whose fact is in the excerpts the assistant would get, by one strategy. */
export async function recallOf(db: Db, set: IndexedEvalSet, search: KnowledgeSearch, strategy: RetrievalStrategy): Promise<RecallFigures> {
  const byKind = new Map<QuestionKind, { hits: number; total: number }>();
  const missed: EvalQuestion[] = [];
  for (const question of set.questions) {
    const excerpts = await search(db, {
      tenantId: set.tenantId,
      filePaths: set.filePaths,
      query: question.question,
      maxChars: KNOWLEDGE_BUDGET_CHARS,
      strategy,
    });
    const hit = isHit(question, excerpts);
    const kind = byKind.get(question.kind) ?? { hits: 0, total: 0 };
    byKind.set(question.kind, { hits: kind.hits + (hit ? 1 : 0), total: kind.total + 1 });
    if (!hit) missed.push(question);
  }
  const total = set.questions.length;
  const hits = total - missed.length;
  return { strategy, hits, total, recall: hits / total, byKind, missed };
}

/** The knowledge search the assistant builds for this model. */
export const assistantSearch = (model: AiModel | null) => createKnowledgeSearch({ model, log: quietLog });
