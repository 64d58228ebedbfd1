import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { MARKETING_OPTED_OUT } from '@embudo/contracts/http/chats';
import { BULK_MAX_ROWS, BULK_NO_DATA_ROWS, BULK_REQUIRED_FIELDS, BULK_TOO_MANY_ROWS, EXCEL_FILES_ONLY, type BatchDto } from '@embudo/contracts/http/bulk-sends';
import {
  batchCountSlices,
  batches,
  batchRecipients,
  boardColumns,
  cards,
  contacts,
  funnels,
  jobs,
  messages,
  messageTemplates,
} from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import ExcelJS from 'exceljs';
import { excelFile, largeExcelFile, multipartForm } from '../../../test/support/excel.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { signInMember } from '../../../test/support/members.ts';
import { connectClient, joinTenant, listenOnRandomPort, type TestSocket } from '../../../test/support/realtime-client.ts';
import { approvedTemplate, syncUntilReviewed, until } from '../../../test/support/templates.ts';
import type { FakeGupshup } from '../../messaging-providers/sandbox/fake-gupshup.ts';
import { sandboxAppName } from '../tenants/index.ts';
import { CONTACT_IN_HIDDEN_FUNNEL } from '../chats/index.ts';
import { TEMPLATE_NOT_APPROVED } from '../templates/index.ts';
import { OLD_XLS_FORMAT } from './excel-sheet.parser.ts';
import { AGED_SLICES_PER_READ, COUNTS_KEPT_MS, ROWS_PER_TRANSACTION } from './bulk-sends.service.ts';
import { savePricing } from '../usage/index.ts';
import { SendPacer } from '../send-pacing/index.ts';
import { createTestClock } from '../../../test/support/test-clock.ts';
import { statementsOfDueJobs, statementsOfSends, STATEMENTS_PER_SEND } from '../../../test/support/send-cost.ts';

type Owner = Awaited<ReturnType<typeof registerTenant>>;

const CHUNK_JOB = 'bulk-sends.send-chunk';
const SEND_JOB = 'chats.send-message';

let t: TestApp;
// Follows real time; a test that counts the number's tokens freezes it, so the bucket refills only when it moves it.
const clock = createTestClock();
let pacer: SendPacer;
let fake: FakeGupshup;
let baseUrl: string;
const sockets: TestSocket[] = [];
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox', clock: clock.now });
  pacer = new SendPacer({ db: t.database.db, clock: clock.now });
  baseUrl = await listenOnRandomPort(t.app);
  fake = t.app.sandboxPhone!;
  fake.templateReviewMs = 20;
});
afterAll(async () => {
  sockets.forEach((socket) => socket.disconnect());
  await t.close();
});

const db = () => t.database.db;
const call = (who: Owner, method: 'GET' | 'POST' | 'PUT', path: string, payload?: unknown) =>
  t.app.inject({ method, url: `/t/${who.tenant.slug}/api${path}`, headers: bearer(who.token), payload: payload as Record<string, unknown> });

const PEDIDO = { name: 'aviso_pedido', body_text: 'Hola {{1}}, tu pedido {{2}} está listo.' };
const HEADERS = ['telefono', 'Variable 1', 'Variable 2'];
const valid = [HEADERS, ['5215560000001', 'Ana', 'A-1']];

async function funnelOf(owner: Owner) {
  const [funnel] = (await call(owner, 'GET', '/funnels/summary')).json() as Array<{ id: string }>;
  const columns = (await call(owner, 'GET', `/funnels/${funnel!.id}/columns`)).json() as Array<{ id: string; title: string }>;
  return { funnelId: funnel!.id, columns };
}

interface BatchRequest {
  fields: Record<string, string>;
  file?: { name: string; data: Buffer };
}

function postBatch(owner: Owner, funnelId: string, request: BatchRequest) {
  const form = multipartForm(request.fields, request.file && { field: 'file', ...request.file });
  return t.app.inject({
    method: 'POST',
    url: `/t/${owner.tenant.slug}/api/funnels/${funnelId}/batches`,
    headers: { ...bearer(owner.token), ...form.headers },
    payload: form.body,
  });
}

/** A company with the approved template and a batch request to its second column, ready to send these rows. */
async function companyWithFile(rows: unknown[][], owner?: Owner) {
  const company = owner ?? (await registerTenant(t.app));
  const template = await approvedTemplate(t, company, PEDIDO);
  const { funnelId, columns } = await funnelOf(company);
  const request: BatchRequest = {
    fields: { templateId: template.id, targetColumnId: columns[1]!.id, phoneColumn: 'telefono' },
    file: { name: 'clientes.xlsx', data: await excelFile(rows) },
  };
  return { owner: company, template, funnelId, columns, request };
}

/** Lets time pass for the paced chunks (the bucket refills, the successor is due) and runs the queue until every chunk and send is done. */
async function sendEverything() {
  await until(async () => {
    clock.advance(1_000);
    await db()
      .update(jobs)
      .set({ runAt: sql`now()` })
      .where(and(eq(jobs.name, CHUNK_JOB), eq(jobs.status, 'pending')));
    await t.app.queue.runDueJobsOnce(10);
    const left = await db()
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(inArray(jobs.name, [CHUNK_JOB, SEND_JOB]), inArray(jobs.status, ['pending', 'running'])));
    return left.length === 0 ? true : undefined;
  }, 20_000);
}

async function listed(owner: Owner, batchId: string): Promise<BatchDto | undefined> {
  const response = await call(owner, 'GET', '/batches');
  expect(response.statusCode).toBe(200);
  return (response.json() as BatchDto[]).find((batch) => batch.id === batchId);
}

const untilBatch = (owner: Owner, batchId: string, done: (batch: BatchDto) => boolean) =>
  until(async () => {
    const batch = await listed(owner, batchId);
    return batch && done(batch) ? batch : undefined;
  }, 20_000);

/** The template sends Gupshup received from this company, by destination. */
const sendsTo = (owner: Owner) =>
  fake.requests
    .filter((request) => request.path.endsWith('/template/msg') && request.form['src.name'] === sandboxAppName(owner.tenant))
    .map((request) => request.form.destination);

/** A batch's chunk jobs, the first first. */
const chunkJobsOf = (batchId: string) =>
  db()
    .select()
    .from(jobs)
    .where(and(eq(jobs.name, CHUNK_JOB), sql`${jobs.payload}->>'batchId' = ${batchId}`))
    .orderBy(asc(jobs.createdAt), asc(jobs.runAt));

async function nothingWritten(tenantId: string) {
  expect(await db().select().from(batches).where(eq(batches.tenantId, tenantId))).toHaveLength(0);
  expect(await db().select().from(batchRecipients).where(eq(batchRecipients.tenantId, tenantId))).toHaveLength(0);
  expect(await db().select().from(contacts).where(eq(contacts.tenantId, tenantId))).toHaveLength(0);
  expect(
    await db()
      .select()
      .from(jobs)
      .where(and(eq(jobs.name, CHUNK_JOB), sql`${jobs.payload}->>'tenantId' = ${tenantId}`)),
  ).toHaveLength(0);
}

