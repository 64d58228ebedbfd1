import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { cards, jobs } from '../../../db/schema/index.ts';
import { useListeningSandboxApp } from '../../../test/support/listening-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { nextEvent } from '../../../test/support/realtime-client.ts';
import { sandboxAppName } from '../tenants/index.ts';

const app = useListeningSandboxApp();

async function chatWithListener() {
  const owner = await registerTenant(app.t.app);
  await app.t.app.sandboxPhone!.customerSends({ appName: sandboxAppName(owner.tenant), phone: '5215566666666', name: 'Rita', kind: 'text', text: 'hola' });
  const [card] = await app.t.database.db.select().from(cards).where(eq(cards.tenantId, owner.tenant.id));
  const socket = await app.joinedSocket(owner);
  const post = (path: string, payload: object) =>
    app.t.app.inject({ method: 'POST', url: `/t/${owner.tenant.slug}/api${path}`, headers: bearer(owner.token), payload });
  return { owner, card: card!, socket, post };
}

describe('chat realtime', () => {
  it('tells every agent about a new internal note', async () => {
    const { card, socket, post } = await chatWithListener();
    const received = nextEvent(socket, 'note:new');
    const note = (await post('/note', { cardId: card.id, text: 'Cliente pidió factura' })).json();
    expect(await received).toEqual({ cardId: card.id, note });
    expect(note).toMatchObject({ author: 'Ana María López', text: 'Cliente pidió factura' });
  });

  it('tells every agent when a message is scheduled and when it has been sent', async () => {
    const { card, socket, post } = await chatWithListener();
    const created = nextEvent(socket, 'scheduled:updated');
    const item = (
      await post('/message/schedule', { cardId: card.id, scheduledFor: new Date(Date.now() + 10 * 60_000).toISOString(), text: 'Te llamo mañana' })
    ).json();
    expect(await created).toEqual({ cardId: card.id, scheduled: item });

    const sent = nextEvent(socket, 'scheduled:updated');
    const message = nextEvent(socket, 'message:new');
    await app.t.database.db
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(eq(jobs.name, 'chats.send-scheduled'));
    await app.t.app.queue.runDueJobsOnce();
    expect(await sent).toEqual({ cardId: card.id, scheduled: { id: item.id, status: 'sent' } });
    expect((await message).message).toMatchObject({ text: 'Te llamo mañana', sender: 'user' });
  });
});
