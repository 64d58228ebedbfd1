import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ONE_TRIGGER_ONLY } from '@embudo/contracts/flows/flow';
import { BOT_NAME_REQUIRED } from '@embudo/contracts/http/bots';
import { boardColumns, botSessions, bots } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { signedInMember } from '../../../test/support/members.ts';
import { optionsFlow } from './bots-test-flows.ts';
import { HANDED_TO_HUMAN } from './bot-simulation.service.ts';
import { AI_NOT_CONFIGURED } from './runtime/nodes/aiPrompt.ts';
import { HANDOFF_TEXT } from './runtime/nodes/assignToHuman.ts';
import { EMAIL_NOT_CONFIGURED } from './runtime/nodes/sendEmail.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
});
afterAll(async () => t.close());

type Owner = Awaited<ReturnType<typeof registerTenant>>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (who: { token: string }, method: Method, path: string, payload?: unknown) =>
  t.app.inject({ method, url: `/api${path}`, headers: bearer(who.token), payload: payload as object });

async function company() {
  const owner = await registerTenant(t.app);
  const [funnel] = (await call(owner, 'GET', '/funnels/summary')).json();
  const columns = (await call(owner, 'GET', `/funnels/${funnel.id}/columns`)).json() as { id: string; title: string }[];
  return { owner, funnelId: funnel.id as string, columns };
}
async function newBot(owner: Owner, name = 'Agenda', type?: string) {
  const created = await call(owner, 'POST', '/bots', { name, type, avatar_icon: type });
  expect(created.statusCode).toBe(201);
  return created.json() as { id: string; name: string; type: string };
}
const botRows = (tenantId: string) => t.database.db.select().from(bots).where(eq(bots.tenantId, tenantId));