describe('POST /api/funnels/{id}/batches', () => {
  it('queues the valid rows paced in chunks, counts bad rows as failed, sends repeated phones once, and follows the statuses to read', async () => {
    const { owner, funnelId, columns, request } = await companyWithFile([
      HEADERS,
      ['5215510000001', 'Ana', 'A-1'],
      [5215510000002, 'Luis', 'B-2'],
      ['+52 1 55 1000 0003', 'Eva', 'C-3'],
      ['12ab', 'Mal', 'X-0'],
      ['52 155 1000 0001', 'Ana otra vez', 'A-9'],
    ]);
    clock.freeze();
    const response = await postBatch(owner, funnelId, request);
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json();
    expect(created).toMatchObject({
      status: 'processing',
      message_template_name: 'aviso_pedido',
      user_name: owner.user.name,
      funnel_id: funnelId,
      total_messages: 4,
      sent_count: 0,
      delivered_count: 0,
      read_count: 0,
      replied_count: 0,
      failed_count: 1,
      invalid_rows: 1,
      duplicates_skipped: 1,
    });
    // The answer is the batch as the dashboard lists it, which adds the number's rate and when the rows should have gone.
    const { invalid_rows: _invalid, duplicates_skipped: _duplicates, ...asCreated } = created;
    const { send_rate: rate, estimated_end_at: estimatedEnd, ...asListed } = (await listed(owner, created.id))!;
    expect(asListed).toEqual(asCreated);
    // Sandbox companies send through Gupshup: 20 messages a second by default, so 3 rows take 150 ms.
    expect(rate).toBe(20);
    expect(estimatedEnd).toBe(new Date(clock.now().getTime() + 150).toISOString());
    clock.resume();
    const [refused] = await db()
      .select()
      .from(batchRecipients)
      .where(and(eq(batchRecipients.batchId, created.id), eq(batchRecipients.status, 'failed')));
    expect(refused).toMatchObject({ rowNumber: 5, errorReason: 'Teléfono inválido: "12ab" (usa código de país y número, solo dígitos).' });

    // One chunk job starts the batch; the number's bucket holds enough for its three rows at once.
    const chunks = await db()
      .select({ payload: jobs.payload })
      .from(jobs)
      .where(and(eq(jobs.name, CHUNK_JOB), sql`${jobs.payload}->>'batchId' = ${created.id}`));
    expect(chunks.map((chunk) => chunk.payload)).toEqual([{ tenantId: owner.tenant.id, batchId: created.id, chunk: 0 }]);

    await sendEverything();
    expect(sendsTo(owner).sort()).toEqual(['5215510000001', '5215510000002', '5215510000003']);
    const landed = await db().select().from(cards).where(eq(cards.tenantId, owner.tenant.id)).orderBy(asc(cards.phone));
    expect(landed.map((card) => [card.phone, card.columnId])).toEqual(
      ['5215510000001', '5215510000002', '5215510000003'].map((phone) => [phone, columns[1]!.id]),
    );
    const texts = await db()
      .select({ text: messages.text, ack: messages.ack })
      .from(messages)
      .where(eq(messages.tenantId, owner.tenant.id))
      .orderBy(asc(messages.text));
    expect(texts.map((row) => row.text)).toEqual([
      'Hola Ana, tu pedido A-1 está listo.',
      'Hola Eva, tu pedido C-3 está listo.',
      'Hola Luis, tu pedido B-2 está listo.',
    ]);

    const done = await untilBatch(owner, created.id, (batch) => batch.read_count === 3);
    expect(done).toMatchObject({ status: 'completed', total_messages: 4, sent_count: 3, delivered_count: 3, read_count: 3, replied_count: 0, failed_count: 1 });
    // A finished batch has no pace to show.
    expect(done).not.toHaveProperty('send_rate');
    expect(done).not.toHaveProperty('estimated_end_at');
    // Usage counts each send as a template of its category, as any template send.
    expect((await call(owner, 'GET', '/usage')).json()).toMatchObject({ utilityTemplateCount: 3 });
  });

  it('reads the variables from the columns the caller maps, and accepts a phone column of any name', async () => {
    const { owner, funnelId, request } = await companyWithFile([
      ['Celular', 'Cliente', 'Pedido'],
      ['5215520000001', 'Marta', 'Z-7'],
    ]);
    const response = await postBatch(owner, funnelId, {
      ...request,
      fields: { ...request.fields, phoneColumn: 'Celular', variableColumns: JSON.stringify({ 1: 'Cliente', 2: 'Pedido' }) },
    });
    expect(response.statusCode, response.body).toBe(201);
    await sendEverything();
    const [message] = await db().select().from(messages).where(eq(messages.tenantId, owner.tenant.id));
    expect(message!.text).toBe('Hola Marta, tu pedido Z-7 está listo.');
  });

  it('titles the new chats from the name column the wizard chose, and an existing chat unless it was renamed by hand', async () => {
    const owner = await registerTenant(t.app);
    const app = sandboxAppName(owner.tenant);
    await fake.customerSends({ appName: app, phone: '5215521000002', kind: 'text', text: 'hola' });
    await fake.customerSends({ appName: app, phone: '5215521000003', name: 'Caro', kind: 'text', text: 'hola' });
    const renamedByHand = '5215521000004';
    await fake.customerSends({ appName: app, phone: renamedByHand, name: 'Dani', kind: 'text', text: 'hola' });
    const [handCard] = await db()
      .select()
      .from(cards)
      .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, renamedByHand)));
    expect((await call(owner, 'PUT', `/cards/${handCard!.id}`, { title: 'Dani (proveedor)' })).statusCode).toBe(200);
    const { funnelId, request } = await companyWithFile(
      [
        ['telefono', 'Nombre', 'Variable 1', 'Variable 2'],
        ['5215521000001', 'Ana Pérez', 'Ana', '1'],
        ['5215521000002', 'Beto Ruiz', 'Beto', '2'],
        ['5215521000003', 'Carolina Díaz', 'Caro', '3'],
        [renamedByHand, 'Daniel Gómez', 'Dani', '4'],
        ['5215521000005', '', 'Eva', '5'],
      ],
      owner,
    );
    expect((await postBatch(owner, funnelId, { ...request, fields: { ...request.fields, nameColumn: 'Nombre' } })).statusCode).toBe(201);
    await sendEverything();
    const titles = Object.fromEntries((await db().select().from(cards).where(eq(cards.tenantId, owner.tenant.id))).map((card) => [card.phone, card.title]));
    expect(titles).toEqual({
      '5215521000001': 'Ana Pérez',
      '5215521000002': 'Beto Ruiz',
      '5215521000003': 'Carolina Díaz',
      [renamedByHand]: 'Dani (proveedor)',
      '5215521000005': '5215521000005',
    });

    // Without a name column the new chats keep the phone, as before.
    const other = await companyWithFile([
      ['telefono', 'Nombre', 'Variable 1', 'Variable 2'],
      ['5215521000009', 'Zoe', 'Zoe', '9'],
    ]);
    expect((await postBatch(other.owner, other.funnelId, other.request)).statusCode).toBe(201);
    await sendEverything();
    const [untitled] = await db().select().from(cards).where(eq(cards.tenantId, other.owner.tenant.id));
    expect(untitled!.title).toBe('5215521000009');
  });

  it('announces batch_updated to the company and counts a customer reply after the batch message', async () => {
    const { owner, funnelId, request } = await companyWithFile([HEADERS, ['5215530000001', 'Rosa', 'R-1'], ['5215530000002', 'Pablo', 'P-2']]);
    const agent = await signInMember(t, owner, 'agent', [funnelId]);
    const socket = connectClient(baseUrl, agent.token, owner.tenant.slug);
    sockets.push(socket);
    await joinTenant(socket, owner.tenant.slug, agent.token);
    const seen: string[] = [];
    socket.on('batch_updated', (payload) => seen.push(payload?.batchId ?? ''));

    const created = (await postBatch(owner, funnelId, request)).json();
    await until(async () => (seen.includes(created.id) ? true : undefined));
    await sendEverything();
    await untilBatch(owner, created.id, (batch) => batch.read_count === 2);
    const before = seen.length;

    await fake.customerSends({ appName: sandboxAppName(owner.tenant), phone: '5215530000002', name: 'Pablo', kind: 'text', text: 'Me interesa' });
    // The dashboard hears of the reply from a listener of customer-message.stored, run by the queue.
    await t.app.queue.drain();
    const replied = await untilBatch(owner, created.id, (batch) => batch.replied_count === 1);
    expect(replied).toMatchObject({ replied_count: 1, sent_count: 2, status: 'completed' });
    await until(async () => (seen.slice(before).includes(created.id) ? true : undefined));
  });

  it('queues one dashboard announcement per batch for the statuses and replies one transaction applies', async () => {
    const { owner, funnelId, columns, request } = await companyWithFile([HEADERS, ['5215531000001', 'Rosa', 'R-1'], ['5215531000002', 'Pablo', 'P-2']]);
    const created = (await postBatch(owner, funnelId, request)).json();
    await sendEverything();
    await untilBatch(owner, created.id, (batch) => batch.read_count === 2);
    const sent = await db()
      .select({ id: messages.id, cardId: messages.cardId })
      .from(messages)
      .innerJoin(batchRecipients, eq(batchRecipients.messageId, messages.id))
      .where(eq(batchRecipients.batchId, created.id));
    expect(sent).toHaveLength(2);
    const dashboardJobs = async () =>
      (
        await db()
          .select({ name: jobs.name })
          .from(jobs)
          .where(
            and(
              sql`${jobs.payload}->>'tenantId' = ${owner.tenant.id}`,
              inArray(jobs.name, ['event.bulk-sends.progress-on-message-status', 'event.bulk-sends.progress-on-customer-reply']),
            ),
          )
      ).length;
    const statusOf = (message: (typeof sent)[number]) => ({
      type: 'message.status-changed' as const,
      tenantId: owner.tenant.id,
      payload: { messageId: message.id, cardId: message.cardId, ack: 3 as const },
    });
    const replyOn = (message: (typeof sent)[number]) => ({
      type: 'customer-message.stored' as const,
      tenantId: owner.tenant.id,
      payload: { messageId: message.id, cardId: message.cardId, funnelId, columnId: columns[1]!.id, cardCreated: false },
    });

    const before = await dashboardJobs();
    await db().transaction(async (tx) => {
      for (const message of [...sent, ...sent]) await t.app.domainEvents.publish(tx, statusOf(message));
      for (const message of sent) await t.app.domainEvents.publish(tx, replyOn(message));
    });
    expect(await dashboardJobs()).toBe(before + 1);
    for (const message of sent) await db().transaction((tx) => t.app.domainEvents.publish(tx, statusOf(message)));
    expect(await dashboardJobs()).toBe(before + 3);
  });

  it('leaves an existing chat where it is, and refuses a row whose chat is in a funnel the sender may not see', async () => {
    const owner = await registerTenant(t.app);
    const { funnelId, columns } = await funnelOf(owner);
    const [hidden] = await db().insert(funnels).values({ tenantId: owner.tenant.id, name: 'Privado', position: 1 }).returning();
    const [hiddenColumn] = await db()
      .insert(boardColumns)
      .values({ tenantId: owner.tenant.id, funnelId: hidden!.id, title: 'Privada', position: 0 })
      .returning();
    for (const phone of ['5215540000001', '5215540000002']) {
      await fake.customerSends({ appName: sandboxAppName(owner.tenant), phone, name: 'Cliente', kind: 'text', text: 'hola' });
    }
    await db()
      .update(cards)
      .set({ columnId: columns[3]!.id })
      .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, '5215540000001')));
    await db()
      .update(cards)
      .set({ funnelId: hidden!.id, columnId: hiddenColumn!.id })
      .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, '5215540000002')));
    const agent = await signInMember(t, owner, 'agent', [funnelId]);
    const { request } = await companyWithFile([HEADERS, ['5215540000001', 'Ana', '1'], ['5215540000002', 'Beto', '2'], ['5215540000003', 'Caro', '3']], owner);

    const created = (await postBatch(agent, funnelId, request)).json();
    await sendEverything();
    expect(sendsTo(owner).sort()).toEqual(['5215540000001', '5215540000003']);
    const byPhone = Object.fromEntries((await db().select().from(cards).where(eq(cards.tenantId, owner.tenant.id))).map((card) => [card.phone, card.columnId]));
    expect(byPhone).toEqual({ '5215540000001': columns[3]!.id, '5215540000002': hiddenColumn!.id, '5215540000003': columns[1]!.id });
    const [refused] = await db()
      .select()
      .from(batchRecipients)
      .where(and(eq(batchRecipients.batchId, created.id), eq(batchRecipients.status, 'failed')));
    expect(refused).toMatchObject({ phone: '5215540000002', errorReason: CONTACT_IN_HIDDEN_FUNNEL });
    expect(await untilBatch(owner, created.id, (batch) => batch.sent_count === 2)).toMatchObject({ total_messages: 3, failed_count: 1 });
  });

  it('ends failed when nothing could be sent', async () => {
    const { owner, funnelId, request } = await companyWithFile([HEADERS, ['5215550000001', 'Ana', '1'], ['5215550000002', 'Beto', '2']]);
    const refusal = { status: 400, body: { status: 'error', message: 'Invalid Destination' } };
    fake.failNextSends(refusal, refusal);
    const created = (await postBatch(owner, funnelId, request)).json();
    await sendEverything();
    expect(await untilBatch(owner, created.id, (batch) => batch.status !== 'processing')).toMatchObject({
      status: 'failed',
      sent_count: 0,
      failed_count: 2,
      total_messages: 2,
      failure_reason: 'El número del cliente no es válido: revisa que tenga código de país y solo dígitos',
    });
    // Refused sends never reached WhatsApp: nothing is billed.
    expect((await call(owner, 'GET', '/usage')).json()).toMatchObject({ totalCost: 0, utilityTemplateCount: 0, failedUnbilledCount: 0 });
  });

  it('skips customers who opted out of marketing on a marketing template (no chat, no send, no bill); a utility one reaches them', async () => {
    const owner = await registerTenant(t.app);
    const promo = await approvedTemplate(t, owner, { name: 'promo_lote', category: 'MARKETING', body_text: 'Hola {{1}}, tu cupón {{2}}.' });
    const appName = sandboxAppName(owner.tenant);
    // One opted out in their chat; one opted out and their chat is gone (a contact without chat); one never did.
    await fake.customerSends({ appName, phone: '5215552000001', name: 'Ana', kind: 'text', text: 'Baja' });
    await fake.customerSends({ appName, phone: '5215552000003', name: 'Caro', kind: 'text', text: 'STOP' });
    await db()
      .delete(cards)
      .where(and(eq(cards.tenantId, owner.tenant.id), eq(cards.phone, '5215552000003')));
    const rows = [HEADERS, ['5215552000001', 'Ana', '1'], ['5215552000002', 'Beto', '2'], ['5215552000003', 'Caro', '3']];
    const { funnelId, request } = await companyWithFile(rows, owner);

    const marketing = (await postBatch(owner, funnelId, { ...request, fields: { ...request.fields, templateId: promo.id } })).json();
    await sendEverything();
    expect(sendsTo(owner)).toEqual(['5215552000002']);
    expect(await untilBatch(owner, marketing.id, (batch) => batch.status !== 'processing' && batch.sent_count === 1)).toMatchObject({
      total_messages: 3,
      failed_count: 2,
      failure_reason: MARKETING_OPTED_OUT,
    });
    expect((await call(owner, 'GET', `/batches/${marketing.id}/failures`)).json()).toEqual([
      { row_number: 2, phone: '5215552000001', contact_name: null, reason: MARKETING_OPTED_OUT, code: null },
      { row_number: 4, phone: '5215552000003', contact_name: null, reason: MARKETING_OPTED_OUT, code: null },
    ]);
    const phones = (await db().select({ phone: cards.phone }).from(cards).where(eq(cards.tenantId, owner.tenant.id))).map((card) => card.phone);
    expect(phones.sort()).toEqual(['5215552000001', '5215552000002']);
    expect((await call(owner, 'GET', '/usage')).json()).toMatchObject({ marketingTemplateCount: 1 });

    const utility = (await postBatch(owner, funnelId, request)).json();
    await sendEverything();
    expect(await untilBatch(owner, utility.id, (batch) => batch.status !== 'processing' && batch.sent_count === 3)).toMatchObject({ failed_count: 0 });
    expect(sendsTo(owner).slice(1).sort()).toEqual(['5215552000001', '5215552000002', '5215552000003']);
  });

  it('un-bills the rows the provider accepted and then reported failed, so Mi Consumo counts only what went out', async () => {
    await savePricing(db(), {
      price_per_sent_message: 0,
      price_per_received_message: 0,
      price_template_marketing: 0.05,
      price_template_utility: 0.02,
      price_per_1000_ai_tokens: 0,
    });
    const { owner, template, funnelId, request } = await companyWithFile([HEADERS, ['5215551000001', 'Ana', '1'], ['5215551000002', 'Beto', '2']]);
    // Meta paused the template after approving it: Gupshup still accepts each send, then reports it failed.
    fake.templatesOf(sandboxAppName(owner.tenant)).find((held) => held.id === template.provider_template_id)!.status = 'PAUSED';
    const created = (await postBatch(owner, funnelId, request)).json();
    await sendEverything();
    expect(await untilBatch(owner, created.id, (batch) => batch.failed_count === 2)).toMatchObject({
      status: 'failed',
      sent_count: 0,
      failed_count: 2,
      failure_reason: 'Plantilla pausada por Meta por baja calidad: edítala o usa otra plantilla',
    });
    expect((await call(owner, 'GET', '/usage')).json()).toMatchObject({ totalCost: 0, utilityTemplateCount: 0, failedUnbilledCount: 2 });

    // A send that goes out is billed at the price in force, beside the two un-billed ones.
    fake.templatesOf(sandboxAppName(owner.tenant)).find((held) => held.id === template.provider_template_id)!.status = 'APPROVED';
    const again = (
      await postBatch(owner, funnelId, { ...request, file: { name: 'otra.xlsx', data: await excelFile([HEADERS, ['5215551000003', 'Eva', '3']]) } })
    ).json();
    await sendEverything();
    await untilBatch(owner, again.id, (batch) => batch.sent_count === 1);
    expect((await call(owner, 'GET', '/usage')).json()).toMatchObject({ totalCost: 0.02, utilityTemplateCount: 1, failedUnbilledCount: 2 });
    await savePricing(db(), {
      price_per_sent_message: 0,
      price_per_received_message: 0,
      price_template_marketing: 0,
      price_template_utility: 0,
      price_per_1000_ai_tokens: 0,
    });
  });

  it.each<[string, (request: BatchRequest) => Promise<BatchRequest> | BatchRequest, string]>([
    ['no file', (r) => ({ fields: r.fields }), BULK_REQUIRED_FIELDS],
    ['no phone column', (r) => ({ ...r, fields: { ...r.fields, phoneColumn: '' } }), BULK_REQUIRED_FIELDS],
    ['a blank phone column', (r) => ({ ...r, fields: { ...r.fields, phoneColumn: '   ' } }), BULK_REQUIRED_FIELDS],
    ['no template', (r) => ({ ...r, fields: { targetColumnId: r.fields.targetColumnId!, phoneColumn: 'telefono' } }), BULK_REQUIRED_FIELDS],
    ['no destination column', (r) => ({ ...r, fields: { templateId: r.fields.templateId!, phoneColumn: 'telefono' } }), BULK_REQUIRED_FIELDS],
    ['a bad template id', (r) => ({ ...r, fields: { ...r.fields, templateId: 'plantilla' } }), 'Plantilla inválida.'],
    ['a CSV file', (r) => ({ ...r, file: { name: 'clientes.csv', data: Buffer.from('telefono\n5215512345678\n') } }), EXCEL_FILES_ONLY],
    [
      'a text file named .xlsx',
      (r) => ({ ...r, file: { name: 'clientes.xlsx', data: Buffer.from('telefono,Variable 1\n5215512345678,Ana\n') } }),
      EXCEL_FILES_ONLY,
    ],
    [
      'a PNG named .xls',
      (r) => ({
        ...r,
        file: {
          name: 'clientes.xls',
          data: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'),
        },
      }),
      EXCEL_FILES_ONLY,
    ],
    [
      'an old binary .xls',
      (r) => {
        const data = Buffer.alloc(4096);
        Buffer.from('D0CF11E0A1B11AE1', 'hex').copy(data);
        return { ...r, file: { name: 'clientes.xls', data } };
      },
      OLD_XLS_FORMAT,
    ],
    ['a phone column not in the file', (r) => ({ ...r, fields: { ...r.fields, phoneColumn: 'celular' } }), 'La columna "celular" no está en el archivo.'],
    ['a name column not in the file', (r) => ({ ...r, fields: { ...r.fields, nameColumn: 'Nombre' } }), 'La columna "Nombre" no está en el archivo.'],
    [
      "a file without the variables' columns",
      async (r) => ({ ...r, file: { name: 'c.xlsx', data: await excelFile([['telefono'], ['5215512345678']]) } }),
      'Elige la columna del archivo para la Variable 1 de la plantilla.',
    ],
    [
      'a variable mapped to a missing column',
      (r) => ({ ...r, fields: { ...r.fields, variableColumns: '{"1":"Nombre","2":"Variable 2"}' } }),
      'La columna "Nombre" no está en el archivo.',
    ],
    [
      'a variable the template lacks',
      (r) => ({ ...r, fields: { ...r.fields, variableColumns: '{"1":"Variable 1","2":"Variable 2","3":"Variable 2"}' } }),
      'La plantilla aviso_pedido no tiene la variable {{3}}.',
    ],
    [
      'variable columns that are not JSON',
      (r) => ({ ...r, fields: { ...r.fields, variableColumns: '{1:' } }),
      'variableColumns debe ser JSON: {"1": "Nombre de la columna"}.',
    ],
    ['only headers', async (r) => ({ ...r, file: { name: 'c.xlsx', data: await excelFile([HEADERS]) } }), BULK_NO_DATA_ROWS],
    [
      'only invalid rows',
      async (r) => ({ ...r, file: { name: 'c.xlsx', data: await excelFile([HEADERS, ['55-12', 'Ana', '1'], ['', 'Luis', '2']]) } }),
      'Ninguna fila del archivo se puede enviar. Fila 2: Teléfono inválido: "55-12" (usa código de país y número, solo dígitos).',
    ],
    [
      'a row without a variable value',
      async (r) => ({ ...r, file: { name: 'c.xlsx', data: await excelFile([HEADERS, ['5215512345678', 'Ana', '']]) } }),
      'Ninguna fila del archivo se puede enviar. Fila 2: Falta la Variable 2 (columna "Variable 2").',
    ],
    [
      'more rows than the limit',
      async (r) => ({
        ...r,
        file: {
          name: 'c.xlsx',
          data: await largeExcelFile(HEADERS, BULK_MAX_ROWS + 1, (i) => [`52155${String(i).padStart(8, '0')}`, 'Ana', '1']),
        },
      }),
      BULK_TOO_MANY_ROWS(BULK_MAX_ROWS + 1),
    ],
  ])(
    'refuses %s with 400 and writes nothing',
    async (_label, change, message) => {
      const { owner, funnelId, request } = await companyWithFile(valid);
      const response = await postBatch(owner, funnelId, await change(request));
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toBe(message);
      await nothingWritten(owner.tenant.id);
      // The over-the-limit file has 100,001 rows to write and read: a few seconds, more on a loaded machine.
    },
    120_000,
  );

  it('says 100.000 in the limit message', () => {
    expect(BULK_TOO_MANY_ROWS(100_001)).toBe('El archivo tiene 100.001 filas con datos: el máximo por envío es 100.000. Divídelo en varios archivos.');
  });

  it('refuses a body that is not multipart with 400', async () => {
    const { owner, funnelId, request } = await companyWithFile(valid);
    const response = await call(owner, 'POST', `/funnels/${funnelId}/batches`, request.fields);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Envía el archivo como multipart/form-data en el campo file.');
    await nothingWritten(owner.tenant.id);
  });

  it('refuses a template that is not approved with 400 and writes nothing', async () => {
    const { owner, funnelId, request } = await companyWithFile(valid);
    const pending = (await call(owner, 'POST', '/templates', { name: 'pendiente', body_text: 'Hola {{1}}' })).json();
    const rejected = (await call(owner, 'POST', '/templates', { name: 'mala', body_text: 'Por favor rechazar {{1}}' })).json();
    expect((await syncUntilReviewed(t, owner, rejected.id)).status).toBe('REJECTED');
    await db().update(messageTemplates).set({ status: 'PENDING' }).where(eq(messageTemplates.id, pending.id));
    for (const templateId of [pending.id, rejected.id]) {
      const response = await postBatch(owner, funnelId, { ...request, fields: { ...request.fields, templateId } });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(TEMPLATE_NOT_APPROVED);
    }
    await nothingWritten(owner.tenant.id);
  });

  it("answers 404 to another company's funnel, template or column, and to a column of another funnel", async () => {
    const ours = await companyWithFile(valid);
    const theirs = await companyWithFile(valid);
    const [otherFunnel] = await db().insert(funnels).values({ tenantId: ours.owner.tenant.id, name: 'Otro', position: 1 }).returning();
    const [otherColumn] = await db()
      .insert(boardColumns)
      .values({ tenantId: ours.owner.tenant.id, funnelId: otherFunnel!.id, title: 'Otra', position: 0 })
      .returning();
    const cases: Array<[string, BatchRequest, string]> = [
      [theirs.funnelId, ours.request, 'Funnel no encontrado.'],
      [ours.funnelId, { ...ours.request, fields: { ...ours.request.fields, templateId: theirs.template.id } }, 'Template not found.'],
      [ours.funnelId, { ...ours.request, fields: { ...ours.request.fields, targetColumnId: theirs.columns[0]!.id } }, 'Columna no encontrada.'],
      [ours.funnelId, { ...ours.request, fields: { ...ours.request.fields, targetColumnId: otherColumn!.id } }, 'Columna no encontrada.'],
    ];
    for (const [funnelId, request, message] of cases) {
      const response = await postBatch(ours.owner, funnelId, request);
      expect(response.statusCode, message).toBe(404);
      expect(response.json().message).toBe(message);
    }
    await nothingWritten(ours.owner.tenant.id);
    await nothingWritten(theirs.owner.tenant.id);
  });

  it('lets an agent of the funnel send, answers 404 to an agent without it and 403 to a viewer', async () => {
    const { owner, funnelId, request } = await companyWithFile(valid);
    const viewer = await signInMember(t, owner, 'viewer', [funnelId]);
    const outsider = await signInMember(t, owner, 'agent', []);
    expect((await postBatch(viewer, funnelId, request)).statusCode).toBe(403);
    expect((await postBatch(outsider, funnelId, request)).statusCode).toBe(404);
    await nothingWritten(owner.tenant.id);
    const agent = await signInMember(t, owner, 'agent', [funnelId]);
    expect((await postBatch(agent, funnelId, request)).statusCode).toBe(201);
    await sendEverything();
  });
});

