import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { botConfig, nodeContracts, type BotConfig, type NodeType } from '@embudo/contracts/flows/flow';
import type { FlowRunState } from '../../../../db/schema/index.ts';
import { startFakeWebhookServer } from '../../../../test/fakes/fake-webhook-server.ts';
import { createOutboundHttp } from '../../../platform/outbound-http/outbound-http.guard.ts';
import { geminiCalls, geminiText, startFakeGeminiServer } from '../../../../test/fakes/fake-gemini-server.ts';
import { createAiModel } from '../../ai/index.ts';
import { createSmtpEmailSender } from '../email-sender.ts';
import { advanceFlow, MAX_STEPS_PER_RUN, newRunState, NO_TRIGGER, type FlowInput } from './flow-runtime.ts';
import type { RuntimeServices } from './node-executor.ts';
import { AI_NOT_CONFIGURED } from './nodes/aiPrompt.ts';
import { HANDOFF_TEXT } from './nodes/assignToHuman.ts';
import { EMAIL_NOT_CONFIGURED } from './nodes/sendEmail.ts';
import { OPTIONS_RETRY_TEXT } from './nodes/sendMessageWithOptions.ts';
import { scheduleTexts } from './nodes/schedule.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAAABJRU5ErkJggg==', 'base64');

let web: Awaited<ReturnType<typeof startFakeWebhookServer>>;
beforeAll(async () => {
  web = await startFakeWebhookServer();
});
afterAll(async () => web.close());

type Step = { type: NodeType; data?: Record<string, unknown>; id?: string };

/** A flow: the trigger, then each step joined to the next by its default output. */
function chain(...steps: Step[]): BotConfig {
  const all: Step[] = [{ type: 'trigger' }, ...steps];
  const nodes = all.map((step, index) => ({
    id: step.id ?? `${step.type}-${index}`,
    type: step.type,
    position: { x: 0, y: index * 100 },
    data: { ...nodeContracts[step.type].defaults, ...step.data },
  }));
  const edges = nodes.slice(1).map((node, index) => ({ id: `e-${index}`, source: nodes[index]!.id, target: node.id, sourceHandle: null }));
  return botConfig.parse({ nodes, edges });
}

function services(overrides: Partial<RuntimeServices> = {}): RuntimeServices & { moved: string[] } {
  const moved: string[] = [];
  return {
    moved,
    http: createOutboundHttp({ allowPrivateNetworks: true, timeoutMs: 2_000 }),
    redirectToColumn: async (columnId) => {
      if (columnId !== 'col-ventas') return undefined;
      moved.push(columnId);
      return 'Ventas';
    },
    columnChoices: async () => [
      { id: 'col-ventas', title: 'Ventas' },
      { id: 'col-soporte', title: 'Soporte' },
    ],
    scheduleMessage: async () => undefined,
    memberName: async (id) => (id === 'agente-1' ? 'Lucía' : undefined),
    nextFreeSlots: async () => [],
    bookSlot: async () => ({ refused: 'Sin agenda en esta prueba.' }),
    ...overrides,
  };
}

const say = (text: string): FlowInput => ({ kind: 'message', answer: { text } });
const texts = (result: Awaited<ReturnType<typeof advanceFlow>>) =>
  result.messages.map((message) => (message.type === 'image' ? `image:${message.mime}` : message.text));

async function runOnce(
  config: BotConfig,
  input: FlowInput = say('hola'),
  mode: 'simulation' | 'live' = 'simulation',
  extra: Partial<RuntimeServices> = {},
  state: FlowRunState = newRunState(),
) {
  const svc = services(extra);
  const result = await advanceFlow(config, state, input, { mode, services: svc });
  return { ...result, moved: svc.moved };
}

