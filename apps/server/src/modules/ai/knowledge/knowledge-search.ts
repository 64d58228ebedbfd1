import type { Db } from '../../../platform/db/database.ts';

/** A passage of a column's knowledge file, chosen for the customer's latest words. */
export interface KnowledgeExcerpt {
  fileName: string;
  text: string;
}

export interface KnowledgeQuery {
  tenantId: string;
  /** The files the column's assistant consults (its file tools' filePath). */
  filePaths: string[];
  /** The customer's latest words. */
  query: string;
  /** Total characters of excerpts to return at most. */
  maxChars: number;
}

/** Full-text search over the indexed knowledge files; never returns another company's chunks. */
export type KnowledgeSearch = (db: Db, query: KnowledgeQuery) => Promise<KnowledgeExcerpt[]>;