describe('GET /api/batches', () => {
  it("lists the company's batches, newest first, of the funnels the member may see", async () => {
    const { owner, funnelId, request } = await companyWithFile(valid);
    const first = (await postBatch(owner, funnelId, request)).json();
    const second = (await postBatch(owner, funnelId, request)).json();
    await sendEverything();
    const all = (await call(owner, 'GET', '/batches')).json() as BatchDto[];
    expect(all.map((batch) => batch.id)).toEqual([second.id, first.id]);
    expect(Object.keys(all[0]!).sort()).toEqual([
      'created_at',
      'delivered_count',
      'failed_count',
      'failure_reason',
      'funnel_id',
      'id',
      'message_template_name',
      'read_count',
      'replied_count',
      'sent_count',
      'status',
      'total_messages',
      'user_name',
    ]);
    const viewer = await signInMember(t, owner, 'viewer', [funnelId]);
    const elsewhere = await signInMember(t, owner, 'agent', []);
    const stranger = await registerTenant(t.app);
    expect(((await call(viewer, 'GET', '/batches')).json() as BatchDto[]).map((batch) => batch.id)).toEqual([second.id, first.id]);
    expect((await call(elsewhere, 'GET', '/batches')).json()).toEqual([]);
    expect((await call(stranger, 'GET', '/batches')).json()).toEqual([]);
    // Asking at the same time, members share a recount only when they may see the same batches.
    const together = await Promise.all([owner, elsewhere, stranger, viewer, owner].map((member) => call(member, 'GET', '/batches')));
    expect(together.map((answer) => (answer.json() as BatchDto[]).map((batch) => batch.id))).toEqual([
      [second.id, first.id],
      [],
      [],
      [second.id, first.id],
      [second.id, first.id],
    ]);
  });
});

