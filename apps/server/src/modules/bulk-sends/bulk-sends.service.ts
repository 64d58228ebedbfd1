import { and, asc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import {
  createBatchFields,
  defaultVariableColumns,
  normalizePhone,
  variableNumbers,
  BULK_REQUIRED_FIELDS,
  type BatchDto,
  type BatchFailureDto,
  type BatchStatus,
  type CreateBatchResponse,
} from '@embudo/contracts/http/bulk-sends';
import { batches, batchRecipients, boardColumns } from '../../../db/schema/index.ts';
import { queryRows, type Db, type DbExecutor, type Tx } from '../../platform/db/database.ts';
import { AppError, badRequest, notFound } from '../../platform/errors/app-error.ts';
import { canSeeFunnel, requireWriter, seesAllFunnels, type Actor } from '../../platform/policy/policy.ts';
import { findOrCreateCard, COLUMN_NOT_FOUND, funnelColumns, type CardRow } from '../funnels/index.ts';
import { templateForSending, type TemplateRow } from '../templates/index.ts';
import { findUser, actorOf } from '../users/index.ts';
import {
  CONTACT_IN_HIDDEN_FUNNEL,
  emitNewMessage,
  storeOutbound,
  templateDraft,
  upsertContact,
  type Author,
  type MessageRow,
  type OutboundDeps,
} from '../chats/index.ts';
import type { BatchUpdates } from './batch-updates.ts';
import { readExcelSheet, type Sheet } from './excel-sheet.parser.ts';

export const TARGET_COLUMN_GONE = 'La columna de destino ya no existe.';
export const CREATOR_GONE = 'El usuario que inició el envío ya no existe.';

/**
 * How fast a batch goes out: chunks of `chunkSize` rows, one chunk every `chunkIntervalMs`. Each chunk is
 * its own job due at its own time, so a batch never floods the queue ahead of the agents' own sends.
 */
export interface BulkSendPace {
  chunkSize: number;
  chunkIntervalMs: number;
}

/**
 * 20 messages a second: well under WhatsApp's lowest throughput tier (80/s) and gentle on the queue. Small
 * chunks keep each chunk transaction short, which matters on embedded PGlite (one connection for everyone).
 */
export const DEFAULT_BULK_SEND_PACE: BulkSendPace = { chunkSize: 10, chunkIntervalMs: 500 };

export interface ChunkPayload {
  tenantId: string;
  batchId: string;
  chunk: number;
}

/** What sending a chunk needs; the dashboard follows its rows through `batch.row-finished`. */
export interface ChunkDeps extends OutboundDeps {
  pace: BulkSendPace;
}

export interface BulkSendDeps extends ChunkDeps {
  updates: BatchUpdates;
  /** Records one chunk's job in the caller's transaction, due `delayMs` from now. */
  enqueueChunk: (tx: Tx, payload: ChunkPayload, delayMs: number) => Promise<unknown>;
}

export interface ExcelUpload {
  data: Buffer;
  fileName: string;
}

type BatchRow = typeof batches.$inferSelect;

interface SummaryRow {
  id: string;
  created_at: Date | string;
  template_name: string;
  user_name: string;
  funnel_id: string;
  total: number;
  sent: number;
  delivered: number;
  read: number;
  replied: number;
  failed: number;
  unsettled: number;
  accepted: number;
  failure_reason: string | null;
}

/**
 * Status and counts straight from the rows' messages: a row counts as sent, delivered or read by its
 * message's ack (ack only grows, so each includes the next), failed when refused or when its message failed,
 * and replied when the customer wrote on that chat after it; the failed rows' most frequent reason (the provider's, when it
 * refused the sends) is the batch's failure reason. Processing while a row still waits for its turn
 * or for the provider's answer; then completed if anything went out, else failed.
 */
async function batchSummaries(executor: DbExecutor, where: SQL): Promise<BatchDto[]> {
  const rows = await queryRows<SummaryRow>(
    executor,
    sql`
    select b.id, b.created_at, b.template_name, b.user_name, b.funnel_id,
      count(r.id)::int as total,
      count(*) filter (where m.ack >= 1)::int as sent,
      count(*) filter (where m.ack >= 2)::int as delivered,
      count(*) filter (where m.ack >= 3)::int as read,
      count(*) filter (where m.id is not null and exists (
        select 1 from messages reply
        where reply.tenant_id = m.tenant_id and reply.card_id = m.card_id and reply.sender = 'contact' and reply.created_at > m.created_at))::int as replied,
      count(*) filter (where r.status = 'failed' or m.ack = -1)::int as failed,
      count(*) filter (where r.status = 'pending' or (m.id is not null and m.provider_message_id is null and m.ack >= 0))::int as unsettled,
      count(*) filter (where m.provider_message_id is not null and m.ack >= 0)::int as accepted,
      mode() within group (order by coalesce(m.error_reason, r.error_reason)) filter (where r.status = 'failed' or m.ack = -1) as failure_reason
    from batches b
    left join batch_recipients r on r.batch_id = b.id
    left join messages m on m.id = r.message_id
    where ${where}
    group by b.id
    order by b.created_at desc, b.id desc
    limit 100`,
  );
  return rows.map((row) => {
    const status: BatchStatus = row.unsettled > 0 ? 'processing' : row.accepted > 0 ? 'completed' : 'failed';
    return {
      id: row.id,
      created_at: new Date(row.created_at).toISOString(),
      status,
      message_template_name: row.template_name,
      user_name: row.user_name,
      total_messages: row.total,
      sent_count: row.sent,
      delivered_count: row.delivered,
      read_count: row.read,
      replied_count: row.replied,
      failed_count: row.failed,
      failure_reason: row.failure_reason,
      funnel_id: row.funnel_id,
    };
  });
}

/** Batches of the funnels the actor may see. */
function visibleBatches(actor: Actor) {
  return seesAllFunnels(actor)
    ? sql`true`
    : actor.funnelIds.length > 0
      ? sql`b.funnel_id in (${sql.join(
          actor.funnelIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`
      : sql`false`;
}

/** GET /api/batches: the newest batches of the funnels the actor may see. */
export function listBatches(db: Db, tenantId: string, actor: Actor): Promise<BatchDto[]> {
  return batchSummaries(db, sql`b.tenant_id = ${tenantId} and ${visibleBatches(actor)}`);
}

export const BATCH_NOT_FOUND = 'Envío no encontrado.';

/**
 * GET /api/batches/{id}/failures (issue 18): the batch's failed rows in sheet order, each with its phone, the
 * reason people can act on and the provider's code; refused before sending (a bad phone) or by the provider.
 */
export async function batchFailures(db: Db, tenantId: string, actor: Actor, batchId: string): Promise<BatchFailureDto[]> {
  const [batch] = await queryRows<{ id: string }>(
    db,
    sql`select b.id from batches b where b.tenant_id = ${tenantId} and b.id = ${batchId}::uuid and ${visibleBatches(actor)}`,
  );
  if (!batch) throw notFound(BATCH_NOT_FOUND);
  const rows = await queryRows<{ row_number: number; phone: string | null; contact_name: string | null; reason: string | null; code: string | null }>(
    db,
    sql`
    select r.row_number, r.phone, r.contact_name, coalesce(m.error_reason, r.error_reason) as reason, m.error_code as code
    from batch_recipients r
    left join messages m on m.id = r.message_id
    where r.tenant_id = ${tenantId} and r.batch_id = ${batchId}::uuid and (r.status = 'failed' or m.ack = -1)
    order by r.row_number`,
  );
  return rows.map((row) => ({ ...row, reason: row.reason ?? 'Error del proveedor' }));
}

interface PlannedRow {
  rowNumber: number;
  phone: string | null;
  contactName: string | null;
  variables: Record<string, string>;
  failure?: string;
}

/** Which column fills each variable: the caller's mapping, or the columns named like the labels (the sample file). */
function variableColumnsFor(template: TemplateRow, sheet: Sheet, requested: Record<string, string> | undefined): Record<string, string> {
  const schema = template.variablesSchema;
  const mapping = requested ?? defaultVariableColumns(schema, sheet.headers);
  for (const [n, header] of Object.entries(mapping)) {
    if (!schema[n]) throw badRequest(`La plantilla ${template.name} no tiene la variable {{${n}}}.`);
    if (!sheet.headers.includes(header)) throw badRequest(`La columna "${header}" no está en el archivo.`);
  }
  const unmapped = variableNumbers(schema).find((n) => !mapping[n]);
  if (unmapped) throw badRequest(`Elige la columna del archivo para la ${schema[unmapped]!.label} de la plantilla.`);
  return mapping;
}

/** Each row checked as it will be sent; a repeated phone is dropped (sent once). */
function planRows(sheet: Sheet, columns: { phone: string; name: string | undefined }, template: TemplateRow, variableColumns: Record<string, string>) {
  const seen = new Set<string>();
  const planned: PlannedRow[] = [];
  let duplicates = 0;
  for (const row of sheet.rows) {
    const raw = row.values[columns.phone] ?? '';
    const phone = raw ? normalizePhone(raw) : undefined;
    if (phone && seen.has(phone)) {
      duplicates += 1;
      continue;
    }
    if (phone) seen.add(phone);
    const variables = Object.fromEntries(Object.entries(variableColumns).map(([n, header]) => [n, row.values[header] ?? '']));
    const missing = variableNumbers(template.variablesSchema).find((n) => !variables[n]);
    const failure = !raw
      ? 'Fila sin teléfono.'
      : !phone
        ? `Teléfono inválido: "${raw.slice(0, 40)}" (usa código de país y número, solo dígitos).`
        : missing
          ? `Falta la ${template.variablesSchema[missing]!.label} (columna "${variableColumns[missing]}").`
          : undefined;
    const contactName = columns.name ? row.values[columns.name]?.slice(0, 200) || null : null;
    planned.push({ rowNumber: row.rowNumber, phone: phone ?? null, contactName, variables, failure });
  }
  return { planned, duplicates };
}

const INSERT_ROWS_PER_STATEMENT = 1_000;

/**
 * POST /api/funnels/{id}/batches. Everything is checked before anything is written; then the batch, its rows
 * and one job per chunk commit together, so a batch either exists whole with its sending scheduled, or not at all.
 */
export async function createBatch(
  deps: BulkSendDeps,
  author: Author,
  funnelId: string,
  upload: ExcelUpload | undefined,
  fields: Record<string, string>,
): Promise<CreateBatchResponse> {
  requireWriter(author.actor);
  const columns = await funnelColumns(deps.db, author.tenantId, author.actor, funnelId);
  if (!upload || upload.data.length === 0) throw badRequest(BULK_REQUIRED_FIELDS);
  const parsed = createBatchFields.safeParse(fields);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
  const input = parsed.data;
  const target = columns.find((column) => column.id === input.targetColumnId);
  if (!target) throw notFound(COLUMN_NOT_FOUND);
  const template = await templateForSending(deps.db, author.tenantId, input.templateId);

  const sheet = await readExcelSheet(upload.data, upload.fileName);
  for (const column of [input.phoneColumn, input.nameColumn]) {
    if (column !== undefined && !sheet.headers.includes(column)) throw badRequest(`La columna "${column}" no está en el archivo.`);
  }
  const variableColumns = variableColumnsFor(template, sheet, input.variableColumns);
  const { planned, duplicates } = planRows(sheet, { phone: input.phoneColumn, name: input.nameColumn }, template, variableColumns);
  const sendable = planned.filter((row) => !row.failure);
  if (sendable.length === 0) {
    const first = planned[0]!;
    throw badRequest(`Ninguna fila del archivo se puede enviar. Fila ${first.rowNumber}: ${first.failure}`);
  }

  const batch = await deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(batches)
      .values({
        tenantId: author.tenantId,
        funnelId,
        targetColumnId: target.id,
        templateId: template.id,
        templateName: template.name,
        userId: author.actor.userId,
        userName: author.userName,
        fileName: upload.fileName.slice(0, 255),
      })
      .returning();
    let position = 0;
    const values = planned.map((row) => ({
      tenantId: author.tenantId,
      batchId: created!.id,
      rowNumber: row.rowNumber,
      phone: row.phone,
      contactName: row.contactName,
      variables: row.variables,
      position: row.failure ? null : position++,
      status: row.failure ? ('failed' as const) : ('pending' as const),
      errorReason: row.failure ?? null,
    }));
    for (let start = 0; start < values.length; start += INSERT_ROWS_PER_STATEMENT) {
      await tx.insert(batchRecipients).values(values.slice(start, start + INSERT_ROWS_PER_STATEMENT));
    }
    const chunks = Math.ceil(sendable.length / deps.pace.chunkSize);
    for (let chunk = 0; chunk < chunks; chunk++) {
      await deps.enqueueChunk(tx, { tenantId: author.tenantId, batchId: created!.id, chunk }, chunk * deps.pace.chunkIntervalMs);
    }
    return created!;
  });
  deps.updates.changed(author.tenantId, batch.id);
  // As it stands at commit: nothing has gone out yet and the refused rows are the failed ones.
  const refused = planned.length - sendable.length;
  return {
    id: batch.id,
    created_at: batch.createdAt.toISOString(),
    status: 'processing',
    message_template_name: batch.templateName,
    user_name: batch.userName,
    total_messages: planned.length,
    sent_count: 0,
    delivered_count: 0,
    read_count: 0,
    replied_count: 0,
    failed_count: refused,
    failure_reason: planned.find((row) => row.failure)?.failure ?? null,
    funnel_id: batch.funnelId,
    invalid_rows: refused,
    duplicates_skipped: duplicates,
  };
}

