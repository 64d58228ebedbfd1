import { addDays, instantAt, wallClockOf } from '@embudo/contracts/time/wall-clock';
import { and, eq } from 'drizzle-orm';
import { AI_FALLBACK_REPLY_DEFAULT } from '@embudo/contracts/http/funnels';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, jobs, scheduledMessages } from '../../../../db/schema/index.ts';
import { agendaCaller, book, seedCatalog } from '../../../../test/support/agenda-fixtures.ts';
import { companyWithColumnAssistant } from '../../../../test/support/assistant-chat.ts';
import { buildTestApp, type TestApp } from '../../../../test/support/build-test-app.ts';
import { listenOnRandomPort } from '../../../../test/support/realtime-client.ts';
import { readableDayAndTime } from '../model/sandbox/sandbox-when.ts';
import { findFreeSlots, handOverNote } from './assistant-tools.ts';
import { toolFailedNote } from './tool-ledger.ts';

/**
 * The column assistant's tools, driven by the sandbox model (the embedded default, speaking Gemini's protocol): what
 * a customer asks for on WhatsApp really happens in the CRM — a move, a booking in the Agenda, a hand-over.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox', aiProvider: 'sandbox' });
  await listenOnRandomPort(t.app);
});
afterAll(() => t.close());

const company = (name?: string) => companyWithColumnAssistant(t, { name });

describe('the assistant tools through the sandbox model', () => {
  it('offers the time asked for, books it in the Agenda once the customer confirms, and never again for that request', async () => {
    const shop = await company();
    const { professional, service } = await seedCatalog(t.app, shop.owner, { everyDay: true });
    const booked = () => t.database.db.select().from(appointments).where(eq(appointments.tenantId, shop.owner.tenant.id));
    // The customer is told the company's wall-clock time (Bogotá), not UTC.
    const tomorrow = addDays(wallClockOf(new Date(), 'America/Bogota').date, 1);
    const atTen = readableDayAndTime(tomorrow, 10 * 60);

    await shop.says('Quiero una cita mañana a las 10');
    expect(await booked()).toEqual([]);
    expect(await shop.aiMessages()).toEqual([`Tengo libre el ${atTen}. ¿Te la reservo?`]);

    await shop.says('Sí, a las 10');
    const rows = await booked();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ professionalId: professional.id, serviceId: service.id, clientName: 'Ana' });
    expect(rows[0]!.startTime).toEqual(instantAt(tomorrow, 10 * 60, 'America/Bogota'));
    expect((await shop.aiMessages()).at(-1)).toBe(`Listo, tu cita quedó agendada para el ${atTen}.`);

    await shop.says('Gracias');
    await shop.says('Recuérdame mañana mi cita');
    expect(await booked()).toHaveLength(1);
    const reminders = await t.database.db.select().from(scheduledMessages).where(eq(scheduledMessages.tenantId, shop.owner.tenant.id));
    expect(reminders.map((row) => row.text)).toEqual([`Recordatorio: tienes una cita el ${atTen}.`]);

    // "Resumir conversación" on the same model: the whole chat, not its last reply.
    const summary = await shop.call('POST', '/ai/summarize', { cardId: (await shop.card()).id });
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json().note.text).toBe(
      [
        'Resumen:',
        '- Cliente: Ana.',
        `- Quiere: agendar una cita para el ${atTen}; que le recuerden su cita.`,
        `- Acordado: cita agendada para el ${atTen}; enviarle un recordatorio.`,
        '- Pendiente: nada.',
      ].join('\n'),
    );
  });

  it('tells the customer neutral words and the team why when the company has no agenda', async () => {
    const shop = await company('Sin Agenda');
    await shop.says('Quiero reservar un turno para mañana');
    expect(await t.database.db.select().from(appointments).where(eq(appointments.tenantId, shop.owner.tenant.id))).toEqual([]);
    expect(await shop.aiMessages()).toEqual([AI_FALLBACK_REPLY_DEFAULT]);
    const notes = (await shop.items()).filter((item) => item.kind === 'note').map((item) => item.text);
    expect(notes).toEqual([toolFailedNote('find_free_slots', 'La empresa no tiene servicios en su agenda.')]);
  });

  it('moves the chat to the column the customer names', async () => {
    const shop = await company();
    await shop.says('Hola');
    await shop.says('Ya estamos en conversación sobre el precio');
    expect((await shop.card()).columnId).toBe(shop.columns.find((column) => column.title === 'En conversación')!.id);
  });

  it('hands the chat to a person: AI off, and a note says why', async () => {
    const shop = await company();
    await shop.says('Quiero hablar con una persona, por favor');
    expect((await shop.card()).aiEnabled).toBe(false);
    const notes = (await shop.items()).filter((item) => item.kind === 'note').map((item) => item.text);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.startsWith(handOverNote(''))).toBe(true);
    await shop.says('¿Hola?');
    expect(await shop.aiMessages()).toHaveLength(1);
  });

  it('schedules a reminder the customer asks for, and it goes out later as the AI', async () => {
    const shop = await company();
    await shop.says('Recuérdame mi pedido más tarde');
    const rows = await t.database.db.select().from(scheduledMessages).where(eq(scheduledMessages.tenantId, shop.owner.tenant.id));
    expect(rows).toMatchObject([
      { sender: 'ai', authorName: 'Asistente IA', authorUserId: null, text: 'Recordatorio: Recuérdame mi pedido más tarde', status: 'scheduled' },
    ]);
    expect(rows[0]!.scheduledFor.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
    const local = wallClockOf(rows[0]!.scheduledFor, 'America/Bogota');
    expect(await shop.aiMessages()).toEqual([`Listo, te enviaré el recordatorio el ${readableDayAndTime(local.date, local.minutes)}.`]);

    // Its time comes: it is sent with sender ai, like the answer before it.
    await t.database.db
      .update(jobs)
      .set({ runAt: new Date() })
      .where(and(eq(jobs.name, 'chats.send-scheduled'), eq(jobs.status, 'pending')));
    await t.app.queue.drain();
    expect(await shop.aiMessages()).toEqual([expect.stringContaining('te enviaré el recordatorio'), 'Recordatorio: Recuérdame mi pedido más tarde']);
  });
});

describe('find_free_slots', () => {
  it('reads the week in a fixed number of statements, however many professionals offer the service', async () => {
    const statementsFor = async (professionals: number) => {
      const shop = await company(`Agenda de ${professionals}`);
      const { service, professional } = await seedCatalog(t.app, shop.owner, { duration: 30 });
      const others = [];
      for (let index = 1; index < professionals; index++) {
        const created = await agendaCaller(t.app)(shop.owner, 'POST', '/agenda/professionals', {
          name: `Profesional ${index}`,
          color: 'green',
          serviceIds: [service.id],
        });
        expect(created.statusCode, created.body).toBe(201);
        others.push(created.json() as { id: string });
      }
      // Busy time of every professional, so the reads have something to return.
      for (const [index, someone] of [professional, ...others].entries()) {
        await book(t.app, shop.owner, {
          professionalId: someone.id,
          serviceId: service.id,
          startTime: `2030-03-0${4 + (index % 5)}T10:00`,
          endTime: `2030-03-0${4 + (index % 5)}T10:30`,
        });
      }
      const tool = findFreeSlots(
        { db: t.database.db, clock: () => new Date('2030-03-04T12:00:00Z') },
        {
          tenantId: shop.owner.tenant.id,
          cardId: crypto.randomUUID(),
          funnelId: crypto.randomUUID(),
          columnId: crypto.randomUUID(),
          timeZone: 'America/Bogota',
        },
      );
      const { result, statements } = await t.database.gate.countStatements(() => tool.execute({}, { index: 0 }));
      // Ten offers, earliest first, none at a booked time.
      expect((result['slots'] as unknown[]).length).toBe(10);
      expect(result['slots']).not.toContainEqual(expect.objectContaining({ start: '2030-03-04T10:00:00-05:00', professional: 'Lucía' }));
      return statements;
    };
    const one = await statementsFor(1);
    expect(await statementsFor(5)).toBe(one);
    // Services, professionals and their services, blocks, appointments.
    expect(one).toBe(5);
  });
});