describe('the dashboard counts of GET /api/batches (issue 16)', () => {
  it('recounts a batch only when something moved its counts, and keeps its last recount otherwise', async () => {
    const { owner, funnelId, request } = await companyWithFile([HEADERS, ['5215532000001', 'Rosa', 'R-1']]);
    const batch = (await postBatch(owner, funnelId, request)).json();
    await sendEverything();
    await untilBatch(owner, batch.id, (listedBatch) => listedBatch.read_count === 1);
    const read = async () => {
      const { result, statements } = await t.database.gate.countStatements(() => listed(owner, batch.id));
      return { batch: result!, statements };
    };
    // Nothing has moved since the last read recounted it: the counts are kept, and a read is the list's statement alone.
    const kept = await read();
    expect((await read()).statements).toBe(kept.statements);

    // A reply moves the counts: the transaction that stores it counts a change on the batch, so the next read recounts it
    // (one statement more), and the one after keeps that recount.
    await fake.customerSends({ appName: sandboxAppName(owner.tenant), phone: '5215532000001', name: 'Rosa', kind: 'text', text: 'Gracias' });
    const recounted = await read();
    expect(recounted.statements).toBe(kept.statements + 1);
    expect(recounted.batch).toEqual({ ...kept.batch, replied_count: 1 });
    expect(await read()).toEqual({ ...recounted, statements: kept.statements });
  });

  it('recounts a kept batch once its counts are older than COUNTS_KEPT_MS, for what moved them unannounced', async () => {
    const { owner, funnelId, request } = await companyWithFile([HEADERS, ['5215533000001', 'Rosa', 'R-1']]);
    const batch = (await postBatch(owner, funnelId, request)).json();
    await sendEverything();
    const before = await untilBatch(owner, batch.id, (listedBatch) => listedBatch.read_count === 1);
    const [row] = await db().select().from(batchRecipients).where(eq(batchRecipients.batchId, batch.id));
    // Changed behind the dashboard's back, as a deleted chat changes it.
    await db().update(messages).set({ ack: -1, errorReason: 'Número sin WhatsApp' }).where(eq(messages.id, row!.messageId!));
    expect((await listed(owner, batch.id))!.failed_count).toBe(before.failed_count);
    clock.advance(COUNTS_KEPT_MS + 1_000);
    expect((await listed(owner, batch.id))!.failed_count).toBe(before.failed_count + 1);
  });
});

