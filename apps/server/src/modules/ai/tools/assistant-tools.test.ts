import { addDays, instantAt, wallClockOf } from '@embudo/contracts/time/wall-clock';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, jobs, scheduledMessages, tenants } from '../../../../db/schema/index.ts';
import { seedCatalog } from '../../../../test/support/agenda-fixtures.ts';
import { buildTestApp, type TestApp } from '../../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../../test/support/factories.ts';
import { listenOnRandomPort } from '../../../../test/support/realtime-client.ts';
import { sandboxAppName } from '../../tenants/index.ts';
import { readableDayAndTime } from '../model/sandbox/sandbox-when.ts';
import { handOverNote } from './assistant-tools.ts';

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

let phones = 0;
async function company(name = 'Peluquería Sol') {
  const owner = await registerTenant(t.app, { companyName: name, timezone: 'America/Bogota' });
  await t.database.db.update(tenants).set({ subscriptionPlan: 'professional' }).where(eq(tenants.id, owner.tenant.id));
  const call = (method: 'GET' | 'POST' | 'PUT', path: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${path}`, headers: bearer(owner.token), payload: payload as object });
  const [funnel] = (await call('GET', '/funnels/summary')).json() as { id: string }[];
  const columns = (await call('GET', `/funnels/${funnel!.id}/columns`)).json() as { id: string; title: string }[];
  const saved = await call('PUT', `/columns/${columns[0]!.id}`, {
    gemini_config: { isEnabled: true, systemPrompt: 'Atiende a los clientes de la peluquería.', tools: [], quietSeconds: 0 },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  phones += 1;
  const customer = { appName: sandboxAppName(owner.tenant), phone: `52155800${String(phones).padStart(5, '0')}`, name: 'Ana' };
  const says = async (text: string) => {
    await t.app.sandboxPhone!.customerSends({ ...customer, kind: 'text', text });
    await t.app.queue.drain();
  };
  const card = async () => {
    const board = (await call('GET', `/funnels/${funnel!.id}/board`)).json() as {
      columns: { id: string; cards: { id: string; phone: string; aiEnabled: boolean; columnId: string }[] }[];
    };
    return board.columns.flatMap((column) => column.cards).find((entry) => entry.phone.replace(/\D/g, '') === customer.phone)!;
  };
  const items = async () =>
    (await call('GET', `/cards/${(await card()).id}/messages?limit=50`)).json().items as Array<{ kind: string; sender?: string; text: string }>;
  const aiMessages = async () => (await items()).filter((item) => item.kind === 'message' && item.sender === 'ai').map((item) => item.text);
  return { owner, call, columns, says, card, items, aiMessages };
}

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

  it('says so instead of booking when the company has no agenda', async () => {
    const shop = await company('Sin Agenda');
    await shop.says('Quiero reservar un turno para mañana');
    expect(await t.database.db.select().from(appointments).where(eq(appointments.tenantId, shop.owner.tenant.id))).toEqual([]);
    expect(await shop.aiMessages()).toEqual(['No pude completar eso: La empresa no tiene servicios en su agenda.']);
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
