import { sql, type SQL } from 'drizzle-orm';
import { knowledgeChunks } from '../../../../db/schema/index.ts';
import { type Db, queryRows } from '../../../platform/db/database.ts';
import { searchableText } from './chunking.ts';
import { featureCounts, featureWeight } from './spanish-words.ts';

/** BM25's usual constants: how fast repeats stop counting, and how much a long passage is discounted. */
const K1 = 1.2;
const B = 0.75;
/** The customer's words beyond these are not searched (a pasted paragraph). */
const MAX_QUERY_FEATURES = 60;

export interface LexicalHit {
  id: string;
  score: number;
}

/**
 * The passages (of `scope`) that share word features with the query, ranked by BM25 (docs/decisions/0030): a
 * feature found in few passages weighs more, a shared stem more than a shared start of a word. The database finds
 * the passages holding any of the query's features through the `terms` index, which are also all the passages that
 * count towards a feature's rarity, so the scores are exact over the files; the counting runs here, the same on
 * PGlite and PostgreSQL.
 */
export async function lexicalRanking(db: Db, scope: SQL, query: string, limit: number): Promise<LexicalHit[]> {
  const asked = [...featureCounts(query).keys()].slice(0, MAX_QUERY_FEATURES);
  if (asked.length === 0) return [];
  const [stats] = await queryRows<{ passages: number | string; average: number | string | null }>(
    db,
    sql`select count(*) as passages, avg(length(${knowledgeChunks.text})) as average from ${knowledgeChunks} where ${scope}`,
  );
  const passages = Number(stats?.passages ?? 0);
  const averageLength = Number(stats?.average ?? 0) || 1;
  if (passages === 0) return [];
  const rows = await queryRows<{ id: string; fileName: string; text: string; position: number }>(
    db,
    sql`select ${knowledgeChunks.id} as id, ${knowledgeChunks.fileName} as "fileName", ${knowledgeChunks.text} as text, ${knowledgeChunks.position} as position from ${knowledgeChunks}
        where ${scope} and ${knowledgeChunks.terms} && ${`{${asked.map(arrayElement).join(',')}}`}::text[]`,
  );
  const counted = rows.map((row) => ({ row, counts: featureCounts(searchableText(row.fileName, row.text)) }));
  const holding = new Map<string, number>();
  for (const { counts } of counted) for (const feature of asked) if (counts.has(feature)) holding.set(feature, (holding.get(feature) ?? 0) + 1);
  const rarity = (feature: string) => {
    const found = holding.get(feature) ?? 0;
    return Math.log(1 + (passages - found + 0.5) / (found + 0.5));
  };
  const scored = counted.map(({ row, counts }) => {
    const lengthFactor = 1 - B + (B * row.text.length) / averageLength;
    let score = 0;
    for (const feature of asked) {
      const times = counts.get(feature);
      if (times) score += featureWeight(feature) * rarity(feature) * ((times * (K1 + 1)) / (times + K1 * lengthFactor));
    }
    return { id: row.id, position: row.position, score };
  });
  return scored
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || a.position - b.position)
    .slice(0, limit)
    .map(({ id, score }) => ({ id, score }));
}

/** A text[] literal's element, quoted: features are letters, digits and a colon, but quoting keeps any text safe. */
function arrayElement(value: string) {
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}