describe('the count slices of a large batch (issue 16, decision 0022)', () => {
  /** A file whose data rows are at these sheet row numbers (the rows between them empty, as the parser skips them). */
  async function sparseFile(rows: Array<[rowNumber: number, values: string[]]>) {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Contactos');
    sheet.getRow(1).values = HEADERS;
    for (const [rowNumber, values] of rows) sheet.getRow(rowNumber).values = values;
    return Buffer.from(await workbook.xlsx.writeBuffer());
  }

  async function sentBatch(rows: Array<[rowNumber: number, values: string[]]>) {
    const { owner, funnelId, request } = await companyWithFile(valid);
    const created = await postBatch(owner, funnelId, { ...request, file: { name: 'clientes.xlsx', data: await sparseFile(rows) } });
    expect(created.statusCode).toBe(201);
    const batchId = (created.json() as BatchDto).id;
    await sendEverything();
    const sent = rows.filter(([, [phone]]) => phone).length;
    await untilBatch(owner, batchId, (batch) => batch.read_count + batch.failed_count === rows.length && batch.read_count <= sent);
    return { owner, batchId };
  }

  const countedAt = async (batchId: string) =>
    new Map(
      (await db().select().from(batchCountSlices).where(eq(batchCountSlices.batchId, batchId))).map((slice) => [slice.slice, slice.countedAt?.getTime()]),
    );

  it('recounts only the slice whose rows moved, and adds the slices up', async () => {
    // Rows 2 and 1,502 of the sheet: slices 0 and 1.
    const { owner, batchId } = await sentBatch([
      [2, ['5215534000001', 'Ana', 'A-1']],
      [1502, ['5215534000002', 'Luis', 'L-2']],
    ]);
    const before = (await listed(owner, batchId))!;
    expect(before).toMatchObject({ total_messages: 2, sent_count: 2, read_count: 2, replied_count: 0, failed_count: 0, status: 'completed' });
    const counted = await countedAt(batchId);
    expect([...counted.keys()].sort()).toEqual([0, 1]);

    clock.advance(1_000);
    // Luis (slice 1) writes back: the next read recounts his slice and keeps Ana's.
    await fake.customerSends({ appName: sandboxAppName(owner.tenant), phone: '5215534000002', name: 'Luis', kind: 'text', text: 'Gracias' });
    expect(await listed(owner, batchId)).toEqual({ ...before, replied_count: 1 });
    const recounted = await countedAt(batchId);
    expect(recounted.get(0)).toBe(counted.get(0));
    expect(recounted.get(1)).toBeGreaterThan(counted.get(1)!);
  });

  it('names the most frequent failure reason of the whole batch, whichever slices its rows are in', async () => {
    const missing = 'Falta la Variable 2 (columna "Variable 2").';
    const { owner, batchId } = await sentBatch([
      [2, ['5215535000001', 'Ana', 'A-1']],
      [3, ['5215535000004', '', 'S-1']],
      [4, ['5215535000002', 'Luis', '']],
      [1002, ['5215535000003', 'Rosa', '']],
    ]);
    // Slice 0 alone ties one missing variable to the other (and Variable 1 would come first); across both slices the
    // missing Variable 2 fails two rows.
    expect(await listed(owner, batchId)).toMatchObject({ total_messages: 4, failed_count: 3, failure_reason: missing });
  });

  it(`recounts at most ${AGED_SLICES_PER_READ} slices a read for their age, the oldest first`, async () => {
    const rows = Array.from({ length: AGED_SLICES_PER_READ + 1 }, (_, slice): [number, string[]] => [
      slice * 1000 + 2,
      [`52155360000${String(slice).padStart(2, '0')}`, `Cliente ${slice}`, `P-${slice}`],
    ]);
    const { owner, batchId } = await sentBatch(rows);
    const before = await listed(owner, batchId);
    const counted = await countedAt(batchId);
    expect(counted.size).toBe(AGED_SLICES_PER_READ + 1);

    clock.advance(COUNTS_KEPT_MS + 1_000);
    expect(await listed(owner, batchId)).toEqual(before);
    const first = await countedAt(batchId);
    const aged = [...first.keys()].filter((slice) => first.get(slice) === counted.get(slice));
    expect(aged).toHaveLength(1);
    expect(await listed(owner, batchId)).toEqual(before);
    expect((await countedAt(batchId)).get(aged[0]!)).toBeGreaterThan(counted.get(aged[0]!)!);
  });
});

