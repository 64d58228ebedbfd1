import { sql, type SQL } from 'drizzle-orm';
import { knowledgeChunks } from '../../../../db/schema/index.ts';
import { type Db, queryRows } from '../../../platform/db/database.ts';

/** The vector scaled to length 1, so a dot product is the cosine; a zero vector stays zero. */
export function unitVector(vector: readonly number[]): number[] {
  const norm = Math.hypot(...vector);
  return norm > 0 ? vector.map((value) => value / norm) : [...vector];
}

/** How the database scores vectors: pgvector's cosine distance where the extension is installed, arrays otherwise. */
export type VectorScoring = 'pgvector' | 'arrays';

const installed = new WeakMap<Db, Promise<VectorScoring>>();

/**
 * Whether this database has pgvector installed (the migration installs it where the server offers it; an
 * administrator may install it later, which the next process sees).
 */
export function vectorScoringOf(db: Db): Promise<VectorScoring> {
  let known = installed.get(db);
  if (!known) {
    known = queryRows<{ installed: boolean }>(db, sql`select exists (select 1 from pg_extension where extname = 'vector') as installed`).then(([row]) =>
      row?.installed ? 'pgvector' : 'arrays',
    );
    installed.set(db, known);
    known.catch(() => installed.delete(db));
  }
  return known;
}

export interface VectorHit {
  id: string;
  score: number;
}

/**
 * The passages (of `scope`) nearest the query vector by cosine, best first, among those embedded by `modelId` only:
 * another model's vectors live in another space. Stored vectors are unit vectors, so the array path's dot product is
 * the cosine pgvector computes.
 */
export async function vectorRanking(
  db: Db,
  scope: SQL,
  query: { vector: readonly number[]; modelId: string },
  limit: number,
  scoring?: VectorScoring,
): Promise<VectorHit[]> {
  const unit = unitVector(query.vector);
  const how = scoring ?? (await vectorScoringOf(db));
  const ofModel = sql`${scope} and ${knowledgeChunks.embeddingModel} = ${query.modelId} and ${knowledgeChunks.embedding} is not null`;
  const score =
    how === 'pgvector'
      ? // A zero vector's cosine distance is NaN, which PostgreSQL sorts above every number.
        sql`nullif(1 - (${knowledgeChunks.embedding}::vector <=> ${`[${unit.join(',')}]`}::vector), 'NaN'::float8)`
      : sql`(select sum(stored::float8 * asked) from unnest(${knowledgeChunks.embedding}, ${`{${unit.join(',')}}`}::float8[]) as pair(stored, asked))`;
  const rows = await queryRows<{ id: string; score: number | string }>(
    db,
    sql`select ${knowledgeChunks.id} as id, ${score} as score from ${knowledgeChunks} where ${ofModel} order by score desc nulls last, ${knowledgeChunks.position} limit ${limit}`,
  );
  return rows.map((row) => ({ id: row.id, score: Number(row.score) }));
}
