import { and, eq, inArray, not, sql, type SQL } from 'drizzle-orm';
import { jobs } from '../../db/schema/index.ts';
import type { TestApp } from './build-test-app.ts';

/**
 * What one outbound send costs the database, counted statement by statement (a transaction's BEGIN and COMMIT
 * included): the job's claim, the message's dispatch claim with its chat, the company with its line (one read), the provider's
 * acceptance stored with its charge in one statement and its event in the same transaction (with the batch dashboard's
 * lookup of the message's batch; a batch row's chunk job told it the batch, and its send counts a change on the batch
 * instead, so its next dashboard read recounts it), the job's finish. A change that adds a round trip
 * to every send fails the tests that use it; lower the figure when a change saves one.
 */
export const STATEMENTS_PER_SEND = 8;

/**
 * Ten sends due at once, of two companies, run as one batch (13 statements, against 80 sent one by one): the jobs'
 * claim and the claim that looked for more of them, one dispatch claim, each company's line, one acceptance transaction
 * (BEGIN, each company's acceptances with their charges, the dashboard's lookup of each company's batches, the ten
 * events, COMMIT) and one statement recording the ten jobs done.
 */
export const STATEMENTS_PER_TEN_SENDS = 13;

/**
 * Runs the due jobs `runnable` selects, `count` of them (one by default) with one claim of the queue, every other
 * pending job waiting meanwhile and due again after, and answers how many statements they cost.
 */
export async function statementsOfDueJobs(t: TestApp, runnable: SQL, count = 1): Promise<number> {
  const postponed = await t.database.db
    .update(jobs)
    .set({ runAt: sql`now() + interval '1 hour'` })
    .where(and(eq(jobs.status, 'pending'), not(runnable)))
    .returning({ id: jobs.id });
  const { result: ran, statements } = await t.database.gate.countStatements(() => t.app.queue.runDueJobsOnce());
  if (ran !== count) throw new Error(`expected ${count} jobs to run, ran ${ran}`);
  if (postponed.length > 0)
    await t.database.db
      .update(jobs)
      .set({ runAt: sql`now()` })
      .where(
        inArray(
          jobs.id,
          postponed.map((job) => job.id),
        ),
      );
  return statements;
}

/** The statements of the due send jobs (one by default), the only jobs let run. */
export const statementsOfSends = (t: TestApp, count = 1) => statementsOfDueJobs(t, eq(jobs.name, 'chats.send-message'), count);
