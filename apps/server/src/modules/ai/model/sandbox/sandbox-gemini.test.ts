import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGeminiServer } from '../../../../../test/fakes/fake-gemini-server.ts';
import type { AiTool } from '../model-port.ts';
import { answerSandboxGeminiRequest, createSandboxAiModel, readableLocalTime, SANDBOX_FALLBACK, SANDBOX_LABEL, SANDBOX_TRANSCRIPT } from './sandbox-gemini.ts';

const model = createSandboxAiModel();

const INSTRUCTIONS = `Eres la recepcionista de Peluquería Sol.

Empresa: Peluquería Sol. Zona horaria: America/Argentina/Buenos_Aires. Fecha y hora actual: 2026-11-24T10:00:00-03:00.
Responde en español, breve, como parte del equipo de Peluquería Sol.

# Conocimiento
## precios.txt
El corte de pelo cuesta $5000. La tintura completa cuesta $12000.
## horarios.md
Abrimos de lunes a sábado de 9 a 19 horas.`;

function recordingTool(
  name: string,
  properties: AiTool['parameters']['properties'],
  result: Record<string, unknown>,
): AiTool & { calls: Array<Record<string, unknown>> } {
  const calls: Array<Record<string, unknown>> = [];
  return {
    name,
    description: name,
    calls,
    parameters: { type: 'object', properties },
    execute: async (args) => {
      calls.push(args);
      return result;
    },
  };
}

const ask = (text: string, tools: AiTool[] = []) => model.answer({ instructions: INSTRUCTIONS, turns: [{ role: 'customer', text }], tools });

