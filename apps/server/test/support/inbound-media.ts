import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { jobs, messages } from '../../db/schema/index.ts';
import type { TestApp } from './build-test-app.ts';
import { bearer, type registerTenant } from './factories.ts';

type Owner = Awaited<ReturnType<typeof registerTenant>>;

/**
 * Delivers an inbound document to the tenant's webhook as Gupshup would, then runs the queue until its
 * media download job ends; answers the job and the message as they are then.
 */
export async function deliverInboundFile(t: TestApp, owner: Owner, file: { url: string; contentType: string }) {
  const settings = (await t.app.inject({ method: 'GET', url: `/t/${owner.tenant.slug}/api/gupshup/settings`, headers: bearer(owner.token) })).json();
  const id = `wamid.${randomUUID().replace(/-/g, '')}`;
  const body = {
    app: settings.appName,
    timestamp: Date.now(),
    version: 2,
    type: 'message',
    payload: { id, source: '5215512340000', type: 'file', payload: { ...file, name: 'archivo' }, sender: { phone: '5215512340000', name: 'Cliente' } },
  };
  const delivered = await t.app.inject({ method: 'POST', url: new URL(settings.webhookUrl).pathname, payload: body });
  if (delivered.statusCode !== 200) throw new Error(`the webhook answered ${delivered.statusCode}`);
  const [message] = await t.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.tenantId, owner.tenant.id), eq(messages.providerMessageId, id)));
  const download = and(eq(jobs.name, 'chats.download-media'), sql`${jobs.payload}->>'messageId' = ${message!.id}`);
  const deadline = Date.now() + 8_000;
  for (;;) {
    const [job] = await t.database.db.select().from(jobs).where(download);
    if (job?.status === 'completed' || job?.status === 'failed') {
      const [row] = await t.database.db.select().from(messages).where(eq(messages.id, message!.id));
      return { job, message: row! };
    }
    if (Date.now() > deadline) throw new Error('the media download job did not end in time');
    await t.app.queue.runDueJobsOnce();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
