import { defineConfig } from 'vitest/config';

// Suites that need a real PostgreSQL and Redis (several processes on one database, the Redis
// adapter) run only where CI provides them: `.ci/run` sets DATABASE_URL and REDIS_URL.
const serverMode = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

/**
 * Files whose tests never touch the run's database: the schema-versus-migrations check reads files only, and the rest
 * open embedded databases of their own (a started server's DATA_DIR, backups, PGlite itself) whatever the run's
 * DATABASE_URL. Running them again against PostgreSQL proves nothing new, and took about 100 s of the two workers (the
 * servers they start run initdb and every migration) in CI's busiest phase.
 */
const sameInEitherMode = [
  'test/startup/db-check.test.ts',
  'test/startup/main.test.ts',
  'test/startup/crash-redelivery.test.ts',
  'test/startup/graceful-shutdown.test.ts',
  'test/startup/sandbox-fakes-restart.test.ts',
  'src/platform/db/database.test.ts',
  'src/ops/backup.test.ts',
  'test/knowledge-eval/dataset.test.ts',
];

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'test/security/**/*.test.ts',
      'test/startup/**/*.test.ts',
      'test/http/**/*.test.ts',
      'test/events/**/*.test.ts',
      'test/conformance/**/*.test.ts',
      'test/knowledge-eval/**/*.test.ts',
      ...(serverMode ? ['test/server-mode/**/*.test.ts'] : []),
    ],
    exclude: ['**/node_modules/**', ...(serverMode ? sameInEitherMode : [])],
    // The migrated database every file's database is copied from (test/support/test-database.ts).
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Files share each worker's module cache (no file mocks modules; each builds its own app and database): importing
    // the server once per worker instead of once per file halves the suite's time.
    isolate: false,
    maxWorkers: 2,
  },
});
