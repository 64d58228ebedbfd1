import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const serverDir = path.resolve(import.meta.dirname, '../..');
const script = path.join(serverDir, 'scripts/db-check.mjs');
// Inside the server folder so the schema's own imports (drizzle-orm, contracts) resolve from the copy.
const scratch = fs.mkdtempSync(path.join(serverDir, '.db-check-test-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('db:check, the schema-versus-migrations check', () => {
  it('passes on the committed schema and migrations', async () => {
    const { stdout } = await run(process.execPath, [script], { cwd: serverDir });
    expect(stdout).toContain('Schema and migrations agree');
  }, 60_000);

  it('fails, naming the missing SQL, when the schema has a table no migration creates', async () => {
    const drifted = path.join(scratch, 'index.ts');
    fs.writeFileSync(
      drifted,
      [
        "import { pgTable, text } from 'drizzle-orm/pg-core';",
        "export * from '../db/schema/index.ts';",
        "export const driftProbe = pgTable('drift_probe', { note: text('note') });",
        '',
      ].join('\n'),
    );
    const failure = await run(process.execPath, [script, '--schema', drifted], { cwd: serverDir }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('The schema has changes with no migration');
    expect(failure?.stderr).toContain('drift_probe');
  }, 60_000);
});