describe("pacing by the company's number (issue 16)", () => {
  it('stores only the rows the number has tokens for and hands the rest to a successor due when it may send again', async () => {
    const phones = ['5215580000001', '5215580000002', '5215580000003', '5215580000004', '5215580000005'];
    const { owner, funnelId, request } = await companyWithFile([HEADERS, ...phones.map((phone, i) => [phone, `Cliente ${i}`, `P-${i}`])]);
    clock.freeze();
    onTestFinished(() => clock.resume());
    await pacer.setRate(owner.tenant.id, 2);
    await t.app.queue.drain();
    const created = (await postBatch(owner, funnelId, request)).json();
    const stored = async () =>
      (
        await db()
          .select()
          .from(batchRecipients)
          .where(and(eq(batchRecipients.batchId, created.id), eq(batchRecipients.status, 'queued')))
      ).length;
    const chunkJobs = () => chunkJobsOf(created.id);
    /** Makes the batch's waiting chunk job due (its time has come) and runs the queue until that job is done. */
    const runChunk = async () => {
      const due = await db()
        .update(jobs)
        .set({ runAt: sql`now()` })
        .where(and(eq(jobs.name, CHUNK_JOB), eq(jobs.status, 'pending'), sql`${jobs.payload}->>'batchId' = ${created.id}`))
        .returning({ id: jobs.id });
      const unfinished = async () => (await chunkJobs()).some((job) => due.some((made) => made.id === job.id) && job.status !== 'completed');
      while (await unfinished()) await t.app.queue.runDueJobsOnce(1);
    };
    const successor = async () => {
      const job = (await chunkJobs()).at(-1)!;
      return { chunk: (job.payload as { chunk: number }).chunk, status: job.status, dueAfterMs: job.runAt.getTime() - job.createdAt.getTime() };
    };

    // A full bucket at 2 messages a second: two rows now, the successor due in a second (when two more tokens are in).
    await runChunk();
    expect(await stored()).toBe(2);
    expect(await successor()).toEqual({ chunk: 1, status: 'pending', dueAfterMs: 1_000 });
    expect(await listed(owner, created.id)).toMatchObject({
      status: 'processing',
      send_rate: 2,
      estimated_end_at: new Date(clock.now().getTime() + 1_500).toISOString(),
    });

    // Half a second later only one token has come in: one row, and the next successor waits a whole second again.
    clock.advance(500);
    await runChunk();
    expect(await stored()).toBe(3);
    expect(await successor()).toEqual({ chunk: 2, status: 'pending', dueAfterMs: 1_000 });

    // The provider says "too many": the number halves to 1 a second, which the dashboard shows.
    await pacer.slowDown(owner.tenant.id);
    expect(await listed(owner, created.id)).toMatchObject({ send_rate: 1, estimated_end_at: new Date(clock.now().getTime() + 2_000).toISOString() });
    clock.advance(1_000);
    await runChunk();
    expect(await stored()).toBe(4);
    expect(await successor()).toEqual({ chunk: 3, status: 'pending', dueAfterMs: 1_000 });
    clock.advance(1_000);
    await runChunk();
    expect(await stored()).toBe(5);
    // Nothing left: no successor.
    expect(await successor()).toMatchObject({ chunk: 3, status: 'completed' });
    await sendEverything();
    expect(sendsTo(owner).sort()).toEqual(phones);
  });
});

