import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationPayload } from '../support/factories.ts';

/**
 * Issue 14's acceptance at process level: the real server (src/main.ts) is killed with SIGKILL after the
 * inbound webhook answered but while a column flow bot waits on its webhook node; started again on the
 * same DATA_DIR, it finishes the step and the customer gets the bot's reply exactly once.
 */
const serverRoot = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-crash-'));
const children: ChildProcess[] = [];

/** The bot's webhook target: the first call never answers (the process dies meanwhile), later calls answer at once. */
let hookCalls = 0;
const hookServer = http.createServer((request, response) => {
  request.resume();
  hookCalls += 1;
  if (hookCalls === 1) return;
  response.writeHead(200, { 'content-type': 'application/json' }).end('{"pedido":"en camino"}');
});

beforeAll(async () => {
  await new Promise<void>((resolve) => hookServer.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  children.forEach((child) => child.exitCode === null && child.kill('SIGKILL'));
  hookServer.closeAllConnections();
  await new Promise((resolve) => hookServer.close(resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Node runs main.ts itself (tsx as a loader, not its CLI wrapper), so SIGKILL reaches the server and nothing else. */
async function startServer(): Promise<{ url: string; child: ChildProcess; exited: Promise<unknown> }> {
  // Always the embedded database in its own DATA_DIR: on a shared PostgreSQL its jobs and tenants would outlive the
  // test in the server's default database.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !['DATABASE_URL', 'REDIS_URL', 'PORT'].includes(key)));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverRoot,
    env: {
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      PROVIDER_MODE: 'sandbox',
      LOG_LEVEL: 'silent',
    },
  });
  children.push(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk) => (err += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 90_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /running at (http:\/\/localhost:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!.replace('localhost', '127.0.0.1'));
      }
    });
    void exited.then(() => reject(new Error(`server exited: ${err}`)));
  });
  return { url, child, exited };
}

const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data: { label: id, ...data } });
const edge = (source: string, target: string) => ({ id: `${source}-${target}`, source, target, sourceHandle: null });

describe("a crash between the webhook's answer and the bot's reply", () => {
  it('sends the reply exactly once after a restart on the same data', async () => {
    const first = await startServer();
    const api = (base: string, token: string | undefined, method: string, route: string, body?: unknown) =>
      fetch(`${base}${route}`, {
        method,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    const registered = await api(first.url, undefined, 'POST', '/api/auth/register', registrationPayload());
    expect(registered.status).toBe(201);
    const { token } = (await registered.json()) as { token: string };
    const [funnel] = (await (await api(first.url, token, 'GET', '/api/funnels/summary')).json()) as { id: string }[];
    const [column] = (await (await api(first.url, token, 'GET', `/api/funnels/${funnel!.id}/columns`)).json()) as { id: string }[];
    const bot = (await (await api(first.url, token, 'POST', '/api/bots', { name: 'Pedidos' })).json()) as { id: string };
    const config = {
      nodes: [
        node('inicio', 'trigger', { triggerType: 'on_message_received' }),
        node('consulta', 'webhook', { url: `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/pedido`, method: 'POST', body: '{}' }),
        node('respuesta', 'sendMessage', { text: 'Tu pedido va en camino.' }),
      ],
      edges: [edge('inicio', 'consulta'), edge('consulta', 'respuesta')],
    };
    expect((await api(first.url, token, 'PUT', `/api/bots/${bot.id}`, { name: 'Pedidos', config })).status).toBe(200);
    expect((await api(first.url, token, 'PUT', `/api/columns/${column!.id}`, { assistant_bot_id: bot.id })).status).toBe(200);

    const phone = '5215598760001';
    // The sandbox phone posts Gupshup's callback to the webhook and answers once the webhook answered 2xx.
    const sent = await api(first.url, token, 'POST', '/sandbox/api/send', { phone, name: 'Marta', message: { kind: 'text', text: '¿Y mi pedido?' } });
    expect(sent.status).toBe(201);
    const deadline = Date.now() + 10_000;
    while (hookCalls === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hookCalls).toBe(1);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startServer();
    try {
      const toCustomer = async () => {
        const answer = await api(second.url, token, 'GET', `/sandbox/api/conversation?phone=${phone}`);
        const { messages } = (await answer.json()) as { messages: { direction: string; body: { text?: string } }[] };
        return messages.filter((message) => message.direction === 'to_customer');
      };
      const replyDeadline = Date.now() + 25_000;
      let replies = await toCustomer();
      while (replies.length === 0 && Date.now() < replyDeadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        replies = await toCustomer();
      }
      // A little longer: a second copy would show up now if the step ran twice.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      replies = await toCustomer();
      expect(replies.map((reply) => reply.body.text)).toEqual(['Tu pedido va en camino.']);
      expect(hookCalls).toBe(2);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }, 240_000);
});
