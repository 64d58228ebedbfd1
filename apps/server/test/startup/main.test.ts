import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const serverRoot = path.resolve(import.meta.dirname, '../..');
const tsx = path.resolve(serverRoot, '../../node_modules/.bin/tsx');
const dataDirs: string[] = [];
afterAll(() => dataDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

interface Started {
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  stop: () => void;
}

function startServer(env: Record<string, string>): Started {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !['DATABASE_URL', 'REDIS_URL', 'PORT'].includes(key)));
  const child = spawn(tsx, ['src/main.ts'], { cwd: serverRoot, env: { ...clean, LOG_LEVEL: 'silent', ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { stdout: () => out, stderr: () => err, exited, stop: () => child.kill('SIGTERM') };
}

/** Waits for `text` on the server's standard output; fails at once, with what it printed, if it exits first or never says it. */
async function waitForOutput(server: Started, text: string, timeoutMs: number) {
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code));
  const deadline = Date.now() + timeoutMs;
  while (!server.stdout().includes(text)) {
    const why = exitCode !== undefined ? `the server exited (${exitCode})` : Date.now() > deadline ? `${timeoutMs} ms passed` : undefined;
    if (why) throw new Error(`"${text}" not printed: ${why}\nstdout: ${server.stdout().slice(-2000)}\nstderr: ${server.stderr().slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('starting the server', () => {
  it('stops with one line naming a bad variable', async () => {
    const server = startServer({ PORT: 'not-a-port', DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-cfg-')) });
    expect(await server.exited).toBe(1);
    const lines = server.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: PORT /);
  });

  it('refuses TRUST_PROXY=true with one line: trusting every X-Forwarded-For would let clients dodge sign-in throttling', async () => {
    const server = startServer({ TRUST_PROXY: 'true', DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-cfg-')) });
    expect(await server.exited).toBe(1);
    const lines = server.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: TRUST_PROXY must be false, a hop count/);
  });

  it('refuses AI_PROVIDER=gemini without GEMINI_API_KEY with one line', async () => {
    const server = startServer({ AI_PROVIDER: 'gemini', GEMINI_API_KEY: '', DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-cfg-')) });
    expect(await server.exited).toBe(1);
    const lines = server.stderr().trim().split('\n');
    expect(lines).toEqual(['Invalid configuration: GEMINI_API_KEY is required when AI_PROVIDER is gemini']);
  });

  // Two cold starts of a fresh embedded database, each allowed 120 s above.
  it('in embedded mode seeds the demo tenant, prints its sign-in and the operator account, and serves the API', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-start-'));
    dataDirs.push(dataDir);
    const server = startServer({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir });
    try {
      await waitForOutput(server, 'Demo sign-in', 120_000);
      const out = server.stdout();
      const url = /running at (http:\/\/localhost:\d+)/.exec(out)![1]!;
      const demo = /company slug "([^"]+)", email (\S+), password (\S+)/.exec(out)!;
      expect(out).toMatch(/Platform operator created \(shown once\): .*email admin@embudo\.local, password \S+/);

      const login = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tenantSlug: demo[1], email: demo[2], password: demo[3] }),
      });
      expect(login.status).toBe(200);
      const session = (await login.json()) as { user: { role: string }; tenant: { slug: string } };
      expect(session.user.role).toBe('owner');
      expect(fs.existsSync(path.join(dataDir, 'app-secret'))).toBe(true);
    } finally {
      server.stop();
      await server.exited;
    }

    // A second start on the same data neither reseeds nor prints a new operator password.
    const again = startServer({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir });
    try {
      await waitForOutput(again, 'Demo sign-in', 120_000);
      expect(again.stdout()).toContain('(seeded earlier)');
      expect(again.stdout()).not.toContain('Platform operator created');
    } finally {
      again.stop();
      await again.exited;
    }
    // Two cold starts of a fresh embedded database, each allowed 120 s above.
  }, 270_000);
});
