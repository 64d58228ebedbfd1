import { and, gte, lt, sql } from 'drizzle-orm';
import { messages } from '../../../db/schema/index.ts';
import type { DbExecutor } from '../../platform/db/database.ts';

/** Messages the companies sent (not their customers) in [start, end), across every tenant: the operator's figure. */
export async function countMessagesSentBetween(executor: DbExecutor, start: Date, end: Date): Promise<number> {
  const [row] = await executor
    .select({ n: sql<number>`count(*)::int` })
    .from(messages)
    .where(and(sql`${messages.sender} <> 'contact'`, gte(messages.createdAt, start), lt(messages.createdAt, end)));
  return row?.n ?? 0;
}
