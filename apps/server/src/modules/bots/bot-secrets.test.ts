import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { SECRET_MASK } from '@embudo/contracts/flows/node-secrets';
import { bots } from '../../../db/schema/index.ts';
import { startFakeWebhookServer } from '../../../test/fakes/fake-webhook-server.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { signedInMember } from '../../../test/support/members.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { sandboxAppName } from '../tenants/index.ts';
import { maskWithoutSecret } from './bot-secrets.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAAABJRU5ErkJggg==', 'base64');
const TOKEN = 'tok-live-9f8e7d6c5b4a3210';
const MASKED = `${SECRET_MASK}3210`;

let t: TestApp;
let web: Awaited<ReturnType<typeof startFakeWebhookServer>>;
beforeAll(async () => {
  // The image node fetches from a local fake server, so private addresses are allowed here.
  t = await buildTestApp({ providerMode: 'sandbox', allowPrivateOutbound: true });
  await listenOnRandomPort(t.app);
  web = await startFakeWebhookServer();
  web.route('/foto.png', (request) =>
    request.headers.authorization === `Bearer ${TOKEN}` ? { body: PNG, contentType: 'image/png' } : { status: 401, body: 'no' },
  );
});
afterAll(async () => {
  await web.close();
  await t.close();
});

type Owner = Awaited<ReturnType<typeof registerTenant>>;
type Method = 'GET' | 'POST' | 'PUT';
const call = (who: { token: string }, method: Method, path: string, payload?: unknown) =>
  t.app.inject({ method, url: `/api${path}`, headers: bearer(who.token), payload: payload as object });

/** trigger → image node (the token under test) → "listo". */
function imageFlow(authToken: string, imageId = 'imagen') {
  return {
    nodes: [
      { id: 'inicio', type: 'trigger', position: { x: 0, y: 0 }, data: { label: 'Inicio', triggerType: 'on_message_received', columnId: '' } },
      {
        id: imageId,
        type: 'sendImage',
        position: { x: 0, y: 100 },
        data: { label: 'Catálogo', imageUrl: `${web.url}/foto.png`, authToken, errorMessage: 'Sin imagen.' },
      },
      { id: 'listo', type: 'sendMessage', position: { x: 0, y: 200 }, data: { label: 'Listo', text: 'listo' } },
    ],
    edges: [
      { id: 'e1', source: 'inicio', target: imageId, sourceHandle: null, targetHandle: null },
      { id: 'e2', source: imageId, target: 'listo', sourceHandle: null, targetHandle: null },
    ],
  };
}

async function botWithToken(owner: Owner, authToken = TOKEN) {
  const bot = (await call(owner, 'POST', '/bots', { name: 'Catálogo' })).json() as { id: string };
  const saved = await call(owner, 'PUT', `/bots/${bot.id}`, { name: 'Catálogo', config: imageFlow(authToken) });
  expect(saved.statusCode, saved.body).toBe(200);
  return { id: bot.id, saved };
}
const storedRow = async (botId: string) => (await t.database.db.select().from(bots).where(eq(bots.id, botId)))[0]!;
const storedToken = async (botId: string) => (await storedRow(botId)).config.nodes.find((node) => node.type === 'sendImage')!.data.authToken as string;
const tokenIn = (answer: { body: string }) => (JSON.parse(answer.body) as { config: ReturnType<typeof imageFlow> }).config.nodes[1]!.data.authToken;

