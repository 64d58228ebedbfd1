import { and, eq } from 'drizzle-orm';
import { AI_FALLBACK_REPLY_DEFAULT } from '@embudo/contracts/http/funnels';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, jobs, scheduledMessages } from '../../../../db/schema/index.ts';
import { agendaCaller, book, seedCatalog } from '../../../../test/support/agenda-fixtures.ts';
import { companyWithColumnAssistant } from '../../../../test/support/assistant-chat.ts';
import { buildTestApp, type TestApp } from '../../../../test/support/build-test-app.ts';
import { listenOnRandomPort } from '../../../../test/support/realtime-client.ts';
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
  it('books a real appointment in the Agenda when the customer asks for one, and tells them its time', async () => {
    const shop = await company();
    const { professional, service } = await seedCatalog(t.app, shop.owner);
    await shop.says('Hola, quiero agendar una cita');
    const booked = await t.database.db.select().from(appointments).where(eq(appointments.tenantId, shop.owner.tenant.id));
    expect(booked).toHaveLength(1);
    expect(booked[0]).toMatchObject({ professionalId: professional.id, serviceId: service.id, clientName: 'Ana' });
    const [answer] = await shop.aiMessages();
    expect(answer).toMatch(/^Listo, tu cita quedó agendada para /);
    // The customer is told the company's wall-clock time (Bogotá), not UTC.
    const local = new Intl.DateTimeFormat('es', { timeZone: 'America/Bogota', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
      booked[0]!.startTime,
    );
    expect(answer).toContain(`a las ${local}.`);
  });

  it('tells the customer neutral words and the team why when the company has no agenda', async () => {
    const shop = await company('Sin Agenda');
    await shop.says('Quiero reservar un turno');
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
    expect(await shop.aiMessages()).toEqual([`Listo, te enviaré el recordatorio (${rows[0]!.scheduledFor.toISOString()}).`]);

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