/** The chunk jobs of a batch. */
const chunkOf = (batchId: string) => sql`${jobs.name} = ${CHUNK_JOB} and ${jobs.payload}->>'batchId' = ${batchId}`;

describe('the cost of a slice', () => {
  it('stores 5 rows or a whole slice (their contacts, chats, messages, send jobs and events) in the same number of statements', async () => {
    const chunkStatements = async (count: number) => {
      const rows = Array.from({ length: count }, (_, i) => [
        `52155900${String(count).padStart(2, '0')}${String(i).padStart(3, '0')}`,
        `Cliente ${i}`,
        `P-${i}`,
      ]);
      const { owner, funnelId, request } = await companyWithFile([HEADERS, ...rows]);
      await pacer.setRate(owner.tenant.id, 1000);
      await t.app.queue.drain();
      const created = (await postBatch(owner, funnelId, request)).json();
      // Only the batch's chunk job is due (the sandbox's late statuses of earlier sends bring jobs too).
      const statements = await statementsOfDueJobs(t, chunkOf(created.id));
      const queued = await db()
        .select()
        .from(batchRecipients)
        .where(and(eq(batchRecipients.batchId, created.id), eq(batchRecipients.status, 'queued')));
      expect(queued).toHaveLength(count);
      expect(queued.every((row) => row.cardId && row.messageId)).toBe(true);
      const sends = await db()
        .select()
        .from(jobs)
        .where(
          and(
            eq(jobs.name, SEND_JOB),
            inArray(
              jobs.singletonKey,
              queued.map((row) => `send:${row.messageId}`),
            ),
          ),
        );
      expect(sends).toHaveLength(count);
      return statements;
    };
    expect(await chunkStatements(ROWS_PER_TRANSACTION)).toBe(await chunkStatements(5));
  });

  it('lets the event loop turn between the slices of a chunk: on the embedded database nothing else would run until it ended', async () => {
    const rows = Array.from({ length: 3 * ROWS_PER_TRANSACTION }, (_, i) => [`5215593${String(i).padStart(5, '0')}`, `Cliente ${i}`, `P-${i}`]);
    const { owner, funnelId, request } = await companyWithFile([HEADERS, ...rows]);
    await pacer.setRate(owner.tenant.id, 1000);
    await t.app.queue.drain();
    const created = (await postBatch(owner, funnelId, request)).json();
    let turns = 0;
    let watching = true;
    const countTurn = () => {
      turns++;
      if (watching) setImmediate(countTurn);
    };
    setImmediate(countTurn);
    await statementsOfDueJobs(t, chunkOf(created.id));
    watching = false;
    const queued = await db()
      .select()
      .from(batchRecipients)
      .where(and(eq(batchRecipients.batchId, created.id), eq(batchRecipients.status, 'queued')));
    expect(queued).toHaveLength(3 * ROWS_PER_TRANSACTION);
    // A turn after each of the three slices at least (PostgreSQL's answers bring many more).
    expect(turns).toBeGreaterThanOrEqual(3);
  });

  it("sends a batch row in as many statements as any send: its chunk told the dashboard's listener the row's batch, so the send counts a change on the batch instead of looking it up", async () => {
    const { owner, funnelId, request } = await companyWithFile([HEADERS, ['5215591000001', 'Ana', 'A-1']]);
    await pacer.setRate(owner.tenant.id, 1000);
    await t.app.queue.drain();
    const created = (await postBatch(owner, funnelId, request)).json();
    // The batch's chunk stores the row and its send job; nothing else runs meanwhile.
    await statementsOfDueJobs(t, chunkOf(created.id));

    expect(await statementsOfSends(t)).toBe(STATEMENTS_PER_SEND);
    expect(sendsTo(owner)).toEqual(['5215591000001']);
  });
});

