import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { cards, jobs, messages, scheduledMessages } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { sandboxAppName } from '../tenants/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
  await listenOnRandomPort(t.app);
});
afterAll(async () => t.close());

async function chatWithCustomer() {
  const owner = await registerTenant(t.app);
  await t.app.sandboxPhone!.customerSends({ appName: sandboxAppName(owner.tenant), phone: '5215577777777', kind: 'text', text: 'hola' });
  const [card] = await t.database.db.select().from(cards).where(eq(cards.tenantId, owner.tenant.id));
  return { owner, card: card! };
}

const schedule = (owner: Awaited<ReturnType<typeof registerTenant>>, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/t/${owner.tenant.slug}/api/message/schedule`, headers: bearer(owner.token), payload });

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

describe('POST /api/message/schedule', () => {
  it.each([
    [{ scheduledFor: new Date(Date.now() - 60_000).toISOString(), text: 'x' }, 'La fecha y hora deben ser en el futuro.'],
    [{ scheduledFor: inMinutes(25 * 60), text: 'fuera de ventana' }, 'Debes seleccionar una plantilla para programar fuera de la ventana de 24 horas.'],
    [{ scheduledFor: inMinutes(10), text: '   ' }, 'El mensaje no puede estar vacío.'],
    [{ scheduledFor: 'mañana', text: 'x' }, 'Fecha y hora inválidas.'],
  ])('refuses %o with 400 and writes nothing', async (payload, message) => {
    const { owner, card } = await chatWithCustomer();
    const response = await schedule(owner, { cardId: card.id, ...payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect(await t.database.db.select().from(scheduledMessages).where(eq(scheduledMessages.cardId, card.id))).toHaveLength(0);
  });

  it('shows the item as scheduled in the timeline and sends it at its time through the queue, once', async () => {
    const { owner, card } = await chatWithCustomer();
    const response = await schedule(owner, { cardId: card.id, scheduledFor: inMinutes(30), text: 'Recordatorio de tu cita' });
    expect(response.statusCode).toBe(201);
    const item = response.json();
    expect(item).toMatchObject({ status: 'scheduled', text: 'Recordatorio de tu cita' });

    const timeline = (await t.app.inject({ method: 'GET', url: `/t/${owner.tenant.slug}/api/cards/${card.id}/messages`, headers: bearer(owner.token) })).json();
    expect(timeline.scheduledMessages.map((entry: { id: string }) => entry.id)).toEqual([item.id]);

    // Not due yet: nothing is sent.
    await t.app.queue.runDueJobsOnce();
    expect((await t.database.db.select().from(messages).where(eq(messages.cardId, card.id))).filter((m) => m.sender === 'user')).toHaveLength(0);

    // Time passes (the job row is what a restarted process would find too).
    await t.database.db
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(eq(jobs.name, 'chats.send-scheduled'));
    await t.app.queue.drain();
    await t.app.queue.drain();
    const sent = (await t.database.db.select().from(messages).where(eq(messages.cardId, card.id))).filter((m) => m.sender === 'user');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toBe('Recordatorio de tu cita');
    const [after] = await t.database.db.select().from(scheduledMessages).where(eq(scheduledMessages.id, item.id));
    expect(after).toMatchObject({ status: 'sent', sentMessageId: sent[0]!.id });
  });

  it('refuses a template that is not approved in this tenant', async () => {
    const { owner, card } = await chatWithCustomer();
    const response = await schedule(owner, { cardId: card.id, scheduledFor: inMinutes(48 * 60), templateId: crypto.randomUUID(), variables: { 1: 'Ana' } });
    expect(response.statusCode).toBe(400);
  });
});