describe('sandbox model', () => {
  it('is labelled as the test AI and says who it is', () => {
    expect(model).toMatchObject({ provider: 'sandbox', label: SANDBOX_LABEL });
    expect(SANDBOX_LABEL).toBe('IA de prueba');
  });

  it('hands over to a person when asked for one and the tool is offered', async () => {
    const handOver = recordingTool('hand_over_to_person', { reason: { type: 'string' } }, { ok: true });
    const answer = await ask('Quiero hablar con un asesor, por favor', [handOver]);
    expect(handOver.calls).toEqual([{ reason: 'El cliente pidió hablar con una persona.' }]);
    expect(answer.text).toBe('Te comunico con una persona del equipo; te responderá en breve.');
    expect(answer.usage.inputTokens).toBeGreaterThan(0);
  });

  it('books in two rounds: free slots, then the first slot, then the booked time in words', async () => {
    const slot = { start: '2026-11-25T10:30:00-03:00', end: '2026-11-25T11:00:00-03:00', professional: 'Ana', service: 'Corte' };
    const findSlots = recordingTool('find_free_slots', { date: { type: 'string' }, service: { type: 'string' } }, { slots: [slot] });
    const book = recordingTool('book_appointment', { start: { type: 'string' } }, { ok: true, appointment: { id: 'a1', ...slot } });
    const answer = await ask('Hola, quisiera agendar una cita para mañana', [findSlots, book]);

    expect(answer.toolCalls.map((call) => call.name)).toEqual(['find_free_slots', 'book_appointment']);
    expect(book.calls).toEqual([{ start: slot.start, service: 'Corte', professional: 'Ana' }]);
    expect(answer.text).toBe('Listo, tu cita quedó agendada para el miércoles 25 de noviembre a las 10:30.');
  });

  it('says so when there are no free slots', async () => {
    const findSlots = recordingTool('find_free_slots', {}, { slots: [] });
    const book = recordingTool('book_appointment', { start: { type: 'string' } }, { ok: true });
    const answer = await ask('Quiero reservar un turno', [findSlots, book]);
    expect(book.calls).toEqual([]);
    expect(answer.text).toBe('No encontré horarios libres en esas fechas. ¿Te sirve otro día?');
  });

  it('offers the free slots in words when it cannot book', async () => {
    const slots = [{ start: '2026-11-25T10:30:00-03:00' }, { start: '2026-11-25T11:00:00-03:00' }];
    const answer = await ask('¿Tienen turno mañana?', [recordingTool('find_free_slots', {}, { slots })]);
    expect(answer.text).toBe('Tengo estos horarios libres: miércoles 25 de noviembre a las 10:30; miércoles 25 de noviembre a las 11:00. ¿Cuál prefieres?');
  });

  it('moves the card to a column the customer names', async () => {
    const move = recordingTool('move_to_column', { column: { type: 'string', enum: ['Nuevos', 'Ventas'] } }, { ok: true, column: 'Ventas' });
    const answer = await ask('Me interesa hablar con VENTAS', [move]);
    expect(move.calls).toEqual([{ column: 'Ventas' }]);
    expect(answer.text).toBe('Listo, pasé tu conversación a Ventas.');
  });

  it('calls a tool whose «label» shares a word with the customer, and says what it returned', async () => {
    const webhook = { ...recordingTool('webhook', { datos: { type: 'string' } }, { status: 200, body: '{"estado":"enviado"}' }) };
    webhook.description = '«Consultar pedido»: consulta un servicio externo de la empresa (POST) y devuelve su respuesta.';
    const answer = await ask('¿Dónde está mi pedido?', [webhook]);
    expect(webhook.calls).toEqual([{ datos: '{"mensaje":"¿Dónde está mi pedido?"}' }]);
    expect(answer.text).toBe('Esto es lo que encontré: {"estado":"enviado"}');
  });

  it('schedules a reminder when asked to remind, an hour ahead', async () => {
    const schedule = recordingTool('schedule_message', { text: { type: 'string' }, sendAt: { type: 'string' } }, { ok: true, sendAt: 'x' });
    const before = Date.now();
    await ask('Recuérdame el pago, por favor', [schedule]);
    expect(schedule.calls).toEqual([{ text: 'Recordatorio: Recuérdame el pago, por favor', sendAt: expect.any(String) }]);
    const at = Date.parse(String(schedule.calls[0]!['sendAt']));
    expect(at - before).toBeGreaterThanOrEqual(59 * 60_000);
    expect(at - before).toBeLessThan(61 * 60_000);
  });

  it('moves with a redirect tool to a column named in its enum', async () => {
    const redirect = recordingTool('redirect_to_column_2', { column: { type: 'string', enum: ['Ventas', 'Soporte'] } }, { ok: true, column: 'Soporte' });
    const answer = await ask('Necesito soporte con mi equipo', [redirect]);
    expect(redirect.calls).toEqual([{ column: 'Soporte' }]);
    expect(answer.text).toBe('Listo, pasé tu conversación a Soporte.');
  });

  it('answers from the knowledge lines with the best keyword overlap', async () => {
    expect((await ask('¿Cuánto cuesta la tintura?')).text).toBe('Según nuestra información: La tintura completa cuesta $12000.');
    expect((await ask('¿Qué horarios tienen el sábado?')).text).toBe('Según nuestra información: Abrimos de lunes a sábado de 9 a 19 horas.');
  });

  it('falls back to a polite answer when nothing matches or the tool asked for is not offered', async () => {
    expect((await ask('Hola!')).text).toBe(SANDBOX_FALLBACK);
    expect((await ask('Quiero hablar con una persona')).toolCalls).toEqual([]);
  });

  it('answers a tool error in words', async () => {
    const move = recordingTool('move_to_column', { column: { type: 'string', enum: ['Ventas'] } }, { error: 'No existe esa columna' });
    expect((await ask('ventas', [move])).text).toBe('No pude completar eso: No existe esa columna');
  });

  it('transcribes any audio to a fixed text that says it is a sandbox transcript', async () => {
    const transcript = await model.transcribe({ data: Buffer.from('audio'), mimeType: 'audio/ogg' });
    expect(transcript.text).toBe(SANDBOX_TRANSCRIPT);
  });

  it('formats a local ISO time in Spanish words', () => {
    expect(readableLocalTime('2026-12-06T09:05:00-03:00')).toBe('domingo 6 de diciembre a las 09:05');
  });
});

