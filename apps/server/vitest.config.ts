import { defineConfig } from 'vitest/config';

// Suites that need a real PostgreSQL and Redis (several processes on one database, the Redis
// adapter) run only where CI provides them: `.ci/run` sets DATABASE_URL and REDIS_URL.
const serverMode = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'test/security/**/*.test.ts',
      'test/startup/**/*.test.ts',
      'test/http/**/*.test.ts',
      'test/events/**/*.test.ts',
      ...(serverMode ? ['test/server-mode/**/*.test.ts'] : []),
    ],
    // The schema-versus-migrations check reads files only: running it again against PostgreSQL proves nothing new.
    exclude: ['**/node_modules/**', ...(serverMode ? ['test/startup/db-check.test.ts'] : [])],
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
