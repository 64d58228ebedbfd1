import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGeminiServer } from '../../../../../test/fakes/fake-gemini-server.ts';
import { SUMMARY_TASK } from '../../copilot/copilot.service.ts';
import { type AiTool, type AiTurn, TOOL_FAILED } from '../model-port.ts';
import { ASK_WHEN } from './sandbox-booking.ts';
import {
  answerSandboxGeminiRequest,
  createSandboxAiModel,
  readableLocalTime,
  SANDBOX_FALLBACK,
  SANDBOX_LABEL,
  SANDBOX_TRANSCRIPT,
  SANDBOX_YOU_ARE_WELCOME,
} from './sandbox-gemini.ts';

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
const converse = (turns: AiTurn[], tools: AiTool[] = [], instructions = INSTRUCTIONS) => model.answer({ instructions, turns, tools });
const customer = (text: string): AiTurn => ({ role: 'customer', text });
const business = (text: string): AiTurn => ({ role: 'business', text });

/** Tomorrow (Wednesday 25 November) at 10:00, 10:30 and 11:00 with Ana: the agenda as find_free_slots answers it. */
const TOMORROW = [
  ['10:00', '10:30'],
  ['10:30', '11:00'],
  ['11:00', '11:30'],
].map(([start, end]) => ({ start: `2026-11-25T${start}:00-03:00`, end: `2026-11-25T${end}:00-03:00`, professional: 'Ana', service: 'Corte' }));

/** find_free_slots and book_appointment over a fake agenda: each records its calls; the booking echoes the time booked. */
function agenda(slots: Array<Record<string, unknown>> = TOMORROW) {
  const findSlots = recordingTool('find_free_slots', { date: { type: 'string' }, service: { type: 'string' } }, { slots });
  const bookings: Array<Record<string, unknown>> = [];
  const book: AiTool = {
    name: 'book_appointment',
    description: 'book_appointment',
    parameters: { type: 'object', properties: { start: { type: 'string' }, service: { type: 'string' }, professional: { type: 'string' } } },
    execute: async (args) => {
      bookings.push(args);
      return { ok: true, appointment: { id: `a${bookings.length}`, start: args['start'] } };
    },
  };
  return { tools: [findSlots, book], searches: findSlots.calls, bookings };
}

const ASKED_TOMORROW_AT_10 = 'Quiero una cita mañana a las 10';
const OFFERED_10 = 'Tengo libre el miércoles 25 de noviembre a las 10:00. ¿Te la reservo?';
const OFFERED_THREE =
  'Tengo estos horarios libres: miércoles 25 de noviembre a las 10:00; miércoles 25 de noviembre a las 10:30; miércoles 25 de noviembre a las 11:00. ¿Cuál prefieres?';
