import { prepareTestDatabaseTemplate } from './test-database.ts';

/** Vitest global setup: the migrated template every test file's database starts from, made once per run. */
export default async function setup(): Promise<void> {
  await prepareTestDatabaseTemplate();
}
