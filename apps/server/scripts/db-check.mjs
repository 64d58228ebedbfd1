// Fails when the drizzle schema and the committed migrations disagree: drizzle-kit generates into a copy of the
// migrations folder, and any new migration there means a schema change was made without its migration.
// Usage: node scripts/db-check.mjs [--schema <path to schema index>]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const schemaFlag = process.argv.indexOf('--schema');
const schema = schemaFlag > 0 ? path.resolve(process.argv[schemaFlag + 1]) : path.join(serverDir, 'db/schema/index.ts');
const migrations = path.join(serverDir, 'db/migrations');

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-db-check-'));
try {
  const copy = path.join(scratch, 'migrations');
  fs.cpSync(migrations, copy, { recursive: true });
  // drizzle-kit reads --out relative to the working directory, even an absolute one.
  const out = path.relative(serverDir, copy);
  const sqlFiles = (dir) =>
    fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.sql'))
      .sort();
  const before = new Set(sqlFiles(copy));
  const drizzleKit = path.join(serverDir, 'node_modules/.bin/drizzle-kit');
  const bin = fs.existsSync(drizzleKit) ? drizzleKit : path.resolve(serverDir, '../../node_modules/.bin/drizzle-kit');
  const run = (args) => spawnSync(bin, args, { cwd: serverDir, encoding: 'utf8' });

  const check = run(['check', '--dialect', 'postgresql', '--out', out]);
  if (check.status !== 0) {
    process.stderr.write(`drizzle-kit check failed: the migrations' snapshots are inconsistent.\n${check.stdout}${check.stderr}`);
    process.exit(1);
  }
  const generate = run(['generate', '--dialect', 'postgresql', '--schema', path.relative(serverDir, schema), '--out', out, '--name', 'schema_drift']);
  if (generate.status !== 0) {
    process.stderr.write(`drizzle-kit generate failed.\n${generate.stdout}${generate.stderr}`);
    process.exit(1);
  }
  const added = sqlFiles(copy).filter((name) => !before.has(name));
  if (added.length > 0) {
    const sql = added.map((name) => fs.readFileSync(path.join(copy, name), 'utf8')).join('\n');
    process.stderr.write(`The schema has changes with no migration. Run \`npm run db:generate -w @embudo/server -- --name <name>\`. Missing SQL:\n${sql}\n`);
    process.exit(1);
  }
  process.stdout.write(`Schema and migrations agree (${before.size} migrations).\n`);
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
