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
  /** Which half ranks the passages (the assistant uses both); for the evaluation bench. Default hybrid. */
  strategy?: RetrievalStrategy;
}

export type RetrievalStrategy = 'hybrid' | 'lexical' | 'vector';

/**
 * The column's files whole when they all fit the budget, otherwise their passages nearest the customer's words
 * (docs/decisions/0030); never another company's.
 */
export type KnowledgeSearch = (db: Db, query: KnowledgeQuery) => Promise<KnowledgeExcerpt[]>;
