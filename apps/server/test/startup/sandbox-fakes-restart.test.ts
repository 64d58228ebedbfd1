import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { registrationPayload } from '../support/factories.ts';
import { api, startServerProcess, type ServerProcess } from '../support/server-process.ts';

/**
 * Issue 43's acceptance at process level: the sandbox fakes keep their templates and the statuses they still owe in
 * the database. A sandbox server is killed with SIGKILL after a template was approved and while a message's statuses
 * are still on their way; started again on the same DATA_DIR, the approved template sends and the message reaches
 * read (ack 3).
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-fakes-'));
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  await Promise.all(servers.map((server) => server.exited));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const start = async (env: Record<string, string> = {}) => {
  const server = await startServerProcess({ DATA_DIR: dataDir, ...env }, 90_000);
  servers.push(server);
  return server;
};

/** Polls until the probe answers something, or fails after the deadline. */
async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type Message = { id: string; ack: number; sender: string; type: string };
type Board = { columns: Array<{ cards: Array<{ id: string; phone: string | null }> }> };

describe('the sandbox fakes after kill -9', () => {
  it('still send an approved template, and statuses in flight arrive', async () => {
    // Three seconds between a message's statuses: the kill comes while its delivered and read are still owed.
    const first = await start({ SANDBOX_STATUS_STEP_MS: '3000' });
    const registered = await api(first.url, undefined, 'POST', '/api/auth/register', registrationPayload());
    expect(registered.status).toBe(201);
    const { token } = (await registered.json()) as { token: string };
    const call = async <T>(server: ServerProcess, method: string, route: string, body?: unknown) => {
      const response = await api(server.url, token, method, route, body);
      if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    };

    const created = await call<{ id: string }>(first, 'POST', '/api/templates', {
      name: 'pedido_enviado',
      category: 'UTILITY',
      body_text: 'Tu pedido salió hoy.',
    });
    // The fake approves it after its review and says so by webhook.
    await until(
      async () =>
        (await call<Array<{ id: string; status: string }>>(first, 'GET', '/api/templates')).find((t) => t.id === created.id)?.status === 'APPROVED'
          ? true
          : undefined,
      20_000,
      'template approved',
    );

    const phone = '5215598760043';
    expect((await api(first.url, token, 'POST', '/sandbox/api/send', { phone, name: 'Rita', message: { kind: 'text', text: 'Hola' } })).status).toBe(201);
    const [funnel] = await call<Array<{ id: string }>>(first, 'GET', '/api/funnels/summary');
    const cardId = await until(
      async () =>
        (await call<Board>(first, 'GET', `/api/funnels/${funnel!.id}/board`)).columns
          .flatMap((column) => column.cards)
          .find((card) => card.phone?.replace(/\D/g, '') === phone)?.id,
      20_000,
      'card',
    );
    const messagesOf = async (server: ServerProcess) =>
      (await call<{ messages: Message[] }>(server, 'GET', `/api/cards/${cardId}/messages`)).messages.filter((message) => message.sender !== 'contact');
    const inFlight = await call<{ id: string }>(first, 'POST', '/api/message', { cardId, text: 'Va en camino' });
    // The fake took it (its first status came back), and delivered and read are still owed.
    const ackAtKill = await until(
      async () => {
        const ack = (await messagesOf(first)).find((message) => message.id === inFlight.id)?.ack;
        return ack !== undefined && ack >= 1 ? ack : undefined;
      },
      20_000,
      'message taken by the fake',
    );
    first.child.kill('SIGKILL');
    await first.exited;
    expect(ackAtKill).toBeLessThan(3);

    const second = await start();
    const sent = await call<{ id: string }>(second, 'POST', '/api/message/template', { cardId, templateId: created.id, variables: [] });
    const acks = await until(
      async () => {
        const messages = await messagesOf(second);
        const ackOf = (id: string) => messages.find((message) => message.id === id)?.ack;
        return ackOf(inFlight.id) === 3 && ackOf(sent.id) === 3
          ? { inFlight: 3, template: 3 }
          : ackOf(sent.id) === -1
            ? { inFlight: ackOf(inFlight.id), template: -1 }
            : undefined;
      },
      30_000,
      'both messages read',
    );
    expect(acks).toEqual({ inFlight: 3, template: 3 });
    second.child.kill('SIGTERM');
    await second.exited;
  }, 240_000);
});