describe('POST /api/bots and GET /api/bots', () => {
  it('creates a scheduling bot by default with an empty flow and the type as avatar, then lists it', async () => {
    const { owner } = await company();
    const created = await call(owner, 'POST', '/bots', { name: '  Citas  ' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Citas', type: 'scheduling', avatar_icon: 'scheduling', config: { nodes: [], edges: [] } });
    const billing = await call(owner, 'POST', '/bots', { name: 'Cobros', type: 'billing', avatar_icon: 'scheduling' });
    expect(billing.json()).toMatchObject({ type: 'billing', avatar_icon: 'billing' });

    const list = await call(owner, 'GET', '/bots');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((bot: { name: string }) => bot.name)).toEqual(['Citas', 'Cobros']);
    const other = await company();
    expect((await call(other.owner, 'GET', '/bots')).json()).toEqual([]);
  });

  it.each([
    ['no name', { type: 'billing' }, BOT_NAME_REQUIRED],
    ['a blank name', { name: '   ' }, BOT_NAME_REQUIRED],
    ['an unknown type', { name: 'Bot', type: 'sales' }, 'Tipo de bot inválido: usa scheduling o billing.'],
  ])('refuses %s with 400 and writes nothing', async (_case, payload, message) => {
    const { owner } = await company();
    const response = await call(owner, 'POST', '/bots', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect(await botRows(owner.tenant.id)).toHaveLength(0);
  });

  it('lets owners and admins create bots; agents and viewers read the list but may not create', async () => {
    const { owner, funnelId } = await company();
    const admin = await signedInMember(t.app, t.database.db, owner.tenant, 'admin');
    expect((await call(admin, 'POST', '/bots', { name: 'Del admin' })).statusCode).toBe(201);
    for (const role of ['agent', 'viewer'] as const) {
      const member = await signedInMember(t.app, t.database.db, owner.tenant, role, [funnelId]);
      const refused = await call(member, 'POST', '/bots', { name: 'No' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('Solo el propietario o un administrador pueden realizar esta acción.');
      expect((await call(member, 'GET', '/bots')).json()).toHaveLength(1);
    }
    expect(await botRows(owner.tenant.id)).toHaveLength(1);
  });
});

describe('GET, PUT and DELETE /api/bots/{id}', () => {
  it('saves the name and the flow, every node checked by its contract, and loads them back', async () => {
    const { owner, columns } = await company();
    const bot = await newBot(owner);
    const config = optionsFlow();
    const saved = await call(owner, 'PUT', `/bots/${bot.id}`, { name: 'Agenda v2', config });
    expect(saved.statusCode).toBe(200);
    const loaded = await call(owner, 'GET', `/bots/${bot.id}`);
    expect(loaded.statusCode).toBe(200);
    expect(loaded.json()).toMatchObject({ id: bot.id, name: 'Agenda v2', type: 'scheduling', avatar_icon: 'scheduling' });
    expect(loaded.json().config.nodes.map((node: { id: string }) => node.id)).toEqual(config.nodes.map((node) => node.id));
    expect(loaded.json().config.edges).toEqual(config.edges.map((edge) => ({ ...edge, targetHandle: null })));

    // Missing optional data takes the spec defaults (timer 5 minutes, webhook POST {}, condition on the user response).
    const withDefaults = await call(owner, 'PUT', `/bots/${bot.id}`, {
      name: 'Agenda v2',
      config: {
        nodes: [
          { id: 'trigger-1', type: 'trigger', position: { x: 0, y: 0 }, data: { label: 'Inicio' } },
          { id: 'timer-1', type: 'timer', position: { x: 0, y: 100 }, data: { label: 'Espera' } },
          { id: 'webhook-1', type: 'webhook', position: { x: 0, y: 200 }, data: { label: 'Aviso', url: 'https://example.com/hook' } },
          { id: 'condition-1', type: 'condition', position: { x: 0, y: 300 }, data: { label: '¿Sí?' } },
          { id: 'trigger-entry', type: 'sendMessage', position: { x: 0, y: 400 }, data: { label: 'Hola', text: 'Hola' } },
        ],
        edges: [],
      },
    });
    expect(withDefaults.statusCode).toBe(200);
    const nodes = withDefaults.json().config.nodes;
    expect(nodes[0].data).toEqual({ label: 'Inicio', triggerType: 'on_message_received', columnId: '' });
    expect(nodes[1].data).toEqual({ label: 'Espera', duration: 5, unit: 'minutes' });
    expect(nodes[2].data).toMatchObject({ method: 'POST', body: '{}' });
    expect(nodes[3].data).toMatchObject({ variable: 'user_response', operator: 'contains' });

    // A trigger on column entry names one of this company's columns.
    const entry = await call(owner, 'PUT', `/bots/${bot.id}`, {
      name: 'Agenda v2',
      config: {
        nodes: [
          { id: 'trigger-1', type: 'trigger', position: { x: 0, y: 0 }, data: { label: 'Entrada', triggerType: 'on_column_entry', columnId: columns[1]!.id } },
        ],
        edges: [],
      },
    });
    expect(entry.statusCode).toBe(200);
  });

  it.each([
    ['two trigger nodes', (c: ReturnType<typeof optionsFlow>) => ({ ...c, nodes: [...c.nodes, { ...c.nodes[0]!, id: 'trigger-2' }] }), ONE_TRIGGER_ONLY],
    [
      'an edge to a node that is not in the flow',
      (c: ReturnType<typeof optionsFlow>) => ({ ...c, edges: [...c.edges, { id: 'e-x', source: 'trigger-1', target: 'ghost', sourceHandle: null }] }),
      'La conexión e-x une nodos que no existen en el flujo.',
    ],
    [
      'an unknown node type',
      (c: ReturnType<typeof optionsFlow>) => ({ ...c, nodes: [...c.nodes, { id: 'x-1', type: 'teleport', position: { x: 0, y: 0 }, data: {} }] }),
      'Tipo de nodo desconocido',
    ],
    [
      'a webhook with method PUT',
      (c: ReturnType<typeof optionsFlow>) => ({
        ...c,
        nodes: [...c.nodes, { id: 'w-1', type: 'webhook', position: { x: 0, y: 0 }, data: { label: 'Avisar', url: '', method: 'PUT', body: '{}' } }],
      }),
      'Nodo «Avisar»: Método inválido: usa GET o POST.',
    ],
    [
      'a column-entry trigger without a column',
      (c: ReturnType<typeof optionsFlow>) => ({
        ...c,
        nodes: c.nodes.map((node) => (node.type === 'trigger' ? { ...node, data: { label: 'Inicio', triggerType: 'on_column_entry', columnId: '' } } : node)),
      }),
      'Nodo «Inicio»: El disparador «Al entrar a una columna» necesita una columna.',
    ],
    [
      'a redirect to a column that does not exist',
      (c: ReturnType<typeof optionsFlow>) => ({
        ...c,
        nodes: [
          ...c.nodes,
          { id: 'r-1', type: 'redirect', position: { x: 0, y: 0 }, data: { label: 'Mover', targetType: 'column', targetId: crypto.randomUUID() } },
        ],
      }),
      'Nodo «Mover»: la columna elegida no existe.',
    ],
    [
      'a timer of 0 minutes',
      (c: ReturnType<typeof optionsFlow>) => ({
        ...c,
        nodes: [...c.nodes, { id: 't-1', type: 'timer', position: { x: 0, y: 0 }, data: { label: 'Espera', duration: 0, unit: 'minutes' } }],
      }),
      'Nodo «Espera»: La duración debe ser un número mayor que 0.',
    ],
  ])('refuses %s with 400 and keeps the saved flow', async (_case, change, message) => {
    const { owner } = await company();
    const bot = await newBot(owner);
    expect((await call(owner, 'PUT', `/bots/${bot.id}`, { name: 'Agenda', config: optionsFlow() })).statusCode).toBe(200);
    const refused = await call(owner, 'PUT', `/bots/${bot.id}`, { name: 'Cambiado', config: change(optionsFlow()) });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain(message);
    const [row] = await botRows(owner.tenant.id);
    expect(row!.name).toBe('Agenda');
    expect(row!.config.nodes).toHaveLength(optionsFlow().nodes.length);
  });

  it('refuses a name left blank on save, and a column of another company', async () => {
    const { owner } = await company();
    const other = await company();
    const bot = await newBot(owner);
    expect((await call(owner, 'PUT', `/bots/${bot.id}`, { name: '', config: optionsFlow() })).json().message).toBe(BOT_NAME_REQUIRED);
    const foreign = await call(owner, 'PUT', `/bots/${bot.id}`, {
      name: 'Agenda',
      config: {
        nodes: [
          {
            id: 'trigger-1',
            type: 'trigger',
            position: { x: 0, y: 0 },
            data: { label: 'Entrada', triggerType: 'on_column_entry', columnId: other.columns[0]!.id },
          },
        ],
        edges: [],
      },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe('Nodo «Entrada»: la columna elegida no existe.');
  });

  it("answers another company's bot like a missing one, and refuses agents opening, changing or trying it", async () => {
    const { owner, funnelId } = await company();
    const other = await company();
    const bot = await newBot(owner);
    for (const [method, path, payload] of [
      ['GET', `/bots/${bot.id}`],
      ['PUT', `/bots/${bot.id}`, { name: 'X', config: optionsFlow() }],
      ['DELETE', `/bots/${bot.id}`],
      ['POST', `/bots/${bot.id}/simulate`, { message: 'hola', botConfig: optionsFlow() }],
    ] as const) {
      const response = await call(other.owner, method, path, payload);
      expect(response.statusCode, `${method} ${path}`).toBe(404);
      expect(response.json().message).toBe('Bot no encontrado.');
    }
    expect((await call(owner, 'GET', `/bots/${crypto.randomUUID()}`)).statusCode).toBe(404);
    expect((await call(owner, 'GET', '/bots/no-es-un-id')).statusCode).toBe(400);

    const agent = await signedInMember(t.app, t.database.db, owner.tenant, 'agent', [funnelId]);
    expect((await call(agent, 'GET', `/bots/${bot.id}`)).statusCode).toBe(403);
    expect((await call(agent, 'PUT', `/bots/${bot.id}`, { name: 'X', config: optionsFlow() })).statusCode).toBe(403);
    expect((await call(agent, 'DELETE', `/bots/${bot.id}`)).statusCode).toBe(403);
    expect((await call(agent, 'POST', `/bots/${bot.id}/simulate`, { message: 'hola', botConfig: optionsFlow() })).statusCode).toBe(403);
    expect(await botRows(owner.tenant.id)).toHaveLength(1);
  });

  it('deletes a bot and clears it from the columns that ran it', async () => {
    const { owner, columns } = await company();
    const bot = await newBot(owner);
    const keep = await newBot(owner, 'Cobros', 'billing');
    expect((await call(owner, 'PUT', `/columns/${columns[0]!.id}`, { assistant_bot_id: bot.id })).json().assistant_bot_id).toBe(bot.id);
    expect((await call(owner, 'PUT', `/columns/${columns[1]!.id}`, { assistant_bot_id: bot.id })).statusCode).toBe(200);
    expect((await call(owner, 'PUT', `/columns/${columns[2]!.id}`, { assistant_bot_id: keep.id })).statusCode).toBe(200);

    const deleted = await call(owner, 'DELETE', `/bots/${bot.id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await call(owner, 'GET', `/bots/${bot.id}`)).statusCode).toBe(404);
    const rows = await t.database.db.select().from(boardColumns).where(eq(boardColumns.tenantId, owner.tenant.id));
    expect(rows.filter((row) => row.assistantBotId === bot.id)).toHaveLength(0);
    expect(rows.find((row) => row.id === columns[2]!.id)!.assistantBotId).toBe(keep.id);
    expect((await call(owner, 'DELETE', `/bots/${bot.id}`)).statusCode).toBe(404);
  });
});

describe('PUT /api/columns/{id} assistant_bot_id', () => {
  it('takes only a bot of this company', async () => {
    const { owner, columns } = await company();
    const other = await company();
    const foreignBot = await newBot(other.owner);
    for (const botId of [foreignBot.id, crypto.randomUUID()]) {
      const refused = await call(owner, 'PUT', `/columns/${columns[0]!.id}`, { assistant_bot_id: botId });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().message).toBe('Bot no encontrado.');
    }
    expect((await call(owner, 'PUT', `/columns/${columns[0]!.id}`, { assistant_bot_id: 'bot-1' })).statusCode).toBe(400);
    const [row] = await t.database.db.select().from(boardColumns).where(eq(boardColumns.id, columns[0]!.id));
    expect(row!.assistantBotId).toBeNull();
  });
});

describe('POST /api/bots/{id}/simulate and DELETE /api/bots/simulation/{sessionId}', () => {
  it('runs the unsaved flow in a server-side session: options, the chosen branch, then a reset', async () => {
    const { owner } = await company();
    const bot = await newBot(owner);
    const botConfig = optionsFlow();
    const first = await call(owner, 'POST', `/bots/${bot.id}/simulate`, { message: 'Hola', sessionId: null, botConfig });
    expect(first.statusCode).toBe(200);
    const { sessionId, reply, options } = first.json();
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(reply).toBe('¿Qué necesitas?\n1. Agendar cita\n2. Hablar con ventas');
    expect(options.map((option: { label: string }) => option.label)).toEqual(['Agendar cita', 'Hablar con ventas']);
    // The saved bot is still empty: the playground ran what the editor sent.
    expect((await call(owner, 'GET', `/bots/${bot.id}`)).json().config.nodes).toEqual([]);

    const chosen = await call(owner, 'POST', `/bots/${bot.id}/simulate`, { message: 'hablar con VENTAS', sessionId, botConfig });
    expect(chosen.json()).toEqual({ sessionId, reply: 'Te paso con ventas.', replies: ['Te paso con ventas.'], options: [] });

    // The flow ended; the next message starts it over in the same session.
    const again = await call(owner, 'POST', `/bots/${bot.id}/simulate`, { message: 'otra vez', sessionId, botConfig });
    expect(again.json().sessionId).toBe(sessionId);
    const unknown = await call(owner, 'POST', `/bots/${bot.id}/simulate`, { message: 'quizás', sessionId, botConfig });
    expect(unknown.json().reply).toBe('No reconocí tu respuesta. Elige una de estas opciones:\n1. Agendar cita\n2. Hablar con ventas');
    expect((await call(owner, 'POST', `/bots/${bot.id}/simulate`, { message: '1', sessionId, botConfig })).json().reply).toBe('Perfecto, agendemos tu cita.');

    const reset = await call(owner, 'DELETE', `/bots/simulation/${sessionId}`);
    expect(reset.statusCode).toBe(204);
    expect(await t.database.db.select().from(botSessions).where(eq(botSessions.id, sessionId))).toHaveLength(0);
    expect((await call(owner, 'DELETE', `/bots/simulation/${sessionId}`)).statusCode).toBe(404);
    // A finished session is not reused: the next message gets a new one.
    const fresh = await call(owner, 'POST', `/bots/${bot.id}/simulate`, { message: 'Hola', sessionId, botConfig });
    expect(fresh.json().sessionId).not.toBe(sessionId);
  });

  it('answers with each message and note as it ran, one by one: Webhook, then Email, then AI', async () => {
    const { owner } = await company();
    const bot = await newBot(owner);
    const node = (id: string, type: string, data: Record<string, unknown>, y: number) => ({ id, type, position: { x: 0, y }, data });
    const botConfig = {
      nodes: [
        node('trigger-1', 'trigger', { label: 'Inicio', triggerType: 'on_message_received', columnId: '' }, 0),
        node('webhook-1', 'webhook', { label: 'Avisar al CRM', url: '', method: 'POST', body: '{}' }, 100),
        node('email-1', 'sendEmail', { label: 'Correo', to: 'ventas@example.com', subject: 'Nuevo', body: 'Hola' }, 200),
        node('ai-1', 'aiPrompt', { label: 'IA', prompt: 'Responde amable', tools: [] }, 300),
      ],
      edges: [
        ['trigger-1', 'webhook-1'],
        ['webhook-1', 'email-1'],
        ['email-1', 'ai-1'],
      ].map(([source, target]) => ({ id: `${source}-${target}`, source, target, sourceHandle: null, targetHandle: null })),
    };
    const answer = (await call(owner, 'POST', `/bots/${bot.id}/simulate`, { message: 'Hola', botConfig })).json();
    expect(answer.replies).toEqual(['[«Avisar al CRM» no tiene URL: no se llamó]', `[✉ ${EMAIL_NOT_CONFIGURED}]`, AI_NOT_CONFIGURED]);
    expect(answer.reply).toBe(answer.replies.join('\n\n'));
  });

  it('stays silent after Asignar a Humano, as a live chat does, until the conversation is restarted', async () => {
    const { owner } = await company();
    const bot = await newBot(owner);
    const botConfig = {
      nodes: [
        { id: 'trigger-1', type: 'trigger', position: { x: 0, y: 0 }, data: { label: 'Inicio', triggerType: 'on_message_received', columnId: '' } },
        { id: 'human-1', type: 'assignToHuman', position: { x: 0, y: 100 }, data: { label: 'Persona', agentId: '' } },
      ],
      edges: [{ id: 'e1', source: 'trigger-1', target: 'human-1', sourceHandle: null, targetHandle: null }],
    };
    const first = (await call(owner, 'POST', `/bots/${bot.id}/simulate`, { message: 'Hola', botConfig })).json();
    expect(first.replies).toEqual([HANDOFF_TEXT, '[Chat asignado al equipo; el bot deja de responder]']);
    const later = (await call(owner, 'POST', `/bots/${bot.id}/simulate`, { message: '¿Hola?', sessionId: first.sessionId, botConfig })).json();
    expect(later).toEqual({ sessionId: first.sessionId, reply: HANDED_TO_HUMAN, replies: [HANDED_TO_HUMAN], options: [] });
  });

  it('refuses an empty message or a bad flow with 400, writing no session; another company cannot end a session', async () => {
    const { owner, funnelId } = await company();
    const other = await company();
    const bot = await newBot(owner);
    const blank = await call(owner, 'POST', `/bots/${bot.id}/simulate`, { message: '   ', botConfig: optionsFlow() });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe('Escribe un mensaje.');
    const twoTriggers = optionsFlow();
    twoTriggers.nodes.push({ ...twoTriggers.nodes[0]!, id: 'trigger-2' });
    const bad = await call(owner, 'POST', `/bots/${bot.id}/simulate`, { message: 'hola', botConfig: twoTriggers });
    expect(bad.json().message).toBe(ONE_TRIGGER_ONLY);
    expect(await t.database.db.select().from(botSessions).where(eq(botSessions.tenantId, owner.tenant.id))).toHaveLength(0);

    const { sessionId } = (await call(owner, 'POST', `/bots/${bot.id}/simulate`, { message: 'hola', botConfig: optionsFlow() })).json();
    expect((await call(other.owner, 'DELETE', `/bots/simulation/${sessionId}`)).statusCode).toBe(404);
    // Another company's session id is never continued: it starts a session of its own.
    const otherBot = await newBot(other.owner);
    const theirs = await call(other.owner, 'POST', `/bots/${otherBot.id}/simulate`, { message: '1', sessionId, botConfig: optionsFlow() });
    expect(theirs.json().sessionId).not.toBe(sessionId);
    expect(theirs.json().reply).toContain('¿Qué necesitas?');
    const agent = await signedInMember(t.app, t.database.db, owner.tenant, 'agent', [funnelId]);
    expect((await call(agent, 'DELETE', `/bots/simulation/${sessionId}`)).statusCode).toBe(403);
    expect((await call(owner, 'DELETE', `/bots/simulation/${sessionId}`)).statusCode).toBe(204);
  });
});
