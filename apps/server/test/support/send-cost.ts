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
 * Runs one due job among those `runnable` selects (every other pending job waits meanwhile, then is due again) and
 * answers how many statements it cost.
 */
export async function statementsOfOneJob(t: TestApp, runnable: SQL): Promise<number> {
  const postponed = await t.database.db
    .update(jobs)
    .set({ runAt: sql`now() + interval '1 hour'` })
    .where(and(eq(jobs.status, 'pending'), not(runnable)))
    .returning({ id: jobs.id });
  const { result: ran, statements } = await t.database.gate.countStatements(() => t.app.queue.runDueJobsOnce(1));
  if (ran !== 1) throw new Error(`expected one job to run, ran ${ran}`);
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

/** The statements of one send job, the only job let run. */
export const statementsOfOneSend = (t: TestApp) => statementsOfOneJob(t, eq(jobs.name, 'chats.send-message'));
