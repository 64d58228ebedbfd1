import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const SERVER_ROOT = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  stdout: () => string;
  stderr: () => string;
}

/**
 * Starts the real server (src/main.ts, tsx as a loader so signals reach the server itself) on an embedded DATA_DIR
 * and a free port; resolves once it prints its URL. DATABASE_URL, REDIS_URL and PORT of the test run are left out.
 */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !['DATABASE_URL', 'REDIS_URL', 'PORT'].includes(key)));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_ROOT,
    env: { ...inherited, PORT: '0', HOST: '127.0.0.1', SEED_DEMO: 'false', PROVIDER_MODE: 'sandbox', LOG_LEVEL: 'silent', ...env },
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${err}`)), timeoutMs);
    const onData = () => {
      const match = /running at (http:\/\/localhost:\d+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve(match[1]!.replace('localhost', '127.0.0.1'));
    };
    child.stdout!.on('data', onData);
    void exited.then(() => reject(new Error(`server exited: ${err}`)));
  });
  return { url, child, exited, stdout: () => out, stderr: () => err };
}

/** A JSON API call with an optional bearer token. */
export async function api(base: string, token: string | undefined, method: string, route: string, body?: unknown, headers: Record<string, string> = {}) {
  return fetch(`${base}${route}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
}
