import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { sandboxAppName } from '../tenants/index.ts';

/** Issue 14's acceptance: a flow whose webhook node waits 8 s must not hold the provider's webhook. */
const SLOW_ANSWER_MS = 8_000;

let t: TestApp;
let slowServer: http.Server;
let slowUrl = '';
let slowAnsweredAt = 0;
beforeAll(async () => {
  // The queue's own worker runs, as in production: nothing here drives it by hand.
  t = await buildTestApp({ providerMode: 'sandbox', allowPrivateOutbound: true, runJobs: true });
  await listenOnRandomPort(t.app);
  slowServer = http.createServer((request, response) => {
    request.resume();
    setTimeout(() => {
      slowAnsweredAt = Date.now();
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    }, SLOW_ANSWER_MS);
  });
  await new Promise<void>((resolve) => slowServer.listen(0, '127.0.0.1', resolve));
  slowUrl = `http://127.0.0.1:${(slowServer.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  slowServer.closeAllConnections();
  await new Promise((resolve) => slowServer.close(resolve));
  await t.close();
});

const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data: { label: id, ...data } });
const edge = (source: string, target: string) => ({ id: `${source}-${target}`, source, target, sourceHandle: null });

describe('a column flow bot with a slow webhook node', () => {
  it("lets the inbound webhook answer at once and sends the bot's reply after the slow server answers", async () => {
    const owner = await registerTenant(t.app);
    const call = (method: 'GET' | 'POST' | 'PUT', path: string, payload?: unknown) =>
      t.app.inject({ method, url: `/api${path}`, headers: bearer(owner.token), payload: payload as object });
    const [funnel] = (await call('GET', '/funnels/summary')).json();
    const [firstColumn] = (await call('GET', `/funnels/${funnel.id}/columns`)).json() as { id: string }[];
    const bot = (await call('POST', '/bots', { name: 'Consulta lenta' })).json();
    const config = {
      nodes: [
        node('inicio', 'trigger', { triggerType: 'on_message_received' }),
        node('consulta', 'webhook', { url: slowUrl, method: 'POST', body: '{}' }),
        node('respuesta', 'sendMessage', { text: 'Ya revisé tu pedido.' }),
      ],
      edges: [edge('inicio', 'consulta'), edge('consulta', 'respuesta')],
    };
    expect((await call('PUT', `/bots/${bot.id}`, { name: 'Consulta lenta', config })).statusCode).toBe(200);
    expect((await call('PUT', `/columns/${firstColumn!.id}`, { assistant_bot_id: bot.id })).statusCode).toBe(200);

    const appName = sandboxAppName(owner.tenant);
    const phone = '5215512340001';
    // The sandbox's customerSends posts Gupshup's callback to our webhook and waits for its answer, which must come
    // before the slow server has answered the bot's webhook node (an order of events, not a timing threshold).
    await t.app.sandboxPhone!.customerSends({ appName, phone, name: 'Marta', kind: 'text', text: '¿Dónde está mi pedido?' });
    expect(slowAnsweredAt).toBe(0);

    const deadline = Date.now() + SLOW_ANSWER_MS + 10_000;
    let reply: { body: Record<string, unknown> } | undefined;
    while (!reply && Date.now() < deadline) {
      reply = (await t.app.sandboxPhone!.conversation(appName, phone)).find((entry) => entry.direction === 'to_customer');
      if (!reply) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(reply).toMatchObject({ type: 'text', body: { text: 'Ya revisé tu pedido.' } });
    // Seen on the phone only once the slow server had answered.
    expect(slowAnsweredAt).toBeGreaterThan(0);
  }, 30_000);
});