describe('restart safety', () => {
  it('resumes a batch interrupted mid-way without sending any row twice', async () => {
    const phones = ['5215570000001', '5215570000002', '5215570000003', '5215570000004', '5215570000005'];
    const { owner, funnelId, request } = await companyWithFile([HEADERS, ...phones.map((phone, i) => [phone, `Cliente ${i}`, `P-${i}`])]);
    // Two messages a second: the first chunk job stores two rows and hands the rest to its successor.
    await pacer.setRate(owner.tenant.id, 2);
    // Earlier tests' event listeners are due before this batch's first chunk: run them out of the way.
    await t.app.queue.drain();
    const created = (await postBatch(owner, funnelId, request)).json();
    const chunkJobs = () => chunkJobsOf(created.id);

    // Only the first chunk is due: it stores two messages and their send jobs. Status callbacks of earlier
    // tests' messages may still land meanwhile; their listener jobs are due first and run one at a time before it.
    while ((await chunkJobs())[0]!.status !== 'completed') expect(await t.app.queue.runDueJobsOnce(1)).toBe(1);
    const [firstChunk, secondChunk] = await chunkJobs();
    expect(firstChunk!.status).toBe('completed');
    expect(await db().select().from(messages).where(eq(messages.tenantId, owner.tenant.id))).toHaveLength(2);

    // The process dies: it had committed the first chunk but not yet recorded the job as done, and it was
    // in the middle of the second chunk (whose transaction rolled back). Both leases lapse.
    const diedWhileRunning = { status: 'running' as const, lockedBy: 'worker-that-died', lockedUntil: sql`now() - interval '1 second'`, runAt: sql`now()` };
    await db()
      .update(jobs)
      .set({ ...diedWhileRunning, attempts: 1 })
      .where(inArray(jobs.id, [firstChunk!.id, secondChunk!.id]));

    // A new process picks the work up from the database.
    await sendEverything();
    expect(sendsTo(owner).sort()).toEqual(phones);
    const rows = await db().select().from(batchRecipients).where(eq(batchRecipients.batchId, created.id));
    expect(rows.every((row) => row.status === 'queued' && row.messageId)).toBe(true);
    expect(new Set(rows.map((row) => row.messageId)).size).toBe(phones.length);
    expect(await db().select().from(messages).where(eq(messages.tenantId, owner.tenant.id))).toHaveLength(phones.length);
    expect(await untilBatch(owner, created.id, (batch) => batch.sent_count === 5)).toMatchObject({ status: 'completed', total_messages: 5, failed_count: 0 });
  });
});

describe('GET /api/batches/{id}/failures', () => {
  it("lists the failed rows in sheet order with phone, name, the reason people can act on and the provider's code", async () => {
    const { owner, funnelId, request } = await companyWithFile([
      [...HEADERS, 'nombre'],
      ['5215561000001', 'Ana', 'A-1', 'Ana'],
      ['+0005215561000', 'Beto', 'B-2', 'Beto'],
      ['12345', 'Cata', 'C-3', 'Cata'],
    ]);
    request.fields.nameColumn = 'nombre';
    const created = (await postBatch(owner, funnelId, request)).json();
    await sendEverything();
    await untilBatch(owner, created.id, (batch) => batch.failed_count === 2 && batch.status !== 'processing');
    const failures = await call(owner, 'GET', `/batches/${created.id}/failures`);
    expect(failures.statusCode).toBe(200);
    expect(failures.json()).toEqual([
      { row_number: 3, phone: '0005215561000', contact_name: 'Beto', reason: 'El cliente no tiene WhatsApp: confirma su número por otra vía', code: '1002' },
      { row_number: 4, phone: null, contact_name: 'Cata', reason: expect.any(String) as unknown, code: null },
    ]);
    // The same list under /api (the tenant from the session).
    expect((await t.app.inject({ method: 'GET', url: `/api/batches/${created.id}/failures`, headers: bearer(owner.token) })).json()).toHaveLength(2);
  });

  it("answers 404 for another company's batch or one in a funnel the agent does not see, and 400 for a bad id", async () => {
    const { owner, funnelId, request } = await companyWithFile(valid);
    const created = (await postBatch(owner, funnelId, request)).json();
    const stranger = await registerTenant(t.app);
    expect((await call(stranger, 'GET', `/batches/${created.id}/failures`)).statusCode).toBe(404);
    const [other] = await db().insert(funnels).values({ tenantId: owner.tenant.id, name: 'Otro' }).returning();
    const agentElsewhere = await signInMember(t, owner, 'agent', [other!.id]);
    expect((await call(agentElsewhere, 'GET', `/batches/${created.id}/failures`)).statusCode).toBe(404);
    const viewer = await signInMember(t, owner, 'viewer', [funnelId]);
    expect((await call(viewer, 'GET', `/batches/${created.id}/failures`)).json()).toEqual([]);
    const bad = await call(owner, 'GET', '/batches/no-es-un-id/failures');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Envío inválido.');
  });
});