const BOOKED_10 = 'Listo, tu cita quedó agendada para el miércoles 25 de noviembre a las 10:00.';

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

  it('asks for a day and time when a booking comes without one, and looks nothing up', async () => {
    const { tools, searches, bookings } = agenda();
    const answer = await ask('Hola, quisiera agendar una cita', tools);
    expect(answer.text).toBe(ASK_WHEN);
    expect(answer.toolCalls).toEqual([]);
    expect([searches, bookings]).toEqual([[], []]);
  });

  it('with a day and a time, looks that day up and offers the time without booking it', async () => {
    const { tools, searches, bookings } = agenda();
    const answer = await ask(ASKED_TOMORROW_AT_10, tools);
    expect(searches).toEqual([{ date: '2026-11-25' }]);
    expect(bookings).toEqual([]);
    expect(answer.text).toBe(OFFERED_10);
  });

  it('reads days and parts of the day: offers what fits, or the closest times when the asked one is taken', async () => {
    const { tools, searches, bookings } = agenda();
    expect((await ask('¿Tienen turno el miércoles a las 12?', tools)).text).toBe(`A esa hora no tengo libre. ${OFFERED_THREE}`);
    expect((await ask('Quiero reservar para mañana por la mañana', tools)).text).toBe(OFFERED_THREE);
    expect((await ask('Quisiera un turno el 25 por la tarde', tools)).text).toBe(`En ese horario no tengo libre. ${OFFERED_THREE}`);
    expect((await ask('¿Me agendas el lunes 30 a las 5?', tools)).text).toBe(`A esa hora no tengo libre. ${OFFERED_THREE}`);
    expect((await ask('Quiero una cita el 3 de diciembre', tools)).text).toBe(OFFERED_THREE);
    expect(searches).toEqual([{ date: '2026-11-25' }, { date: '2026-11-25' }, { date: '2026-11-25' }, { date: '2026-11-30' }, { date: '2026-12-03' }]);
    expect(bookings).toEqual([]);
  });

  it('books the confirmed time once, after looking it up again, and says when', async () => {
    const { tools, searches, bookings } = agenda();
    const answer = await converse([customer(ASKED_TOMORROW_AT_10), business(OFFERED_10), customer('Sí, a las 10')], tools);
    expect(answer.toolCalls.map((call) => call.name)).toEqual(['find_free_slots', 'book_appointment']);
    expect(searches).toEqual([{ date: '2026-11-25' }]);
    expect(bookings).toEqual([{ start: '2026-11-25T10:00:00-03:00', service: 'Corte', professional: 'Ana' }]);
    expect(answer.text).toBe(BOOKED_10);
  });

  it.each([
    ['Dale', OFFERED_10, '10:00'],
    ['perfecto, a las 10', OFFERED_THREE, '10:00'],
    ['La de las 10:30', OFFERED_THREE, '10:30'],
    ['la segunda', OFFERED_THREE, '10:30'],
    ['Mejor la última', OFFERED_THREE, '11:00'],
  ])('takes "%s" as the choice of an offered time', async (reply, offer, time) => {
    const { tools, bookings } = agenda();
    await converse([customer('Quiero un turno para mañana'), business(offer), customer(reply)], tools);
    expect(bookings).toEqual([expect.objectContaining({ start: `2026-11-25T${time}:00-03:00` })]);
  });

  it('takes a question, or a word like "primero" in another sentence, as no choice', async () => {
    const { tools, bookings } = agenda();
    const price = await converse([customer(ASKED_TOMORROW_AT_10), business(OFFERED_10), customer('Bueno, ¿y cuánto cuesta el corte?')], tools);
    expect(price.text).toBe('Según nuestra información: El corte de pelo cuesta $5000.');
    await converse([customer('Quiero un turno para mañana'), business(OFFERED_THREE), customer('Primero dime si abren el sábado')], tools);
    const afternoon = await converse([customer('Quiero un turno para mañana'), business(OFFERED_THREE), customer('¿Y a la mañana temprano?')], tools);
    expect(bookings).toEqual([]);
    expect(afternoon.text).toBe(
      '¿Cuál de estos horarios prefieres? miércoles 25 de noviembre a las 10:00; miércoles 25 de noviembre a las 10:30; miércoles 25 de noviembre a las 11:00.',
    );
    await converse([customer(ASKED_TOMORROW_AT_10), business(OFFERED_10), customer('¿Me la reservas?')], tools);
    expect(bookings).toEqual([expect.objectContaining({ start: '2026-11-25T10:00:00-03:00' })]);
  });

  it('asks which one when a yes answers several times, and books nothing', async () => {
    const { tools, searches, bookings } = agenda();
    const answer = await converse([customer('Quiero un turno para mañana'), business(OFFERED_THREE), customer('Sí, por favor')], tools);
    expect(answer.text).toBe(
      '¿Cuál de estos horarios prefieres? miércoles 25 de noviembre a las 10:00; miércoles 25 de noviembre a las 10:30; miércoles 25 de noviembre a las 11:00.',
    );
    expect([searches, bookings]).toEqual([[], []]);
  });

  it('looks again, without booking, when the customer answers an offer with another day, and drops it on a no', async () => {
    const { tools, searches, bookings } = agenda();
    await converse([customer('Quiero un turno para mañana'), business(OFFERED_THREE), customer('¿Y el viernes?')], tools);
    expect(searches).toEqual([{ date: '2026-11-27' }]);
    const declined = await converse([customer(ASKED_TOMORROW_AT_10), business(OFFERED_10), customer('No, gracias')], tools);
    expect(declined.toolCalls).toEqual([]);
    expect(bookings).toEqual([]);
  });

  it('says so and offers again when the confirmed time was taken meanwhile', async () => {
    const { tools, bookings } = agenda(TOMORROW.slice(1));
    const answer = await converse([customer(ASKED_TOMORROW_AT_10), business(OFFERED_10), customer('Sí')], tools);
    expect(bookings).toEqual([]);
    expect(answer.text).toBe(
      'Ese horario ya no está libre. Tengo estos horarios libres: miércoles 25 de noviembre a las 10:30; miércoles 25 de noviembre a las 11:00. ¿Cuál prefieres?',
    );
  });

  it('never books twice: not on thanks after the booking, nor when the same request comes again', async () => {
    const { tools, searches, bookings } = agenda();
    const booked = [customer(ASKED_TOMORROW_AT_10), business(OFFERED_10), customer('Sí, a las 10'), business(BOOKED_10)];
    const thanks = await converse([...booked, customer('Perfecto, gracias')], tools);
    expect(thanks.toolCalls).toEqual([]);
    expect(thanks.text).toBe(SANDBOX_YOU_ARE_WELCOME);
    const again = await converse([...booked, customer(ASKED_TOMORROW_AT_10)], tools);
    expect(again.toolCalls).toEqual([]);
    expect(again.text).toBe('Tu cita ya quedó agendada para el miércoles 25 de noviembre a las 10:00. Si quieres otra, dime para qué día y a qué hora.');
    expect([searches, bookings]).toEqual([[], []]);
    // Another day is another request: it is offered, still not booked.
    await converse([...booked, customer('Quiero otra cita el viernes a las 10')], tools);
    expect(searches).toEqual([{ date: '2026-11-27' }]);
    expect(bookings).toEqual([]);
  });

  it('schedules a reminder of the appointment for tomorrow morning, and never books', async () => {
    const { tools, searches, bookings } = agenda();
    const schedule = recordingTool('schedule_message', { text: { type: 'string' }, sendAt: { type: 'string' } }, { ok: true, sendAt: 'x' });
    const booked = [customer(ASKED_TOMORROW_AT_10), business(OFFERED_10), customer('Sí'), business(BOOKED_10)];
    await converse([...booked, customer('Recuérdame mañana mi cita')], [...tools, schedule]);
    // 08:00 in Buenos Aires (UTC-3), inside the 24 hours since the customer wrote at 10:00.
    expect(schedule.calls).toEqual([{ text: 'Recordatorio: tienes una cita el miércoles 25 de noviembre a las 10:00.', sendAt: '2026-11-25T11:00:00.000Z' }]);
    const unscheduled = await converse([...booked, customer('Recuérdame mañana mi cita')], tools);
    expect(unscheduled.text).toBe('Tu cita quedó agendada para el miércoles 25 de noviembre a las 10:00. ¡Te esperamos!');
    expect((await ask('Recuérdame mañana mi cita', tools)).toolCalls).toEqual([]);
    // The reminder's hour is no offer: a yes to it books nothing.
    const reminded = [
      ...booked,
      customer('Recuérdame mañana mi cita'),
      business('Listo, te enviaré el recordatorio el miércoles 25 de noviembre a las 08:00.'),
    ];
    expect((await converse([...reminded, customer('Sí, gracias')], tools)).toolCalls).toEqual([]);
    expect([searches, bookings]).toEqual([[], []]);
  });

  it('says so when there are no free slots', async () => {
    const findSlots = recordingTool('find_free_slots', {}, { slots: [] });
    const book = recordingTool('book_appointment', { start: { type: 'string' } }, { ok: true });
    const answer = await ask('Quiero reservar un turno para el viernes', [findSlots, book]);
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

  it("schedules a reminder when asked to remind, an hour after the instructions' time, and says when in local time", async () => {
    const schedule = recordingTool(
      'schedule_message',
      { text: { type: 'string' }, sendAt: { type: 'string' } },
      { ok: true, sendAt: '2026-11-24T14:00:00.000Z' },
    );
    const answer = await ask('Recuérdame el pago, por favor', [schedule]);
    expect(schedule.calls).toEqual([{ text: 'Recordatorio: Recuérdame el pago, por favor', sendAt: '2026-11-24T14:00:00.000Z' }]);
    expect(answer.text).toBe('Listo, te enviaré el recordatorio el martes 24 de noviembre a las 11:00.');
  });

  it('schedules an hour after the process clock when the instructions state no time (a bot prompt)', async () => {
    const schedule = recordingTool('schedule_message', { text: { type: 'string' }, sendAt: { type: 'string' } }, { ok: true, sendAt: 'x' });
    const before = Date.now();
    await model.answer({ instructions: 'Eres un bot.', turns: [customer('Recuérdame pagar')], tools: [schedule] });
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

  it('answers from the knowledge sentence nearest in meaning, whatever the verb form or the words used', async () => {
    const instructions = `Empresa: Panadería Trigo.

# Conocimiento
## info.txt
Hacemos envíos a domicilio por 50 pesos. Abrimos a las 7:45 de lunes a sábado; los domingos, de 8 a 13.
Aceptamos tarjeta y transferencia.`;
    const askTrigo = (text: string) => model.answer({ instructions, turns: [{ role: 'customer', text }], tools: [] });
    expect((await askTrigo('¿A qué hora abren mañana?')).text).toBe(
      'Según nuestra información: Abrimos a las 7:45 de lunes a sábado; los domingos, de 8 a 13.',
    );
    expect((await askTrigo('¿Mandan pedidos a la casa?')).text).toBe('Según nuestra información: Hacemos envíos a domicilio por 50 pesos.');
    expect((await askTrigo('¿Puedo pagar con débito?')).text).toBe('Según nuestra información: Aceptamos tarjeta y transferencia.');
  });

  it('answers a question for a time or an amount with the sentence that states one', async () => {
    const instructions = `Empresa: Tienda.

# Conocimiento
## horario.txt
Horario de la tienda.
Abrimos a las 7:45 de lunes a sábado y cerramos a las 20:00.
Los domingos no abrimos.`;
    const askShop = (text: string) => model.answer({ instructions, turns: [{ role: 'customer', text }], tools: [] });
    expect((await askShop('¿A qué hora abren mañana?')).text).toBe('Según nuestra información: Abrimos a las 7:45 de lunes a sábado y cerramos a las 20:00.');
    expect((await askShop('¿Abren los domingos?')).text).toBe('Según nuestra información: Los domingos no abrimos.');
  });

  it('falls back to a polite answer when nothing matches or the tool asked for is not offered', async () => {
    expect((await ask('Hola!')).text).toBe(SANDBOX_FALLBACK);
    expect((await ask('Quiero hablar con una persona')).toolCalls).toEqual([]);
  });

  it('answers a tool error with the safe words the loop gave it, never the reason', async () => {
    const move = recordingTool('move_to_column', { column: { type: 'string', enum: ['Ventas'] } }, { error: 'No existe esa columna' });
    const answer = await ask('ventas', [move]);
    expect(answer.text).toBe(TOOL_FAILED);
    expect(answer.toolCalls).toEqual([
      { name: 'move_to_column', args: { column: 'Ventas' }, result: { error: TOOL_FAILED }, failure: 'No existe esa columna' },
    ]);
  });

  it('transcribes any audio to a fixed text that says it is a sandbox transcript', async () => {
    const transcript = await model.transcribe({ data: Buffer.from('audio'), mimeType: 'audio/ogg' });
    expect(transcript.text).toBe(SANDBOX_TRANSCRIPT);
  });

  describe('summarising for the copilot', () => {
    const summaryInstructions = (name?: string) => [INSTRUCTIONS, ...(name ? [`Nombre del cliente: ${name}.`] : []), SUMMARY_TASK].join('\n\n');

    it('says who the customer is, what they want, what was agreed and that nothing is pending', async () => {
      const answer = await converse(
        [
          customer(`Hola, ${ASKED_TOMORROW_AT_10.toLowerCase()}`),
          business(OFFERED_10),
          customer('Sí, a las 10'),
          business(BOOKED_10),
          customer('¿Cuánto cuesta la tintura?'),
          business('Según nuestra información: La tintura completa cuesta $12000.'),
          customer('Gracias'),
        ],
        [],
        summaryInstructions('Lucía Gómez'),
      );
      expect(answer.toolCalls).toEqual([]);
      expect(answer.text).toBe(
        [
          '- Cliente: Lucía Gómez.',
          '- Quiere: agendar una cita para el miércoles 25 de noviembre a las 10:00; saber «¿Cuánto cuesta la tintura?».',
          '- Acordado: cita agendada para el miércoles 25 de noviembre a las 10:00; se le informó: La tintura completa cuesta $12000.',
          '- Pendiente: nada.',
        ].join('\n'),
      );
    });

    it('takes the name the customer gave, and names the offered times still to be chosen', async () => {
      const answer = await converse(
        [customer('Me llamo Pedro. Quiero un turno para mañana por la mañana'), business(OFFERED_THREE)],
        [],
        summaryInstructions(),
      );
      expect(answer.text).toBe(
        [
          '- Cliente: Pedro.',
          '- Quiere: agendar una cita para el miércoles 25 de noviembre por la mañana.',
          '- Acordado: nada todavía.',
          '- Pendiente: que el cliente elija uno de los horarios ofrecidos (miércoles 25 de noviembre a las 10:00; miércoles 25 de noviembre a las 10:30; miércoles 25 de noviembre a las 11:00).',
        ].join('\n'),
      );
    });

    it("keeps the team's own answer, and an unanswered message as pending, rather than the last reply alone", async () => {
      const answer = await converse(
        [customer('¿Tienen taladros de 600 W?'), business('Sí, tenemos el de 600 W a $1,200.'), customer('¿Y hacen envíos a Rosario?')],
        [],
        summaryInstructions(),
      );
      expect(answer.text).toBe(
        [
          '- Cliente: no dijo su nombre.',
          '- Quiere: saber «¿Tienen taladros de 600 W?»; saber «¿Y hacen envíos a Rosario?».',
          '- Acordado: nada cerrado; el equipo respondió «Sí, tenemos el de 600 W a $1,200.».',
          '- Pendiente: responder su último mensaje, «¿Y hacen envíos a Rosario?».',
        ].join('\n'),
      );
    });
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
