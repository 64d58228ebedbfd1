import { and, eq, inArray, sql } from 'drizzle-orm';
import { knowledgeChunks } from '../../../../db/schema/index.ts';
import type { Db } from '../../../platform/db/database.ts';
import type { MediaStorage } from '../../../platform/storage/media-storage.ts';
import type { KnowledgeExcerpt, KnowledgeSearch } from './knowledge-search.ts';

/** Passages of about this many characters, cut at line or sentence ends. */
export const CHUNK_CHARS = 1_000;

/** Splits text into passages of at most `size` characters, at paragraph, line or sentence boundaries where it can. */
export function chunkText(text: string, size = CHUNK_CHARS): string[] {
  const pieces = text
    .split(/\n+/)
    .flatMap((line) => (line.length <= size ? [line] : line.split(/(?<=[.!?])\s+/)))
    .map((piece) => piece.trim())
    .filter(Boolean);
  const chunks: string[] = [];
  let current = '';
  for (const piece of pieces) {
    for (let start = 0; start < piece.length; start += size) {
      const part = piece.slice(start, start + size);
      if (current && current.length + part.length + 1 > size) {
        chunks.push(current);
        current = '';
      }
      current = current ? `${current}\n${part}` : part;
    }
  }
  if (current) chunks.push(current);
  return chunks;
}

/** Indexes an uploaded tool file's text (replacing what the same path had); answers how many passages it holds. */
export async function indexKnowledgeFile(db: Db, file: { tenantId: string; filePath: string; fileName: string; text: string }): Promise<number> {
  const chunks = chunkText(file.text);
  await db.transaction(async (tx) => {
    await tx.delete(knowledgeChunks).where(and(eq(knowledgeChunks.tenantId, file.tenantId), eq(knowledgeChunks.filePath, file.filePath)));
    // Inserted in slices: one statement's parameters stay well under PostgreSQL's limit for a long file.
    for (let start = 0; start < chunks.length; start += 500) {
      await tx
        .insert(knowledgeChunks)
        .values(
          chunks
            .slice(start, start + 500)
            .map((text, offset) => ({ tenantId: file.tenantId, filePath: file.filePath, fileName: file.fileName, position: start + offset, text })),
        );
    }
  });
  return chunks.length;
}

/**
 * Knowledge files are stored members-only; those uploaded before that (issue 44) were public by URL. Every indexed
 * file still in the public area is moved to the members-only one; answers how many moved (none once done).
 */
export async function restrictKnowledgeFiles(db: Db, storage: Pick<MediaStorage, 'restrict'>): Promise<number> {
  const files = await db.selectDistinct({ filePath: knowledgeChunks.filePath }).from(knowledgeChunks);
  let moved = 0;
  for (const { filePath } of files) if (await storage.restrict(filePath)) moved++;
  return moved;
}

/** Words worth searching for: letters and digits, 3 characters or more, at most 30 of them. */
function searchWords(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
  return [...new Set(words)].slice(0, 30);
}

/**
 * The passages that best match the customer's words (Spanish stemming: "precios" finds "precio"), any word counting,
 * ranked, within the character budget; only from this company's files that the column names.
 */
export const searchKnowledge: KnowledgeSearch = async (db, { tenantId, filePaths, query, maxChars }) => {
  const words = searchWords(query);
  if (words.length === 0 || filePaths.length === 0) return [];
  // Each word is turned into a tsquery by the database (plainto_tsquery quotes it), then OR-ed.
  const tsQuery = sql.join(
    words.map((word) => sql`plainto_tsquery('spanish', ${word})`),
    sql` || `,
  );
  const document = sql`to_tsvector('spanish', ${knowledgeChunks.text})`;
  const rows = await db
    .select({ fileName: knowledgeChunks.fileName, text: knowledgeChunks.text, rank: sql<number>`ts_rank(${document}, ${tsQuery})` })
    .from(knowledgeChunks)
    .where(and(eq(knowledgeChunks.tenantId, tenantId), inArray(knowledgeChunks.filePath, filePaths), sql`${document} @@ (${tsQuery})`))
    .orderBy(sql`ts_rank(${document}, ${tsQuery}) desc`, knowledgeChunks.position)
    .limit(20);
  const excerpts: KnowledgeExcerpt[] = [];
  let used = 0;
  for (const row of rows) {
    if (used + row.text.length > maxChars) continue;
    excerpts.push({ fileName: row.fileName, text: row.text });
    used += row.text.length;
  }
  return excerpts;
};