async function findBatch(executor: DbExecutor, tenantId: string, batchId: string): Promise<BatchRow | undefined> {
  const [row] = await executor
    .select()
    .from(batches)
    .where(and(eq(batches.tenantId, tenantId), eq(batches.id, batchId)))
    .limit(1);
  return row;
}

/** Why no row of this batch can go out any more (template no longer approved, column or creator gone), if so. */
async function batchBlocker(
  db: Db,
  batch: BatchRow,
): Promise<{ blocked: string } | { template: TemplateRow; actor: Actor; landing: { columnId: string; funnelId: string } }> {
  let template: TemplateRow;
  try {
    template = await templateForSending(db, batch.tenantId, batch.templateId ?? '');
  } catch (error) {
    if (error instanceof AppError) return { blocked: error.message };
    throw error;
  }
  const [column] = batch.targetColumnId
    ? await db
        .select({ columnId: boardColumns.id, funnelId: boardColumns.funnelId })
        .from(boardColumns)
        .where(and(eq(boardColumns.tenantId, batch.tenantId), eq(boardColumns.id, batch.targetColumnId)))
        .limit(1)
    : [];
  if (!column) return { blocked: TARGET_COLUMN_GONE };
  const creator = batch.userId ? await findUser(db, batch.tenantId, batch.userId) : undefined;
  if (!creator) return { blocked: CREATOR_GONE };
  return { template, actor: await actorOf(db, creator), landing: column };
}