describe('sandbox Gemini protocol', () => {
  const callTurn = {
    role: 'model',
    parts: [
      {
        functionCall: { id: 'sandbox-call-1', name: 'move_to_column', args: { column: 'Ventas' } },
        thoughtSignature: Buffer.from('sandbox-thought-1').toString('base64'),
      },
    ],
  };
  const customer = { role: 'user', parts: [{ text: 'ventas' }] };

  it('refuses a functionResponse that answers no call, or one whose response is not an object', () => {
    const wrongName = answerSandboxGeminiRequest({
      contents: [
        customer,
        callTurn,
        { role: 'user', parts: [{ functionResponse: { id: 'sandbox-call-1', name: 'schedule_message', response: { ok: true } } }] },
      ],
    });
    expect(wrongName.status).toBe(400);
    expect(wrongName.body).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    const wrongId = answerSandboxGeminiRequest({
      contents: [customer, callTurn, { role: 'user', parts: [{ functionResponse: { id: 'other', name: 'move_to_column', response: { ok: true } } }] }],
    });
    expect(wrongId.status).toBe(400);
    const notObject = answerSandboxGeminiRequest({
      contents: [customer, callTurn, { role: 'user', parts: [{ functionResponse: { id: 'sandbox-call-1', name: 'move_to_column', response: 'ok' } }] }],
    });
    expect(notObject.status).toBe(400);
  });

  it('refuses its own call echoed without its thoughtSignature', () => {
    const stripped = { role: 'model', parts: [{ functionCall: callTurn.parts[0]!.functionCall }] };
    const reply = answerSandboxGeminiRequest({
      contents: [customer, stripped, { role: 'user', parts: [{ functionResponse: { id: 'sandbox-call-1', name: 'move_to_column', response: { ok: true } } }] }],
    });
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.body)).toContain('thought_signature');
  });

  it('reads snake_case requests as Google does', () => {
    const reply = answerSandboxGeminiRequest({
      system_instruction: { parts: [{ text: 'x' }] },
      contents: [{ role: 'user', parts: [{ text: 'Quiero hablar con ventas' }] }],
      tools: [
        {
          function_declarations: [
            { name: 'move_to_column', description: 'm', parameters: { type: 'OBJECT', properties: { column: { type: 'STRING', enum: ['Ventas'] } } } },
          ],
        },
      ],
      tool_config: { function_calling_config: { mode: 'AUTO' } },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      candidates: [
        {
          content: { role: 'model', parts: [{ functionCall: { id: 'sandbox-call-1', name: 'move_to_column', args: { column: 'Ventas' } } }] },
          finishReason: 'STOP',
        },
      ],
    });
  });

  it('calls no tool when functionCallingConfig.mode is NONE', () => {
    const reply = answerSandboxGeminiRequest({
      contents: [{ role: 'user', parts: [{ text: 'ventas' }] }],
      tools: [
        {
          functionDeclarations: [
            { name: 'move_to_column', description: 'm', parameters: { type: 'OBJECT', properties: { column: { type: 'STRING', enum: ['Ventas'] } } } },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'NONE' } },
    });
    expect(reply.body).toMatchObject({ candidates: [{ content: { parts: [{ text: SANDBOX_FALLBACK }] } }] });
  });

  it("reads the AI SDK's request: parametersJsonSchema declarations and results wrapped as { name, content }", () => {
    const tools = [
      {
        functionDeclarations: [
          {
            name: 'move_to_column',
            description: 'm',
            parametersJsonSchema: { type: 'object', properties: { column: { type: 'string', enum: ['Ventas'] } }, required: ['column'] },
          },
        ],
      },
    ];
    const calling = answerSandboxGeminiRequest({ contents: [customer], tools, toolConfig: { functionCallingConfig: { mode: 'AUTO' } }, generationConfig: {} });
    expect(calling.body).toMatchObject({ candidates: [{ content: { parts: [{ functionCall: { name: 'move_to_column', args: { column: 'Ventas' } } }] } }] });

    const answered = answerSandboxGeminiRequest({
      contents: [
        customer,
        callTurn,
        {
          role: 'user',
          parts: [
            {
              functionResponse: { id: 'sandbox-call-1', name: 'move_to_column', response: { name: 'move_to_column', content: { ok: true, column: 'Ventas' } } },
            },
          ],
        },
      ],
      tools,
      generationConfig: {},
    });
    expect(answered.body).toMatchObject({ candidates: [{ content: { parts: [{ text: 'Listo, pasé tu conversación a Ventas.' }] } }] });
  });

  describe('over HTTP (the fake Gemini server)', () => {
    let fake: Awaited<ReturnType<typeof startFakeGeminiServer>>;
    beforeAll(async () => {
      fake = await startFakeGeminiServer();
    });
    afterAll(() => fake.close());

    it('answers a snake_case request with a functionCall, and the functionResponse round with words', async () => {
      const post = (body: unknown) =>
        fetch(`${fake.url}/v1beta/models/gemini-2.5-flash:generateContent`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-goog-api-key': fake.apiKey },
          body: JSON.stringify(body),
        });
      const tools = [
        {
          function_declarations: [
            { name: 'hand_over_to_person', description: 'h', parameters: { type: 'OBJECT', properties: { reason: { type: 'STRING' } } } },
          ],
        },
      ];
      const first = await post({ contents: [{ role: 'user', parts: [{ text: 'Necesito un humano' }] }], tools });
      const firstBody = (await first.json()) as { candidates: Array<{ content: { role: string; parts: Array<Record<string, unknown>> } }> };
      expect(firstBody.candidates[0]!.content.parts[0]).toMatchObject({ functionCall: { name: 'hand_over_to_person' }, thoughtSignature: expect.any(String) });

      const second = await post({
        contents: [
          { role: 'user', parts: [{ text: 'Necesito un humano' }] },
          firstBody.candidates[0]!.content,
          { role: 'user', parts: [{ function_response: { id: 'sandbox-call-1', name: 'hand_over_to_person', response: { ok: true } } }] },
        ],
        tools,
      });
      expect(await second.json()).toMatchObject({
        candidates: [{ content: { parts: [{ text: 'Te comunico con una persona del equipo; te responderá en breve.' }] } }],
      });
    });
  });
});
