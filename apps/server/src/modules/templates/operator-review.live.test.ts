import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import type { BatchDto } from '@embudo/contracts/http/bulk-sends';
import { jobs } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { excelFile, multipartForm } from '../../../test/support/excel.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { syncUntilReviewed, until } from '../../../test/support/templates.ts';
import { startFakeGupshupServer } from '../../../test/fakes/fake-gupshup-server.ts';
import { bootstrapPlatformAdmin } from '../admin/index.ts';

// Live mode: the operator's approval changes only our row; Gupshup (the fake as a separate server) keeps its own review.
let t: TestApp;
let gupshup: Awaited<ReturnType<typeof startFakeGupshupServer>>;
let adminToken: string;
const ADMIN = { email: 'operador@embudo.test', password: 'Operador123' };
// Gupshup's 4003 (No Template Match), in the words of its table.
const PROVIDER_REFUSAL = 'El mensaje no coincide con ninguna plantilla aprobada en Gupshup: sincroniza las plantillas y elige una aprobada';

beforeAll(async () => {
  // The failed callback comes a while after Gupshup accepted the send, as the real one reports it, not before we stored its id.
  gupshup = await startFakeGupshupServer({ statusStepMs: 300 });
  gupshup.fake.templateReviewMs = 20;
  t = await buildTestApp({ providerMode: 'live', gupshupApiUrl: gupshup.url, gupshupPartnerUrl: gupshup.url });
  await listenOnRandomPort(t.app);
  await bootstrapPlatformAdmin(t.database.db, ADMIN);
  adminToken = (await t.app.inject({ method: 'POST', url: '/api/auth/admin/login', payload: ADMIN })).json().token;
  await t.app.inject({
    method: 'PUT',
    url: '/api/admin/settings/gupshup',
    headers: bearer(adminToken),
    payload: { apiKey: 'live-key-123', partnerEmail: 'ops@embudo.test', partnerPassword: 'secreto-partner' },
  });
});
afterAll(async () => {
  await t.close();
  await gupshup.close();
});

/** Runs the queue (chunks are due at once here) until the probe answers. */
const settled = <T>(probe: () => Promise<T | undefined>) =>
  until(async () => {
    await t.app.queue.runDueJobsOnce(10);
    return probe();
  }, 15_000);

describe('live mode: the operator approves a template Meta rejected', () => {
  it("lets it be sent, and the provider's refusal reaches the chat message and the batch row, un-billed", async () => {
    const owner = await registerTenant(t.app);
    const call = (method: 'GET' | 'POST', path: string, payload?: unknown) =>
      t.app.inject({ method, url: `/t/${owner.tenant.slug}/api${path}`, headers: bearer(owner.token), payload: payload as Record<string, unknown> });
    const provider = { appName: `revision-${owner.tenant.slug}`, sourceNumber: '5215500000003' };
    const saved = await t.app.inject({ method: 'PUT', url: `/t/${owner.tenant.slug}/api/gupshup/settings`, headers: bearer(owner.token), payload: provider });
    gupshup.apps.push({ ...provider, callbackUrl: saved.json().webhookUrl, apiKey: 'live-key-123' });

    const created = (await call('POST', '/templates', { name: 'vetada', body_text: 'Hay que rechazar esto' })).json();
    expect((await syncUntilReviewed(t, owner, created.id)).status).toBe('REJECTED');
    const approved = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/templates/${created.id}/status`,
      headers: bearer(adminToken),
      payload: { status: 'APPROVED' },
    });
    expect(approved.json()).toMatchObject({ status: 'APPROVED', blocked_by_operator: false });
    // Only the sandbox's review follows the operator: Gupshup still holds it rejected.
    expect(gupshup.fake.templatesOf(provider.appName).find((held) => held.id === created.provider_template_id)?.status).toBe('REJECTED');

    const started = (await call('POST', '/initiate-conversation', { templateId: created.id, phoneNumber: '5215577770001' })).json();
    const failedMessage = await settled(async () => {
      const page = (await call('GET', `/cards/${started.cardId}/messages`)).json() as { messages: Array<{ id: string; ack: number; error: string | null }> };
      return page.messages.find((message) => message.id === started.message.id && message.ack === -1);
    });
    expect(failedMessage.error).toBe(PROVIDER_REFUSAL);

    const funnelId = ((await call('GET', '/funnels/summary')).json() as Array<{ id: string }>)[0]!.id;
    const columnId = ((await call('GET', `/funnels/${funnelId}/columns`)).json() as Array<{ id: string }>)[0]!.id;
    const form = multipartForm(
      { templateId: created.id, targetColumnId: columnId, phoneColumn: 'telefono' },
      { field: 'file', name: 'clientes.xlsx', data: await excelFile([['telefono'], ['5215577770002']]) },
    );
    const batch = await t.app.inject({
      method: 'POST',
      url: `/t/${owner.tenant.slug}/api/funnels/${funnelId}/batches`,
      headers: { ...bearer(owner.token), ...form.headers },
      payload: form.body,
    });
    expect(batch.statusCode, batch.body).toBe(201);
    const row = await settled(async () => {
      await t.database.db
        .update(jobs)
        .set({ runAt: new Date() })
        .where(and(eq(jobs.name, 'bulk-sends.send-chunk'), inArray(jobs.status, ['pending'])));
      const listed = ((await call('GET', '/batches')).json() as BatchDto[]).find((entry) => entry.id === batch.json().id);
      return listed?.status === 'failed' ? listed : undefined;
    });
    expect(row).toMatchObject({ failed_count: 1, sent_count: 0, failure_reason: PROVIDER_REFUSAL });

    expect((await call('GET', '/usage')).json()).toMatchObject({ utilityTemplateCount: 0, totalCost: 0, failedUnbilledCount: 2 });
  });
});