describe('credentials in bot nodes', () => {
  it('are stored sealed and answered masked (last four only) by the save and by GET', async () => {
    const owner = await registerTenant(t.app);
    const { id, saved } = await botWithToken(owner);
    expect(tokenIn(saved)).toBe(MASKED);
    const loaded = await call(owner, 'GET', `/bots/${id}`);
    expect(tokenIn(loaded)).toBe(MASKED);
    expect(loaded.body).not.toContain(TOKEN);
    expect(JSON.stringify((await storedRow(id)).config)).not.toContain(TOKEN);
    expect(await storedToken(id)).toMatch(/^v1:/);
    expect((await call(owner, 'GET', '/bots')).body).not.toContain('config');

    // A short token shows nothing of itself.
    const short = await botWithToken(owner, 'abc123');
    expect(tokenIn(short.saved)).toBe(SECRET_MASK);
  });

  it('keep the stored secret when the mask comes back, take a new value, and go away when cleared', async () => {
    const owner = await registerTenant(t.app);
    const { id } = await botWithToken(owner);
    const sealed = await storedToken(id);
    const same = await call(owner, 'PUT', `/bots/${id}`, { name: 'Renombrado', config: imageFlow(MASKED) });
    expect(same.statusCode).toBe(200);
    expect(await storedToken(id)).toBe(sealed);

    const replaced = await call(owner, 'PUT', `/bots/${id}`, { name: 'Catálogo', config: imageFlow('otro-token-nuevo-0000') });
    expect(tokenIn(replaced)).toBe(`${SECRET_MASK}0000`);
    expect(await storedToken(id)).not.toBe(sealed);

    const cleared = await call(owner, 'PUT', `/bots/${id}`, { name: 'Catálogo', config: imageFlow('') });
    expect(tokenIn(cleared)).toBe('');
    expect(await storedToken(id)).toBe('');
  });

  it('refuse a mask that stands for no stored secret of that node (400, nothing written)', async () => {
    const owner = await registerTenant(t.app);
    const { id } = await botWithToken(owner);
    const before = await storedRow(id);
    for (const config of [imageFlow(MASKED, 'imagen-copiada'), imageFlow(`${SECRET_MASK}zzzz`)]) {
      const refused = await call(owner, 'PUT', `/bots/${id}`, { name: 'Cambiado', config });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(maskWithoutSecret('Catálogo'));
    }
    expect(await storedRow(id)).toEqual(before);
  });

  it('seal a flow saved before secrets were sealed, the next time it is saved', async () => {
    const owner = await registerTenant(t.app);
    const bot = (await call(owner, 'POST', '/bots', { name: 'Antiguo' })).json() as { id: string };
    await t.database.db
      .update(bots)
      .set({ config: imageFlow(TOKEN) as never })
      .where(and(eq(bots.id, bot.id), eq(bots.tenantId, owner.tenant.id)));
    expect(tokenIn(await call(owner, 'GET', `/bots/${bot.id}`))).toBe(MASKED);
    expect((await call(owner, 'PUT', `/bots/${bot.id}`, { name: 'Antiguo', config: imageFlow(MASKED) })).statusCode).toBe(200);
    expect(await storedToken(bot.id)).toMatch(/^v1:/);
  });

  it('run with the stored secret in the playground when the editor sends the mask, and never show it', async () => {
    const owner = await registerTenant(t.app);
    const { id } = await botWithToken(owner);
    const before = web.received.length;
    const answer = await call(owner, 'POST', `/bots/${id}/simulate`, { message: 'hola', botConfig: imageFlow(MASKED) });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().reply).toBe(`🖼 Imagen: ${web.url}/foto.png\n\nlisto`);
    expect(answer.body).not.toContain(TOKEN);
    expect(web.received.slice(before).map((request) => request.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);

    const unsaved = await call(owner, 'POST', `/bots/${id}/simulate`, { message: 'hola', botConfig: imageFlow('token-sin-guardar') });
    expect(unsaved.json().reply).toContain('Sin imagen.');
    const foreignMask = await call(owner, 'POST', `/bots/${id}/simulate`, { message: 'hola', botConfig: imageFlow(MASKED, 'otro-nodo') });
    expect(foreignMask.statusCode).toBe(400);
  });

  it('run with the stored secret in a live chat', async () => {
    const owner = await registerTenant(t.app);
    const { id } = await botWithToken(owner);
    const [funnel] = (await call(owner, 'GET', '/funnels/summary')).json();
    const [first] = (await call(owner, 'GET', `/funnels/${funnel.id}/columns`)).json() as { id: string }[];
    expect((await call(owner, 'PUT', `/columns/${first!.id}`, { assistant_bot_id: id })).statusCode).toBe(200);
    const before = web.received.length;
    await t.app.sandboxPhone!.customerSends({
      appName: sandboxAppName(owner.tenant),
      phone: `52155${String(Date.now()).slice(-8)}`,
      name: 'Marta',
      kind: 'text',
      text: 'Hola',
    });
    // The column's bot answers from its customer-message.stored listener, after the webhook has answered.
    await t.app.queue.drain();
    expect(web.received.slice(before).map((request) => request.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);
  });
});

describe('who opens a bot', () => {
  it('owners and admins open its flow; agents and viewers get 403 but still list the bots, without flows', async () => {
    const owner = await registerTenant(t.app);
    const { id } = await botWithToken(owner);
    const [funnel] = (await call(owner, 'GET', '/funnels/summary')).json();
    const admin = await signedInMember(t.app, t.database.db, owner.tenant, 'admin');
    expect(tokenIn(await call(admin, 'GET', `/bots/${id}`))).toBe(MASKED);
    for (const role of ['agent', 'viewer'] as const) {
      const member = await signedInMember(t.app, t.database.db, owner.tenant, role, [funnel.id]);
      const refused = await call(member, 'GET', `/bots/${id}`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('Solo el propietario o un administrador pueden realizar esta acción.');
      const list = await call(member, 'GET', '/bots');
      expect(list.json()).toEqual([expect.objectContaining({ id, name: 'Catálogo' })]);
      expect(list.json()[0]).not.toHaveProperty('config');
    }
  });
});
