#!/usr/bin/env node
// `npm test`: every check and suite of the project, side by side where they do not depend on each other, so the
// whole run fits the CI budget on a 2-core machine. Each step's output is printed whole when it ends (never
// interleaved), with its time; the run stops at the first phase with a failure and exits non-zero.
//
// Phases:
//   1. type check, ESLint, Prettier, module boundaries: single-threaded tools, run together; and the build
//      (contracts, server, web), which the journeys and the startup tests run: built once here, since a build empties
//      its dist folder first and a server starting from it meanwhile would find no web app;
//   2. the server suites on PGlite (vitest runs its files on both cores);
//   3. the web suite, and the Playwright journeys (mostly waiting on a browser and a server), together; with
//      TEST_DATABASE_URL and TEST_REDIS_URL set (CI, when the services answer) the server suites also run again on
//      PostgreSQL + Redis in this phase.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

process.stdout.write(`== npm test on Node ${process.version}\n`);

// The journeys drive Debian's Chromium and voice notes need ffmpeg: installed here when this runs as root (as CI
// does), otherwise the run stops at once with the one command that installs them.
const missingPackages = [existsSync('/usr/bin/chromium') ? '' : 'chromium', hasCommand('ffmpeg') ? '' : 'ffmpeg'].filter(Boolean);
if (missingPackages.length > 0) {
  const install = `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missingPackages.join(' ')}`;
  if (process.getuid?.() !== 0) {
    process.stderr.write(`npm test needs Debian's ${missingPackages.join(' and ')}: run  sudo sh -c '${install}'  and try again.\n`);
    process.exit(1);
  }
  process.stdout.write(`== installing Debian packages: ${missingPackages.join(' ')}\n`);
  if (spawnSync('sh', ['-c', install], { stdio: 'inherit' }).status !== 0) process.exit(1);
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

const serverModeEnv =
  process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL ? { DATABASE_URL: process.env.TEST_DATABASE_URL, REDIS_URL: process.env.TEST_REDIS_URL } : null;

const phases = [
  [
    { name: 'typecheck', command: 'npm run typecheck' },
    // ESLint (with type information) and Prettier as two steps: one after the other they were this phase's longest.
    { name: 'lint (ESLint)', command: 'npm run lint:code' },
    { name: 'format (Prettier)', command: 'npm run lint:format' },
    { name: 'module boundaries', command: 'npm run lint:deps' },
    { name: 'build', command: 'npm run build' },
  ],
  [{ name: 'server suites (PGlite)', command: 'npm run test:server' }],
  [
    { name: 'web suite', command: 'npm run test:web' },
    { name: 'end-to-end journeys (Chromium)', command: 'npm test -w @embudo/e2e' },
    ...(serverModeEnv ? [{ name: 'server suites (PostgreSQL + Redis)', command: 'npm run test:server', env: serverModeEnv }] : []),
  ],
];

function run(step) {
  const started = performance.now();
  return new Promise((resolve) => {
    // The server suites pick their database from DATABASE_URL/REDIS_URL: a step without them runs on PGlite.
    const env = { ...process.env, DATABASE_URL: '', REDIS_URL: '', FORCE_COLOR: '0', ...step.env };
    const child = spawn(step.command, { shell: true, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => resolve({ ...step, code: code ?? 1, output: Buffer.concat(output).toString(), seconds: (performance.now() - started) / 1000 }));
  });
}

const total = performance.now();
for (const phase of phases) {
  const results = await Promise.all(phase.map(run));
  for (const result of results) {
    process.stdout.write(`\n== ${result.name}: ${result.code === 0 ? 'passed' : `FAILED (exit ${result.code})`} in ${result.seconds.toFixed(0)} s\n`);
    process.stdout.write(result.output);
  }
  const failed = results.filter((result) => result.code !== 0);
  if (failed.length > 0) {
    process.stdout.write(`\n== npm test failed: ${failed.map((result) => result.name).join(', ')}\n`);
    process.exit(1);
  }
}
process.stdout.write(`\n== npm test passed in ${((performance.now() - total) / 1000).toFixed(0)} s\n`);
