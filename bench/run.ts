/**
 * `npm run bench` (PGlite) and `npm run bench:server` (`--server`: PostgreSQL + Redis, a fresh database per bench,
 * dropped after it): runs each bench as its own process, one after the other, then prints every bench's rows in one
 * table. BENCH_ONLY=ingest,auth runs only the benches whose file names contain one of the words; the size knobs of
 * each bench (BENCH_*) pass through. The board-realtime bench (requests per row of a 5,000-row send, long) runs
 * on its own: `npx tsx bench/board-realtime.bench.ts`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { formatTable, machineDescription, readResultsFile } from './support.ts';

const server = process.argv.includes('--server');
const env: NodeJS.ProcessEnv = { ...process.env };
if (server) {
  env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
  env.REDIS_URL ??= 'redis://127.0.0.1:6379';
} else {
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
}

const benches = [
  'auth-session',
  'webhook-ingest',
  'bulk-send',
  'api-during-bulk',
  'batch-dashboard',
  'board-load',
  'realtime-fanout',
  'ai-answer',
  'knowledge-recall',
  // PostgreSQL vacuums and analyzes in workers of its own; the embedded database's upkeep holds the server's thread.
  ...(server ? ['scale-out'] : ['embedded-upkeep']),
].filter((name) => !process.env.BENCH_ONLY || process.env.BENCH_ONLY.split(',').some((word) => name.includes(word.trim())));

const resultsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-bench-')), 'results.jsonl');
const failed: string[] = [];
const started = performance.now();
for (const name of benches) {
  process.stdout.write(`\n== ${name}\n`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', `${name}.bench.ts`], {
    cwd: import.meta.dirname,
    env: { ...env, BENCH_RESULTS_FILE: resultsFile },
    stdio: 'inherit',
  });
  if (run.status !== 0) failed.push(name);
}

const minutes = ((performance.now() - started) / 60_000).toFixed(1);
process.stdout.write(`\n== all benches (${server ? 'PostgreSQL + Redis' : 'PGlite'}; ${machineDescription()}; ${minutes} min)\n`);
process.stdout.write(`${formatTable(readResultsFile(resultsFile), true)}\n`);
if (failed.length > 0) {
  process.stdout.write(`failed: ${failed.join(', ')}\n`);
  process.exitCode = 1;
}
