#!/usr/bin/env node
// `npm start` runs the compiled server. This builds it first (npm run build) when the build is missing or older than
// the sources, so `npm install && npm start` works from a fresh clone and after every edit. Where the build tools are
// not installed (`npm ci --omit=dev`, the container image) nothing is built: the existing build runs as it is.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (file) => path.join(root, file);
const outputs = ['packages/contracts/dist/text.js', 'apps/server/dist/src/main.js', 'apps/web/dist/index.html'];
const sources = [
  'packages/contracts/src',
  'apps/server/src',
  'apps/server/db',
  'apps/web/src',
  'apps/web/build',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'package-lock.json',
];

function newestMtime(entry) {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(entry).reduce((newest, name) => Math.max(newest, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

const builtAt = Math.min(...outputs.map((file) => (fs.existsSync(at(file)) ? fs.statSync(at(file)).mtimeMs : 0)));
const missing = builtAt === 0;
const stale = !missing && sources.some((source) => newestMtime(at(source)) > builtAt);
const canBuild = fs.existsSync(at('node_modules/typescript/package.json')) && fs.existsSync(at('node_modules/vite/package.json'));

if (missing || stale) {
  if (canBuild) {
    process.stdout.write(`== ${missing ? 'no build yet' : 'sources changed since the last build'}: npm run build\n`);
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    process.exit(build.status ?? 1);
  }
  if (missing) {
    process.stderr.write('No build found and the build tools are not installed: run `npm ci && npm run build` first (the image build does).\n');
    process.exit(1);
  }
  process.stderr.write('The sources are newer than the build, and the build tools are not installed: starting the existing build.\n');
}
