import { and, eq, inArray, sql } from 'drizzle-orm';
import { knowledgeChunks, knowledgeFiles } from '../../../../db/schema/index.ts';
import type { Db } from '../../../platform/db/database.ts';
import type { Logger } from '../../../platform/logger/logger.ts';
import type { AiModel } from '../model/model-port.ts';
import { CHUNK_OVERLAP_CHARS } from './chunking.ts';
import type { KnowledgeExcerpt, KnowledgeSearch } from './knowledge-search.ts';
import { lexicalRanking } from './lexical-ranking.ts';
import { type VectorScoring, vectorRanking } from './vector-ranking.ts';

/** Passages each half ranks before fusion: many more than the budget holds. */
export const RANKED_PASSAGES = 50;
/** Reciprocal rank fusion's constant: the usual 60, so the first places of either list count about alike. */
export const FUSION_K = 60;
/** The customer's words wait this long for their vector; past it the answer goes on with the lexical half. */
export const QUERY_EMBEDDING_TIMEOUT_MS = 5_000;

/**
 * Reciprocal rank fusion: each list gives an item 1 / (k + its place), the sums rank the items. Only places count,
 * so BM25 scores and cosines, on unrelated scales, fuse without calibration; an item both lists rank high wins.
 */
export function fuseRankings(rankings: readonly (readonly string[])[], k = FUSION_K): string[] {
  const scores = new Map<string, number>();
  for (const ranking of rankings) ranking.forEach((id, place) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + place + 1)));
  return [...scores.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}

interface Passage {
  id: string;
  filePath: string;
  fileName: string;
  position: number;
  text: string;
}

/** `second` after the end of `first` it repeats (whole lines), or undefined when it repeats none. */
function afterOverlap(first: string, second: string): string | undefined {
  for (let length = Math.min(first.length, second.length, CHUNK_OVERLAP_CHARS); length > 0; length--) {
    if ((length === second.length || second[length] === '\n') && first.endsWith(second.slice(0, length))) return second.slice(length);
  }
  return undefined;
}

/** Two neighbouring passages as one text: what the second repeats of the first (its section's heading, the overlap) is kept once. */
function joinNeighbours(first: string, second: string): string {
  const firstLineEnd = second.indexOf('\n');
  const heading = firstLineEnd > 0 ? second.slice(0, firstLineEnd) : undefined;
  const rest = heading !== undefined && first.includes(heading) ? second.slice(firstLineEnd + 1) : second;
  const added = afterOverlap(first, rest) ?? afterOverlap(first, second) ?? `\n${rest}`;
  return `${first}${added}`;
}

/** The chosen passages as excerpts: neighbours of a file joined, each excerpt placed by its best-ranked passage. */
function excerptsOf(chosen: readonly Passage[]): KnowledgeExcerpt[] {
  const rankOf = new Map(chosen.map((passage, rank) => [passage.id, rank]));
  const sorted = [...chosen].sort((a, b) => a.filePath.localeCompare(b.filePath) || a.position - b.position);
  const runs: { fileName: string; text: string; rank: number; last: Passage }[] = [];
  for (const passage of sorted) {
    const run = runs.at(-1);
    if (run && run.last.filePath === passage.filePath && run.last.position + 1 === passage.position) {
      run.text = joinNeighbours(run.text, passage.text);
      run.rank = Math.min(run.rank, rankOf.get(passage.id)!);
      run.last = passage;
    } else {
      runs.push({ fileName: passage.fileName, text: passage.text, rank: rankOf.get(passage.id)!, last: passage });
    }
  }
  return runs.sort((a, b) => a.rank - b.rank).map(({ fileName, text }) => ({ fileName, text }));
}

const charsOf = (excerpts: readonly KnowledgeExcerpt[]) => excerpts.reduce((sum, excerpt) => sum + excerpt.text.length, 0);

/** The best-ranked passages whose excerpts fit `maxChars` together, taken in rank order (a passage that does not fit is passed over). */
export function excerptsWithinBudget(ranked: readonly Passage[], maxChars: number): KnowledgeExcerpt[] {
  let chosen: Passage[] = [];
  for (const passage of ranked) {
    const next = [...chosen, passage];
    if (charsOf(excerptsOf(next)) <= maxChars) chosen = next;
  }
  return excerptsOf(chosen);
}

export interface KnowledgeSearchDeps {
  /** Offers `embed` for the vector half; without it (or when it fails) the search is lexical. */
  model: AiModel | null;
  log: Pick<Logger, 'warn'>;
  /** Forces the array scoring where pgvector is installed (tests compare both). */
  vectorScoring?: VectorScoring;
}

/**
 * The knowledge search (docs/decisions/0030): the column's files whole when they all fit the budget; otherwise the
 * passages the lexical half (BM25 over word features) and the vector half (cosine to the customer's words' vector,
 * the current embedding model's only) rank, fused by reciprocal rank, as many as the budget holds.
 */
export function createKnowledgeSearch(deps: KnowledgeSearchDeps): KnowledgeSearch {
  async function queryVector(query: string) {
    if (!deps.model?.embed) return undefined;
    try {
      const answer = await deps.model.embed({ texts: [query], purpose: 'query', signal: AbortSignal.timeout(QUERY_EMBEDDING_TIMEOUT_MS) });
      const vector = answer.vectors[0];
      return vector && vector.length > 0 ? { vector, modelId: answer.model } : undefined;
    } catch (error) {
      deps.log.warn({ err: error }, 'knowledge search without vectors: the query could not be embedded');
      return undefined;
    }
  }

  return async (db: Db, { tenantId, filePaths, query, maxChars, strategy = 'hybrid' }) => {
    if (filePaths.length === 0 || maxChars <= 0) return [];
    const files = await db
      .select({ filePath: knowledgeFiles.filePath, fileName: knowledgeFiles.fileName, text: knowledgeFiles.text })
      .from(knowledgeFiles)
      .where(and(eq(knowledgeFiles.tenantId, tenantId), inArray(knowledgeFiles.filePath, filePaths)));
    if (files.length === 0) return [];
    // Most small businesses' knowledge is a page or two: whole, it needs no search and loses nothing.
    if (charsOf(files) <= maxChars) {
      const order = new Map(filePaths.map((filePath, index) => [filePath, index]));
      return files.sort((a, b) => order.get(a.filePath)! - order.get(b.filePath)!).map(({ fileName, text }) => ({ fileName, text }));
    }

    const scope = sql`${knowledgeChunks.tenantId} = ${tenantId} and ${inArray(knowledgeChunks.filePath, filePaths)}`;
    const lexical = strategy === 'vector' ? [] : await lexicalRanking(db, scope, query, RANKED_PASSAGES);
    const asked = strategy === 'lexical' ? undefined : await queryVector(query);
    const vector = asked ? await vectorRanking(db, scope, asked, RANKED_PASSAGES, deps.vectorScoring) : [];
    const ranked = fuseRankings([lexical.map((hit) => hit.id), vector.map((hit) => hit.id)]);
    if (ranked.length === 0) return [];

    const rows = await db
      .select({
        id: knowledgeChunks.id,
        filePath: knowledgeChunks.filePath,
        fileName: knowledgeChunks.fileName,
        position: knowledgeChunks.position,
        text: knowledgeChunks.text,
      })
      .from(knowledgeChunks)
      .where(and(eq(knowledgeChunks.tenantId, tenantId), inArray(knowledgeChunks.id, ranked)));
    const byId = new Map(rows.map((row) => [row.id, row]));
    return excerptsWithinBudget(
      ranked.flatMap((id) => byId.get(id) ?? []),
      maxChars,
    );
  };
}