/** `batch.row-finished`, in the transaction that took the row out of `pending`. */
const publishRowFinished = (
  deps: Pick<ChunkDeps, 'domainEvents'>,
  tx: Tx,
  row: { tenantId: string; batchId: string; id: string },
  status: 'queued' | 'failed',
  messageId: string | null,
) =>
  deps.domainEvents.publish(tx, {
    type: 'batch.row-finished',
    tenantId: row.tenantId,
    payload: { batchId: row.batchId, recipientId: row.id, status, messageId },
  });

async function failRow(deps: Pick<ChunkDeps, 'domainEvents'>, tx: Tx, row: { tenantId: string; batchId: string; id: string }, reason: string) {
  await tx.update(batchRecipients).set({ status: 'failed', errorReason: reason }).where(eq(batchRecipients.id, row.id));
  await publishRowFinished(deps, tx, row, 'failed', null);
}

/**
 * Sends one chunk: each pending row gets its contact and chat (new chats land in the batch's column; a chat
 * that exists stays where it is) and its template message at ack 0 with its send job, and is marked queued in
 * the same transaction. A rerun after a crash finds those rows queued and skips them, so no row is sent twice.
 */
export async function dispatchChunk(deps: ChunkDeps, { tenantId, batchId, chunk }: ChunkPayload): Promise<void> {
  const batch = await findBatch(deps.db, tenantId, batchId);
  if (!batch) return;
  const context = await batchBlocker(deps.db, batch);
  const first = chunk * deps.pace.chunkSize;
  const inChunk = and(
    eq(batchRecipients.batchId, batch.id),
    eq(batchRecipients.status, 'pending'),
    gte(batchRecipients.position, first),
    lt(batchRecipients.position, first + deps.pace.chunkSize),
  );

  const stored = await deps.db.transaction(async (tx) => {
    const rows = await tx.select().from(batchRecipients).where(inChunk).orderBy(asc(batchRecipients.position)).for('update', { skipLocked: true });
    const sent: Array<{ message: MessageRow; updatedCard: CardRow; created: boolean }> = [];
    for (const row of rows) {
      if ('blocked' in context) {
        await failRow(deps, tx, row, context.blocked);
        continue;
      }
      const contact = await upsertContact(tx, tenantId, { phone: row.phone!, isGroup: false });
      const { card, created } = await findOrCreateCard(
        tx,
        tenantId,
        contact,
        async () => context.landing,
        row.contactName ? { name: row.contactName, source: 'file' } : undefined,
      );
      if (!canSeeFunnel(context.actor, card.funnelId)) {
        await failRow(deps, tx, row, CONTACT_IN_HIDDEN_FUNNEL);
        continue;
      }
      let draft;
      try {
        draft = templateDraft(context.template, row.variables);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        await failRow(deps, tx, row, error.message);
        continue;
      }
      const outcome = await storeOutbound(deps, tx, { tenantId, userId: batch.userId }, card, draft, {
        alsoInTransaction: async (inner, message) => {
          await inner.update(batchRecipients).set({ status: 'queued', cardId: card.id, messageId: message.id }).where(eq(batchRecipients.id, row.id));
          await publishRowFinished(deps, inner, row, 'queued', message.id);
        },
      });
      sent.push({ ...outcome, created });
    }
    return sent;
  });
  for (const { message, updatedCard, created } of stored) emitNewMessage(deps.events, tenantId, updatedCard, message, created);
}

export const CHUNK_GAVE_UP = 'No se pudo preparar el envío de esta fila; inténtalo de nuevo en otro lote.';

/** After the chunk job's last failed attempt: its rows will never be sent, so they count as failed rather than keep the batch processing. */
export async function giveUpChunk(deps: ChunkDeps, { tenantId, batchId, chunk }: ChunkPayload): Promise<void> {
  const first = chunk * deps.pace.chunkSize;
  await deps.db.transaction(async (tx) => {
    const failed = await tx
      .update(batchRecipients)
      .set({ status: 'failed', errorReason: CHUNK_GAVE_UP })
      .where(
        and(
          eq(batchRecipients.tenantId, tenantId),
          eq(batchRecipients.batchId, batchId),
          eq(batchRecipients.status, 'pending'),
          gte(batchRecipients.position, first),
          lt(batchRecipients.position, first + deps.pace.chunkSize),
        ),
      )
      .returning({ id: batchRecipients.id, tenantId: batchRecipients.tenantId, batchId: batchRecipients.batchId });
    for (const row of failed) await publishRowFinished(deps, tx, row, 'failed', null);
  });
}