describe('advanceFlow', () => {
  it('reports a flow without a trigger', async () => {
    const result = await advanceFlow({ nodes: [], edges: [] }, newRunState(), say('hola'), { mode: 'simulation', services: services() });
    expect(result.reports).toEqual([NO_TRIGGER]);
    expect(result.state.status).toBe('ended');
  });

  it('sendMessage: interpolates variables, the user response among them, and ends where no edge leaves', async () => {
    const result = await runOnce(
      chain({ type: 'sendMessage', data: { text: 'Hola {{contact_name}}, dijiste «{{ user_response }}»{{desconocida}}' } }),
      say('quiero cita'),
      'simulation',
      {},
      newRunState({ contact_name: 'Ana' }),
    );
    expect(texts(result)).toEqual(['Hola Ana, dijiste «quiero cita»']);
    expect(result.state).toMatchObject({ status: 'ended', nodeId: null });
  });

  it('sendMessageWithOptions: waits, follows the edge of the chosen option id, and repeats the options on an unknown answer', async () => {
    const config = chain({
      type: 'sendMessageWithOptions',
      id: 'menu',
      data: {
        text: '¿Qué quieres?',
        options: [
          { id: 'a', label: 'Precios', value: 'precios' },
          { id: 'b', label: 'Horario', value: 'horario' },
        ],
      },
    });
    config.nodes.push(
      { id: 'precios', type: 'sendMessage', position: { x: 0, y: 0 }, data: { label: 'P', text: 'Nuestros precios' } },
      { id: 'horario', type: 'sendMessage', position: { x: 0, y: 0 }, data: { label: 'H', text: 'Abrimos de 9 a 17' } },
    );
    config.edges.push(
      { id: 'ea', source: 'menu', target: 'precios', sourceHandle: 'a', targetHandle: null },
      { id: 'eb', source: 'menu', target: 'horario', sourceHandle: 'b', targetHandle: null },
    );

    const asked = await runOnce(config);
    expect(asked.messages).toEqual([
      {
        type: 'options',
        text: '¿Qué quieres?',
        options: [
          { id: 'a', label: 'Precios', value: 'precios' },
          { id: 'b', label: 'Horario', value: 'horario' },
        ],
      },
    ]);
    expect(asked.state).toMatchObject({ status: 'waiting_input', nodeId: 'menu' });
    expect(asked.waitingOptions?.map((option) => option.id)).toEqual(['a', 'b']);

    const unknown = await runOnce(config, say('no sé'), 'simulation', {}, asked.state);
    expect(unknown.messages[0]).toMatchObject({ type: 'options', text: OPTIONS_RETRY_TEXT });
    expect(unknown.state).toMatchObject({ status: 'waiting_input', nodeId: 'menu' });

    for (const [answer, reply] of [
      ['horario', 'Abrimos de 9 a 17'],
      ['HORARIO ', 'Abrimos de 9 a 17'],
      ['1', 'Nuestros precios'],
      ['Précios', 'Nuestros precios'],
    ] as const) {
      const chosen = await runOnce(config, say(answer), 'simulation', {}, asked.state);
      expect(texts(chosen), answer).toEqual([reply]);
    }
    const pressed = await runOnce(config, { kind: 'message', answer: { text: 'Horario', postback: 'bot-option:a' } }, 'live', {}, asked.state);
    expect(texts(pressed)).toEqual(['Nuestros precios']);
    expect(pressed.state.variables).toMatchObject({ selected_option: 'precios', user_response: 'precios' });
  });

  it.each([
    ['contains', 'quiero una CITA', 'cita', true],
    ['contains', 'hola', 'cita', false],
    ['equals', ' Sí ', 'sí', true],
    ['not_equals', 'no', 'sí', true],
    ['starts_with', 'Hola buenas', 'hola', true],
    ['greater_than', '150,5', '100', true],
    ['greater_than', 'mucho', '100', false],
    ['less_than', '20', '100', true],
  ] as const)('condition %s: "%s" vs "%s" leaves by %s', async (operator, answer, value, holds) => {
    const config = chain({ type: 'condition', id: 'cond', data: { operator, value } });
    config.nodes.push(
      { id: 'yes', type: 'sendMessage', position: { x: 0, y: 0 }, data: { label: 'Sí', text: 'verdadero' } },
      { id: 'no', type: 'sendMessage', position: { x: 0, y: 0 }, data: { label: 'No', text: 'falso' } },
    );
    config.edges.push(
      { id: 'et', source: 'cond', target: 'yes', sourceHandle: 'true', targetHandle: null },
      { id: 'ef', source: 'cond', target: 'no', sourceHandle: 'false', targetHandle: null },
    );
    expect(texts(await runOnce(config, say(answer)))).toEqual([holds ? 'verdadero' : 'falso']);
  });

  it('condition reads a named variable, written bare or as a placeholder', async () => {
    const config = chain(
      { type: 'setVariable', data: { varName: 'ciudad', varValue: 'Bogotá de {{contact_name}}' } },
      { type: 'condition', id: 'cond', data: { variable: '{{ciudad}}', operator: 'starts_with', value: 'bogo' } },
    );
    config.nodes.push({ id: 'yes', type: 'sendMessage', position: { x: 0, y: 0 }, data: { label: 'Sí', text: 'Estás en {{ciudad}}' } });
    config.edges.push({ id: 'et', source: 'cond', target: 'yes', sourceHandle: 'true', targetHandle: null });
    const result = await runOnce(config, say('hola'), 'simulation', {}, newRunState({ contact_name: 'Ana' }));
    expect(texts(result)).toEqual(['Estás en Bogotá de Ana']);
    expect(result.state.variables.ciudad).toBe('Bogotá de Ana');
    const other = chain(
      { type: 'setVariable', data: { varName: 'ciudad', varValue: 'Lima' } },
      { type: 'condition', id: 'cond', data: { variable: 'ciudad', operator: 'starts_with', value: 'bogo' } },
    );
    other.nodes.push({ id: 'yes', type: 'sendMessage', position: { x: 0, y: 0 }, data: { label: 'Sí', text: 'Estás en {{ciudad}}' } });
    other.edges.push({ id: 'et', source: 'cond', target: 'yes', sourceHandle: 'true', targetHandle: null });
    // The false handle has no edge: the flow ends there without a word.
    const ended = await runOnce(other);
    expect(texts(ended)).toEqual([]);
    expect(ended.state.status).toBe('ended');
  });

  it('timer: the playground reports the wait and goes on; a live chat stops for the job queue and resumes after it', async () => {
    const config = chain({ type: 'timer', id: 'espera', data: { duration: 2, unit: 'hours' } }, { type: 'sendMessage', data: { text: '¿Sigues ahí?' } });
    const simulated = await runOnce(config);
    expect(simulated.reports).toEqual(['[⏱ Temporizador de 2 horas: en el Playground no se espera]']);
    expect(texts(simulated)).toEqual(['¿Sigues ahí?']);

    const live = await runOnce(config, say('hola'), 'live');
    expect(texts(live)).toEqual([]);
    expect(live.timer).toEqual({ nodeId: 'espera', ms: 2 * 3_600_000 });
    expect(live.state).toMatchObject({ status: 'waiting_timer', nodeId: 'espera' });
    const stale = await runOnce(config, { kind: 'timer', nodeId: 'otro' }, 'live', {}, live.state);
    expect(texts(stale)).toEqual([]);
    const fired = await runOnce(config, { kind: 'timer', nodeId: 'espera' }, 'live', {}, live.state);
    expect(texts(fired)).toEqual(['¿Sigues ahí?']);
    expect(fired.state.status).toBe('ended');
  });

  it('redirect: moves to a column of the company and goes on; an unknown column is reported', async () => {
    const moved = await runOnce(
      chain({ type: 'redirect', data: { targetId: 'col-ventas' } }, { type: 'sendMessage', data: { text: 'Listo' } }),
      say('hola'),
      'live',
    );
    expect(moved.moved).toEqual(['col-ventas']);
    expect(texts(moved)).toEqual(['Listo']);
    const unknown = await runOnce(chain({ type: 'redirect', data: { label: 'Mover', targetId: 'col-x' } }));
    expect(unknown.moved).toEqual([]);
    expect(unknown.reports).toEqual(['[«Mover»: la columna de destino no existe; el chat no se movió]']);
  });

  it('schedule in the playground: offers the free times as choices, shows the booking it would make, hands over when none is chosen', async () => {
    const slot = (n: number) => {
      const time = `${String(8 + n).padStart(2, '0')}:00`;
      return {
        id: `slot-${n}`,
        label: `lun, 1 jun ${time}`,
        description: `lunes 1 de junio a las ${time} (Corte con Lucía)`,
        professionalId: 'p',
        serviceId: 's',
        startTime: `2031-06-01T${time}:00.000Z`,
        endTime: `2031-06-01T${String(9 + n).padStart(2, '0')}:00:00.000Z`,
      };
    };
    const booked: unknown[] = [];
    const extra: Partial<RuntimeServices> = {
      nextFreeSlots: async (event) => (event === 'Corte' ? [slot(1), slot(2)] : []),
      bookSlot: async (offer) => {
        booked.push(offer);
        return { booked: 'a1' };
      },
    };
    const config = chain({ type: 'schedule', data: { eventType: 'Corte' } }, { type: 'sendMessage', data: { text: 'Te esperamos: {{appointment}}' } });
    const offered = await runOnce(config, say('hola'), 'simulation', extra);
    expect(offered.state.status).toBe('waiting_input');
    expect(offered.waitingOptions?.map((option) => option.label)).toEqual(['lun, 1 jun 09:00', 'lun, 1 jun 10:00']);
    expect(texts(offered)).toEqual(['Para agendar Corte, elige uno de estos horarios disponibles:']);

    const chosen = await runOnce(config, say('2'), 'simulation', extra, offered.state);
    expect(chosen.reports).toEqual(['[📅 Se agendaría el lunes 1 de junio a las 10:00 (Corte con Lucía); el Playground no guarda citas en la Agenda]']);
    expect(texts(chosen)).toEqual([
      '¡Listo! Tu cita quedó agendada para el lunes 1 de junio a las 10:00 (Corte con Lucía).',
      'Te esperamos: lunes 1 de junio a las 10:00 (Corte con Lucía)',
    ]);
    expect(booked).toEqual([]);

    const refused = await runOnce(config, say('el jueves mejor'), 'simulation', extra, offered.state);
    expect(refused.state.status).toBe('human');
    expect(texts(refused)).toEqual([scheduleTexts.noneChosen]);
    const none = await runOnce(chain({ type: 'schedule', data: { eventType: 'Masaje' } }));
    expect(none.state.status).toBe('human');
    expect(texts(none)).toEqual([scheduleTexts.noSlots('Masaje')]);
  });

  it('sendEmail: without SMTP it reports e-mail is not configured; with SMTP it sends through the server', async () => {
    const config = chain({
      type: 'sendEmail',
      data: { to: 'ventas@empresa.test', subject: 'Nuevo cliente {{contact_name}}', body: 'Escribió: {{user_response}}' },
    });
    const unconfigured = await runOnce(config, say('hola'), 'simulation', {}, newRunState({ contact_name: 'Ana' }));
    expect(unconfigured.reports).toEqual([`[✉ ${EMAIL_NOT_CONFIGURED}]`]);
    expect(unconfigured.state.variables.email_status).toBe('not_configured');

    const mails: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => {
          data += chunk.toString();
        });
        stream.on('end', () => {
          mails.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    try {
      const port = (smtp.server.address() as AddressInfo).port;
      const sent = await runOnce(
        config,
        say('quiero precios'),
        'live',
        { email: createSmtpEmailSender(`smtp://127.0.0.1:${port}?from=bot@embudo.test`) },
        newRunState({ contact_name: 'Ana' }),
      );
      expect(sent.state.variables.email_status).toBe('sent');
      expect(mails).toHaveLength(1);
      expect(mails[0]).toContain('Subject: Nuevo cliente Ana');
      expect(mails[0]).toContain(': quiero precios');
      expect(mails[0]).toContain('From: bot@embudo.test');
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });

  it('aiPrompt: without a model it says AI is not configured; with one it answers through the model port', async () => {
    const config = chain({ type: 'aiPrompt', data: { prompt: 'Eres el asistente de {{empresa}}.' } });
    expect(texts(await runOnce(config))).toEqual([AI_NOT_CONFIGURED]);

    const gemini = await startFakeGeminiServer();
    try {
      gemini.reply(geminiText('Claro, te ayudo.'));
      const model = createAiModel({ aiProvider: 'gemini', geminiApiKey: gemini.apiKey, geminiBaseUrl: gemini.url, geminiModel: 'gemini-2.5-flash' })!;
      const answered = await runOnce(config, say('¿tienen envíos?'), 'simulation', { ai: model }, newRunState({ empresa: 'Acme' }));
      expect(texts(answered)).toEqual(['Claro, te ayudo.']);
      expect(answered.state.variables.ai_response).toBe('Claro, te ayudo.');
      expect(gemini.requests[0]!.headers['x-goog-api-key']).toBe(gemini.apiKey);
      expect(gemini.requests[0]!.body).toEqual({
        systemInstruction: { parts: [{ text: 'Eres el asistente de Acme.' }] },
        contents: [{ role: 'user', parts: [{ text: '¿tienen envíos?' }] }],
        generationConfig: {},
      });
    } finally {
      await gemini.close();
    }
  });

  it('aiPrompt: really calls its webhook, redirect and schedule tools in a loop, each call a note in execution order', async () => {
    web.route('/pedido', { body: JSON.stringify({ estado: 'en camino' }) });
    const gemini = await startFakeGeminiServer();
    try {
      const model = createAiModel({ aiProvider: 'gemini', geminiApiKey: gemini.apiKey, geminiBaseUrl: gemini.url })!;
      const config = chain({
        type: 'aiPrompt',
        data: {
          prompt: 'Ayuda con pedidos.',
          tools: [
            { id: 't1', tool_type: 'webhook', label: 'Consultar pedido', type: 'POST', url: `${web.url}/pedido` },
            { id: 't2', tool_type: 'redirect_to_column', label: 'Pasar a ventas', columnId: 'col-ventas' },
            { id: 't3', tool_type: 'redirect_to_column', label: 'Elegir columna' },
            { id: 't4', tool_type: 'schedule_message', label: 'Recordatorio' },
          ],
        },
      });
      const sendAt = new Date(Date.now() + 3_600_000).toISOString();
      gemini.reply(
        geminiCalls([{ id: 'c1', name: 'webhook', args: { datos: '{"pedido":"A-17"}' }, thoughtSignature: 'firma-1' }]),
        geminiCalls([
          { id: 'c2', name: 'redirect_to_column_1', args: {} },
          { id: 'c3', name: 'schedule_message', args: { text: 'Tu pedido llega hoy', sendAt } },
        ]),
        geminiText('Tu pedido A-17 va en camino.'),
      );
      const scheduled: Array<[string, string]> = [];
      const result = await runOnce(config, say('¿dónde está mi pedido A-17?'), 'live', {
        ai: model,
        scheduleMessage: async (text, at) => {
          scheduled.push([text, at.toISOString()]);
        },
      });

      expect(result.transcript.map((entry) => (entry.kind === 'message' ? `msg:${texts({ ...result, messages: [entry.message] })[0]}` : entry.text))).toEqual([
        `[🔧 IA: «Consultar pedido» POST ${web.url}/pedido → 200]`,
        '[🔧 IA: «Pasar a ventas» → chat movido a «Ventas»]',
        `[🔧 IA: «Recordatorio» → mensaje programado para ${sendAt}]`,
        'msg:Tu pedido A-17 va en camino.',
      ]);
      expect(web.received.at(-1)).toMatchObject({ method: 'POST', path: '/pedido', body: '{"pedido":"A-17"}' });
      expect(result.moved).toEqual(['col-ventas']);
      expect(scheduled).toEqual([['Tu pedido llega hoy', sendAt]]);

      // The declarations as Gemini reads them; the column choice offers the real columns by name.
      const declarations = (gemini.requests[0]!.body.tools as Array<{ functionDeclarations: Array<{ name: string; parametersJsonSchema: unknown }> }>)[0]!
        .functionDeclarations;
      expect(declarations.map((declaration) => declaration.name)).toEqual(['webhook', 'redirect_to_column_1', 'redirect_to_column_2', 'schedule_message']);
      expect(declarations[2]!.parametersJsonSchema).toEqual({
        type: 'object',
        properties: { column: { type: 'string', description: 'Nombre de la columna de destino', enum: ['Ventas', 'Soporte'] } },
        required: ['column'],
      });
      // Round two echoes the calling turn (thoughtSignature included) and answers the call by id with the webhook's answer.
      expect((gemini.requests[1]!.body.contents as unknown[]).slice(1)).toEqual([
        { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'webhook', args: { datos: '{"pedido":"A-17"}' } }, thoughtSignature: 'firma-1' }] },
        {
          role: 'user',
          parts: [{ functionResponse: { id: 'c1', name: 'webhook', response: { name: 'webhook', content: { status: 200, body: '{"estado":"en camino"}' } } } }],
        },
      ]);
      expect(gemini.requests).toHaveLength(3);

      // In the playground nothing is scheduled or moved: the notes say what a live chat would do.
      gemini.reply(
        geminiCalls([
          { id: 'd1', name: 'redirect_to_column_2', args: { column: 'Soporte' } },
          { id: 'd2', name: 'schedule_message', args: { text: 'Hola', sendAt } },
        ]),
        geminiText('Listo.'),
      );
      const simulated = await runOnce(config, say('hola'), 'simulation', {
        ai: model,
        redirectToColumn: async (columnId) => (columnId === 'col-soporte' ? 'Soporte' : undefined),
        scheduleMessage: () => Promise.reject(new Error('nunca en el playground')),
      });
      expect(simulated.transcript.map((entry) => (entry.kind === 'message' ? 'msg' : entry.text))).toEqual([
        '[🔧 IA: «Elegir columna» → el chat se movería a «Soporte»]',
        `[🔧 IA: «Recordatorio» → se programaría «Hola» para ${sendAt}]`,
        'msg',
      ]);
    } finally {
      await gemini.close();
    }
  });

  it('webhook: POSTs the interpolated body (default {}) and keeps the answer in variables for later nodes', async () => {
    web.route('/pedido', { body: JSON.stringify({ estado: 'enviado', total: 42 }) });
    const config = chain(
      { type: 'webhook', data: { url: `${web.url}/pedido`, body: '{"telefono":"{{contact_phone}}"}' } },
      { type: 'sendMessage', data: { text: 'Tu pedido está {{webhook.estado}} ({{webhook.total}} €, {{webhook_status}})' } },
    );
    const result = await runOnce(config, say('mi pedido'), 'live', {}, newRunState({ contact_phone: '5215511112222' }));
    expect(texts(result)).toEqual(['Tu pedido está enviado (42 €, 200)']);
    expect(web.received.at(-1)).toMatchObject({ method: 'POST', path: '/pedido', body: '{"telefono":"5215511112222"}' });
    const defaults = await runOnce(chain({ type: 'webhook', data: { url: `${web.url}/pedido` } }));
    expect(web.received.at(-1)!.body).toBe('{}');
    expect(defaults.reports[0]).toBe(`[Webhook POST ${web.url}/pedido → 200]`);
    await runOnce(
      chain({ type: 'webhook', data: { url: `${web.url}/pedido?id={{contact_phone}}`, method: 'GET' } }),
      say('x'),
      'simulation',
      {},
      newRunState({ contact_phone: '55' }),
    );
    expect(web.received.at(-1)).toMatchObject({ method: 'GET', path: '/pedido?id=55', body: '' });
  });

  it('webhook: the guard refuses 127.0.0.1 when private networks are not allowed, and the flow goes on', async () => {
    const before = web.received.length;
    const config = chain({ type: 'webhook', data: { url: `${web.url}/pedido` } }, { type: 'sendMessage', data: { text: 'estado {{webhook_status}}' } });
    const result = await runOnce(config, say('hola'), 'live', { http: createOutboundHttp() });
    expect(web.received.length).toBe(before);
    expect(texts(result)).toEqual(['estado error']);
    expect(result.reports[0]).toContain('La URL apunta a una dirección privada o local');
  });

  it('sendImage: fetches the image with the bearer token; a failure sends the error message instead', async () => {
    web.route('/foto.png', (request) =>
      request.headers.authorization === 'Bearer secreto' ? { body: PNG, contentType: 'image/png' } : { status: 401, body: 'no' },
    );
    const ok = await runOnce(chain({ type: 'sendImage', data: { imageUrl: `${web.url}/foto.png`, authToken: 'secreto' } }), say('hola'), 'live');
    expect(texts(ok)).toEqual(['image:image/png']);
    const denied = await runOnce(
      chain({ type: 'sendImage', data: { imageUrl: `${web.url}/foto.png`, errorMessage: 'La imagen no está disponible.' } }),
      say('hola'),
      'live',
    );
    expect(texts(denied)).toEqual(['La imagen no está disponible.']);
    expect(denied.reports[0]).toContain('el servidor respondió 401');
    web.route('/texto.png', { body: 'no soy una imagen', contentType: 'image/png' });
    expect(texts(await runOnce(chain({ type: 'sendImage', data: { imageUrl: `${web.url}/texto.png` } })))).toEqual(['No pudimos cargar la imagen.']);
  });

  it('setVariable: stores the interpolated value', async () => {
    const result = await runOnce(
      chain({ type: 'setVariable', data: { varName: 'saludo', varValue: 'Hola {{contact_name}}' } }),
      say('x'),
      'simulation',
      {},
      newRunState({ contact_name: 'Ana' }),
    );
    expect(result.state.variables.saludo).toBe('Hola Ana');
  });

  it('assignToHuman: hands the chat to the team and stops the bot', async () => {
    const result = await runOnce(chain({ type: 'assignToHuman', data: { agentId: 'agente-1' } }, { type: 'sendMessage', data: { text: 'no llega' } }));
    expect(texts(result)).toEqual([HANDOFF_TEXT]);
    expect(result.reports).toEqual(['[Chat asignado a Lucía; el bot deja de responder]']);
    expect(result.state.status).toBe('human');
  });

  it('end: stops the flow there', async () => {
    const result = await runOnce(chain({ type: 'end' }, { type: 'sendMessage', data: { text: 'no llega' } }));
    expect(texts(result)).toEqual([]);
    expect(result.state.status).toBe('ended');
  });

  it('cuts a loop that never waits for the customer', async () => {
    const config = chain(
      { type: 'setVariable', id: 'a', data: { varName: 'x', varValue: '1' } },
      { type: 'setVariable', id: 'b', data: { varName: 'y', varValue: '2' } },
    );
    config.edges.push({ id: 'back', source: 'b', target: 'a', sourceHandle: null, targetHandle: null });
    const result = await runOnce(config);
    expect(result.reports.at(-1)).toContain(`más de ${MAX_STEPS_PER_RUN} pasos`);
    expect(result.state.status).toBe('ended');
  });
});
