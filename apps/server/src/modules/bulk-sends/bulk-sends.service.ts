import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
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
import { MARKETING_OPTED_OUT } from '@embudo/contracts/http/chats';
import { batches, batchRecipients, boardColumns, ROWS_PER_COUNT_SLICE, type RowCounts, type SliceCounts } from '../../../db/schema/index.ts';
import { nextTurnOfTheEventLoop, queryRows, type Db, type DbExecutor, type Tx } from '../../platform/db/database.ts';
import type { SharedReads } from '../../platform/db/shared-reads.ts';
import { unnestRows } from '../../platform/db/array-params.ts';
import { AppError, badRequest, notFound } from '../../platform/errors/app-error.ts';
import { canSeeFunnel, requireWriter, seesAllFunnels, type Actor } from '../../platform/policy/policy.ts';
import { findOrCreateCards, COLUMN_NOT_FOUND, funnelColumns, type CardRow } from '../funnels/index.ts';
import { templateForSending, type TemplateRow } from '../templates/index.ts';
import { findUser, actorOf } from '../users/index.ts';
import {
  CONTACT_IN_HIDDEN_FUNNEL,
  emitNewMessage,
  refusesMarketing,
  storeOutbounds,
  templateDraft,
  upsertContacts,
  type Author,
  type OutboundDeps,
  type OutboundDraft,
} from '../chats/index.ts';
import { addCountSlices, type BatchUpdates } from './batch-updates.ts';
import type { readExcelRows, SheetRow } from './excel-sheet.parser.ts';
import type { SendPacer } from '../send-pacing/index.ts';

export const TARGET_COLUMN_GONE = 'La columna de destino ya no existe.';
export const CREATOR_GONE = 'El usuario que inició el envío ya no existe.';

/**
 * A chunk job stores at most this many rows per transaction: short transactions keep the agents' own requests
 * flowing (on embedded PGlite everyone shares one connection, and a transaction holds it whole), and a slice this size
 * still costs few round trips per row. With 50, 60 browsers' calls during a 5,000-row send answered at p95 2.8–2.9 ×
 * idle on PGlite; with 25, 2.3–2.5 ×, the send reaching the provider at 137–167 rows/s alone (175 on PostgreSQL).
 */
export const ROWS_PER_TRANSACTION = 25;
/** Slices one chunk job stores before it hands over to its successor, so no job holds a worker for long. */
export const SLICES_PER_RUN = 20;

/**
 * A chunk job of a batch. `chunk` numbers the batch's jobs in turn (0 at upload, then each successor); a job sends the
 * batch's next waiting rows, whichever they are, as fast as the company's number may send.
 */
export interface ChunkPayload {
  tenantId: string;
  batchId: string;
  chunk: number;
}

/** What sending a chunk needs; the dashboard follows its rows through `batch.row-finished`. */
export interface ChunkDeps extends OutboundDeps {
  /** The company's number's token bucket (docs/decisions/0017): a row goes out only with a token. */
  pacer: SendPacer;
  /** Records a chunk job in the caller's transaction, due `delayMs` from now. */
  enqueueChunk: (tx: DbExecutor, payload: ChunkPayload, delayMs: number) => Promise<unknown>;
}

export interface BulkSendDeps extends ChunkDeps {
  updates: BatchUpdates;
  /** The dashboard's list, recounted once for everyone asking at the same time. */
  batchLists: SharedReads<BatchDto[]>;
  /** The time the dashboard's estimated end is counted from (tests move it). */
  clock: () => Date;
  /** Reads an uploaded workbook's rows (readExcelRows' contract), on a worker thread in the app. */
  readRows: typeof readExcelRows;
}

export interface ExcelUpload {
  data: Buffer;
  fileName: string;
}

type BatchRow = typeof batches.$inferSelect;

/** How long a slice's last recount is trusted without a counted change (a deleted chat moves counts unannounced). */
export const COUNTS_KEPT_MS = 120_000;
/**
 * At most this many slices a read recounts for being older than COUNTS_KEPT_MS (the oldest first), besides those
 * something moved: a company's whole history aging at once (a hundred batches, a 100,000-row campaign) is recounted
 * over several reads instead of in one that holds the database for a few hundred milliseconds.
 */
export const AGED_SLICES_PER_READ = 10;

/** A slice as a read finds it: its last recount, if any, with the changes it was made at and when. */
interface KeptSlice {
  slice: number;
  changes: number;
  counts: SliceCounts | null;
  counted_changes: number | null;
  counted_at: string | null;
}

interface ListedBatch {
  id: string;
  created_at: Date | string;
  template_name: string;
  user_name: string;
  funnel_id: string;
  slices: KeptSlice[];
}

const sliceKey = (batchId: string, slice: number) => `${batchId}:${slice}`;

/**
 * The slices a read recounts: those never counted or moved since their last recount, and the AGED_SLICES_PER_READ
 * oldest of those counted longer than COUNTS_KEPT_MS ago.
 */
function slicesToRecount(listed: readonly ListedBatch[], now: Date) {
  const all = listed.flatMap((batch) => batch.slices.map((slice) => ({ batchId: batch.id, ...slice })));
  const isMoved = (slice: KeptSlice) => slice.counts === null || Number(slice.counted_changes) < Number(slice.changes);
  const moved = all.filter(isMoved);
  const aged = all
    .filter((slice) => !isMoved(slice) && now.getTime() - new Date(slice.counted_at!).getTime() > COUNTS_KEPT_MS)
    .sort((a, b) => new Date(a.counted_at!).getTime() - new Date(b.counted_at!).getTime())
    .slice(0, AGED_SLICES_PER_READ);
  return [...moved, ...aged];
}

/** A batch's counts, the sum of its slices'; its failure reason, the most frequent among all its failed rows. */
function addUp(slices: readonly SliceCounts[]): RowCounts & { failureReason: string | null } {
  const sum: RowCounts = { total: 0, sent: 0, delivered: 0, read: 0, replied: 0, failed: 0, unsettled: 0, accepted: 0, pending: 0 };
  const reasons = new Map<string, number>();
  for (const counts of slices) {
    for (const key of Object.keys(sum) as Array<keyof RowCounts>) sum[key] += counts[key];
    for (const [reason, rows] of Object.entries(counts.reasons)) reasons.set(reason, (reasons.get(reason) ?? 0) + rows);
  }
  let failureReason: string | null = null;
  for (const [reason, rows] of reasons) {
    const best = failureReason === null ? 0 : reasons.get(failureReason)!;
    if (rows > best || (rows === best && reason < failureReason!)) failureReason = reason;
  }
  return { ...sum, failureReason };
}

/**
 * The newest 100 batches of `where` with their counts, added up from their slices: each slice's last recount while
 * nothing has moved its rows since (`batch_count_slices.changes`, counted in the transactions that move them), else
 * recounted now and kept. Recounting a company's whole history at every refresh of every open dashboard took
 * 250–360 ms on PGlite for a hundred 1,000-row batches, and a 100,000-row campaign being sent as much at each of its
 * statuses, with PGlite's one connection held meanwhile (decisions 0021, 0022).
 */
async function batchSummaries(executor: DbExecutor, where: SQL, now: Date): Promise<Array<BatchDto & { pending: number }>> {
  const listed = await queryRows<ListedBatch>(
    executor,
    sql`
    select b.id, b.created_at, b.template_name, b.user_name, b.funnel_id,
      coalesce((
        select json_agg(kept) from (
          select s.slice, s.changes, s.counts, s.counted_changes, s.counted_at from batch_count_slices s where s.batch_id = b.id) kept),
        '[]') as slices
    from batches b
    where ${where}
    order by b.created_at desc, b.id desc
    limit 100`,
  );
  const recounted = await recount(executor, slicesToRecount(listed, now), now);
  return listed.map((batch) => {
    const counts = addUp(batch.slices.map((slice) => recounted.get(sliceKey(batch.id, slice.slice)) ?? slice.counts!));
    const status: BatchStatus = counts.unsettled > 0 ? 'processing' : counts.accepted > 0 ? 'completed' : 'failed';
    return {
      id: batch.id,
      created_at: new Date(batch.created_at).toISOString(),
      status,
      message_template_name: batch.template_name,
      user_name: batch.user_name,
      total_messages: counts.total,
      sent_count: counts.sent,
      delivered_count: counts.delivered,
      read_count: counts.read,
      replied_count: counts.replied,
      failed_count: counts.failed,
      failure_reason: counts.failureReason,
      funnel_id: batch.funnel_id,
      pending: counts.pending,
    };
  });
}

/**
 * Counts slices straight from their rows' messages: a row counts as sent, delivered or read by its
 * message's ack (ack only grows, so each includes the next), failed when refused or when its message failed,
 * and replied when the customer wrote on that chat after it (the chat's last customer message, kept on the card with
 * every inbound message, is later than it: a subquery per row over the chat's messages made the dashboard's list the
 * costliest statement of a bulk send); the failed rows are also counted by reason (the provider's, when it refused
 * the sends). A row is unsettled while it waits for its turn or for the provider's answer. One pass over the rows,
 * grouped by slice and reason, then by slice.
 *
 * Each recount is kept with the `changes` read before it: a change counted since then (even one the recount saw)
 * has the next read recount again, and a recount never replaces one made at a later count of changes. A slice
 * another transaction holds (a change being counted, another read keeping its count) is answered and not kept:
 * reads never wait for each other, nor lock slices in an order that could deadlock. `totals` (every slice asked for,
 * one without rows at 0) is both the answer and, as JSON, what is kept.
 */
async function recount(
  executor: DbExecutor,
  slices: ReadonlyArray<{ batchId: string; slice: number; changes: number }>,
  now: Date,
): Promise<Map<string, SliceCounts>> {
  if (slices.length === 0) return new Map();
  const rows = await queryRows<SliceCounts & { batch_id: string; slice: number }>(
    executor,
    sql`
    with listed as (
      select * from ${unnestRows(
        'listed',
        { batch_id: 'uuid', slice: 'int', changes: 'bigint' },
        slices.map((slice) => ({ batch_id: slice.batchId, slice: String(slice.slice), changes: String(slice.changes) })),
      )}),
    by_reason as (
      select listed.batch_id, listed.slice,
        case when r.status = 'failed' or m.ack = -1 then coalesce(m.error_reason, r.error_reason) end as reason,
        count(*)::int as total,
        count(*) filter (where m.ack >= 1)::int as sent,
        count(*) filter (where m.ack >= 2)::int as delivered,
        count(*) filter (where m.ack >= 3)::int as read,
        count(*) filter (where c.contact_last_message_at > m.created_at)::int as replied,
        count(*) filter (where r.status = 'failed' or m.ack = -1)::int as failed,
        count(*) filter (where r.status = 'pending' or (m.id is not null and m.provider_message_id is null and m.ack >= 0))::int as unsettled,
        count(*) filter (where m.provider_message_id is not null and m.ack >= 0)::int as accepted,
        count(*) filter (where r.status = 'pending')::int as pending
      from listed
      join batch_recipients r
        on r.batch_id = listed.batch_id and r.row_number >= listed.slice * ${ROWS_PER_COUNT_SLICE}::int
        and r.row_number < (listed.slice + 1) * ${ROWS_PER_COUNT_SLICE}::int
      left join messages m on m.id = r.message_id
      left join cards c on c.id = m.card_id
      group by 1, 2, 3),
    counted as (
      select batch_id, slice, sum(total)::int as total, sum(sent)::int as sent, sum(delivered)::int as delivered, sum(read)::int as read,
        sum(replied)::int as replied, sum(failed)::int as failed, sum(unsettled)::int as unsettled, sum(accepted)::int as accepted,
        sum(pending)::int as pending, coalesce(jsonb_object_agg(reason, failed) filter (where reason is not null), '{}') as reasons
      from by_reason
      group by 1, 2),
    totals as (
      select listed.batch_id, listed.slice, listed.changes, coalesce(counted.total, 0) as total, coalesce(counted.sent, 0) as sent,
        coalesce(counted.delivered, 0) as delivered, coalesce(counted.read, 0) as read, coalesce(counted.replied, 0) as replied,
        coalesce(counted.failed, 0) as failed, coalesce(counted.unsettled, 0) as unsettled, coalesce(counted.accepted, 0) as accepted,
        coalesce(counted.pending, 0) as pending, coalesce(counted.reasons, '{}') as reasons
      from listed left join counted on counted.batch_id = listed.batch_id and counted.slice = listed.slice),
    free as (
      select s.batch_id, s.slice from batch_count_slices s
      where (s.batch_id, s.slice) in (select batch_id, slice from listed)
      for update skip locked),
    kept as (
      update batch_count_slices s
      set counts = to_jsonb(totals) - 'batch_id' - 'slice' - 'changes', counted_changes = totals.changes, counted_at = ${now}
      from totals
      where s.batch_id = totals.batch_id and s.slice = totals.slice and (s.batch_id, s.slice) in (select batch_id, slice from free)
        and (s.counted_changes is null or s.counted_changes <= totals.changes)
      returning s.batch_id)
    select batch_id, slice, total, sent, delivered, read, replied, failed, unsettled, accepted, pending, reasons from totals`,
  );
  return new Map(rows.map(({ batch_id, slice, ...counts }) => [sliceKey(batch_id, slice), counts]));
}

/**
 * The dashboard's pace of the batches still processing (issue 16): the number's rate now, and when each batch's
 * waiting rows should have gone out. Batches of one company share its number's tokens about evenly, so a batch
 * ends once every batch has sent as many rows as it still has (or all of theirs, when fewer).
 */
async function withPacing(
  deps: Pick<BulkSendDeps, 'pacer' | 'clock'>,
  tenantId: string,
  summaries: Array<BatchDto & { pending: number }>,
): Promise<BatchDto[]> {
  const processing = summaries.filter((batch) => batch.status === 'processing');
  const rate = processing.length > 0 ? (await deps.pacer.rateOf(tenantId)).currentMessagesPerSecond : 0;
  const now = deps.clock().getTime();
  return summaries.map(({ pending, ...batch }) => {
    if (batch.status !== 'processing') return batch;
    const rowsBefore = processing.reduce((sum, other) => sum + Math.min(other.pending, pending), 0);
    return { ...batch, send_rate: rate, estimated_end_at: new Date(now + Math.ceil((rowsBefore / rate) * 1000)).toISOString() };
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

/**
 * GET /api/batches: the newest batches of the funnels the actor may see, with the pace of those still processing.
 * Every open dashboard asks again at each `batch_updated`, and a batch being sent is recounted each time: the members
 * who see the same funnels share one read (`batchLists`), spaced by its cost.
 */
export async function listBatches(deps: Pick<BulkSendDeps, 'db' | 'pacer' | 'clock' | 'batchLists'>, tenantId: string, actor: Actor): Promise<BatchDto[]> {
  const seen = seesAllFunnels(actor) ? 'all' : [...actor.funnelIds].sort().join(',');
  return deps.batchLists.read(`${tenantId}:${seen}`, async () =>
    withPacing(deps, tenantId, await batchSummaries(deps.db, sql`b.tenant_id = ${tenantId} and ${visibleBatches(actor)}`, deps.clock())),
  );
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
  /** The template's variables by number, as JSON: a 100,000-row upload keeps one string per row, not one object. */
  variables: string;
  failure?: string;
}

/** Which column fills each variable: the caller's mapping, or the columns named like the labels (the sample file). */
function variableColumnsFor(template: TemplateRow, headers: string[], requested: Record<string, string> | undefined): Record<string, string> {
  const schema = template.variablesSchema;
  const mapping = requested ?? defaultVariableColumns(schema, headers);
  for (const [n, header] of Object.entries(mapping)) {
    if (!schema[n]) throw badRequest(`La plantilla ${template.name} no tiene la variable {{${n}}}.`);
    if (!headers.includes(header)) throw badRequest(`La columna "${header}" no está en el archivo.`);
  }
  const unmapped = variableNumbers(schema).find((n) => !mapping[n]);
  if (unmapped) throw badRequest(`Elige la columna del archivo para la ${schema[unmapped]!.label} de la plantilla.`);
  return mapping;
}

/** Checks each row as it will be sent, as the file streams in; a repeated phone is dropped (sent once). */
class RowPlan {
  readonly planned: PlannedRow[] = [];
  duplicates = 0;
  private readonly seen = new Set<string>();

  constructor(
    private readonly columns: { phone: string; name: string | undefined },
    private readonly template: TemplateRow,
    private readonly variableColumns: Record<string, string>,
  ) {}

  add(row: SheetRow): void {
    const { columns, template, variableColumns } = this;
    const raw = row.values[columns.phone] ?? '';
    const phone = raw ? normalizePhone(raw) : undefined;
    if (phone && this.seen.has(phone)) {
      this.duplicates += 1;
      return;
    }
    if (phone) this.seen.add(phone);
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
    this.planned.push({ rowNumber: row.rowNumber, phone: phone ?? null, contactName, variables: JSON.stringify(variables), failure });
  }
}

/** Rows per INSERT: a few thousand keeps the statement count low. */
const INSERT_ROWS_PER_STATEMENT = 2_000;

/**
 * Inserts planned rows with one array parameter per column (`unnest`): a 100,000-row upload then costs a few arrays per
 * statement instead of an object per value, which kept the upload's memory several times higher.
 */
async function insertRecipients(tx: Tx, tenantId: string, batchId: string, rows: PlannedRow[], positionOf: (row: PlannedRow) => number | null) {
  const column = <T>(value: (row: PlannedRow) => T) => sql.param(rows.map(value));
  await tx.execute(sql`
    insert into batch_recipients (tenant_id, batch_id, row_number, phone, contact_name, variables, position, status, error_reason)
    select ${tenantId}::uuid, ${batchId}::uuid, r.row_number, r.phone, r.contact_name, r.variables::jsonb, r.position, r.status, r.error_reason
    from unnest(
      ${column((row) => row.rowNumber)}::int[],
      ${column((row) => row.phone)}::text[],
      ${column((row) => row.contactName)}::text[],
      ${column((row) => row.variables)}::text[],
      ${column(positionOf)}::int[],
      ${column((row) => (row.failure ? 'failed' : 'pending'))}::text[],
      ${column((row) => row.failure ?? null)}::text[]
    ) as r(row_number, phone, contact_name, variables, position, status, error_reason)`);
}

/**
 * POST /api/funnels/{id}/batches. Everything is checked before anything is written; then the batch, its rows
 * and its first chunk job commit together, so a batch either exists whole with its sending scheduled, or not at all.
 * The file is read as a stream: only its checked rows are kept (up to 100,000), never the workbook.
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

  let plan: RowPlan | undefined;
  // A file without data rows (or with too many) says so before its columns are judged, as it always did.
  let columnProblem: AppError | undefined;
  await deps.readRows(upload.data, upload.fileName, (headers) => {
    try {
      for (const column of [input.phoneColumn, input.nameColumn]) {
        if (column !== undefined && !headers.includes(column)) throw badRequest(`La columna "${column}" no está en el archivo.`);
      }
      const variableColumns = variableColumnsFor(template, headers, input.variableColumns);
      const rowPlan = new RowPlan({ phone: input.phoneColumn, name: input.nameColumn }, template, variableColumns);
      plan = rowPlan;
      return (row) => rowPlan.add(row);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      columnProblem = error;
      return () => {};
    }
  });
  if (columnProblem) throw columnProblem;
  const { planned, duplicates } = plan!;
  const sendable = planned.filter((row) => !row.failure).length;
  if (sendable === 0) {
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
    for (let start = 0; start < planned.length; start += INSERT_ROWS_PER_STATEMENT) {
      const slice = planned.slice(start, start + INSERT_ROWS_PER_STATEMENT);
      await insertRecipients(tx, author.tenantId, created!.id, slice, (row) => (row.failure ? null : position++));
    }
    await addCountSlices(
      tx,
      created!.id,
      planned.map((row) => row.rowNumber),
    );
    // One job starts the batch; each hands the rest to its successor, due when the number may send again.
    await deps.enqueueChunk(tx, { tenantId: author.tenantId, batchId: created!.id, chunk: 0 }, 0);
    return created!;
  });
  deps.updates.changed(author.tenantId, batch.id);
  // As it stands at commit: nothing has gone out yet and the refused rows are the failed ones.
  const refused = planned.length - sendable;
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
interface SendContext {
  template: TemplateRow;
  actor: Actor;
  landing: { columnId: string; funnelId: string };
}

async function batchBlocker(db: Db, batch: BatchRow): Promise<{ blocked: string } | SendContext> {
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

/** What `batch.row-finished` tells of a row. */
type FinishedRow = Pick<RecipientRow, 'tenantId' | 'batchId' | 'id' | 'rowNumber'>;

/** `batch.row-finished` for each row, in the transaction that took the rows out of `pending`. */
const publishRowsFinished = (
  deps: Pick<ChunkDeps, 'domainEvents'>,
  tx: Tx,
  finished: ReadonlyArray<{ row: FinishedRow; status: 'queued' | 'failed'; messageId: string | null }>,
) =>
  deps.domainEvents.publishMany(
    tx,
    finished.map(({ row, status, messageId }) => ({
      type: 'batch.row-finished' as const,
      tenantId: row.tenantId,
      payload: { batchId: row.batchId, recipientId: row.id, rowNumber: row.rowNumber, status, messageId },
    })),
  );

/** The rows fail, each with its reason; nothing is written for none. */
async function failRows<Row extends FinishedRow>(
  deps: Pick<ChunkDeps, 'domainEvents'>,
  tx: Tx,
  rows: readonly Row[],
  reasonOf: (row: Row) => string,
): Promise<[]> {
  for (const row of rows)
    await tx
      .update(batchRecipients)
      .set({ status: 'failed', errorReason: reasonOf(row) })
      .where(eq(batchRecipients.id, row.id));
  await publishRowsFinished(
    deps,
    tx,
    rows.map((row) => ({ row, status: 'failed' as const, messageId: null })),
  );
  return [];
}

/** The batch's rows still waiting to be stored, counted up to `limit`. */
async function waitingRows(db: Db, batchId: string, limit: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from (select 1 from batch_recipients where batch_id = ${batchId}::uuid and status = 'pending' limit ${limit}) waiting`,
  );
  return row!.n;
}

/**
 * One chunk job: stores the batch's waiting rows a slice at a time, each row only with a token of the company's
 * number (docs/decisions/0017), and hands what is left to its successor, due when the number may send again (or
 * at once after SLICES_PER_RUN slices, so the job lets others run). A slice's rows each get their contact and chat
 * (new chats land in the batch's column; a chat that exists stays where it is) and their template message at ack 0
 * with its send job, and are marked queued in the same transaction, which also records the successor when there is
 * one: a rerun after a crash finds those rows queued and skips them, so no row is sent twice and none is forgotten.
 */
export async function dispatchChunk(deps: ChunkDeps, { tenantId, batchId, chunk }: ChunkPayload): Promise<void> {
  const batch = await findBatch(deps.db, tenantId, batchId);
  if (!batch) return;
  const context = await batchBlocker(deps.db, batch);
  const successor = { tenantId, batchId, chunk: chunk + 1 };
  for (let slice = 0; slice < SLICES_PER_RUN; slice++) {
    const waiting = await waitingRows(deps.db, batch.id, ROWS_PER_TRANSACTION);
    if (waiting === 0) return;
    // Rows that cannot go out fail without spending the number's tokens.
    const grant = 'blocked' in context ? { granted: waiting, waitMs: 0 } : await deps.pacer.take(tenantId, waiting);
    const outOfTokens = grant.granted < waiting;
    const lastSlice = slice === SLICES_PER_RUN - 1 && waiting === ROWS_PER_TRANSACTION;
    const handOver = outOfTokens || lastSlice ? { delayMs: grant.waitMs } : undefined;
    if (grant.granted === 0) {
      await deps.enqueueChunk(deps.db, successor, grant.waitMs);
      return;
    }
    await storeSlice(deps, batch, context, grant.granted, handOver && { payload: successor, ...handOver });
    if (handOver) return;
    // On the embedded database no statement waits for I/O, so without a turn of the event loop between slices a
    // chunk's twenty ran in one: requests, timers and the sends' answers waited up to two seconds.
    await nextTurnOfTheEventLoop();
  }
}

/**
 * Stores up to `limit` waiting rows of the batch in one transaction, with the successor job when given: their contacts,
 * chats, messages, send jobs, rows and events a few statements for the whole slice (a row that cannot go fails alone).
 */
async function storeSlice(
  deps: ChunkDeps,
  batch: BatchRow,
  context: Awaited<ReturnType<typeof batchBlocker>>,
  limit: number,
  successor: { payload: ChunkPayload; delayMs: number } | undefined,
): Promise<void> {
  const { tenantId } = batch;
  const stored = await deps.db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(batchRecipients)
      .where(and(eq(batchRecipients.batchId, batch.id), eq(batchRecipients.status, 'pending')))
      .orderBy(asc(batchRecipients.position))
      .limit(limit)
      .for('update', { skipLocked: true });
    const sent = 'blocked' in context ? await failRows(deps, tx, rows, () => context.blocked) : await queueRows(deps, tx, batch, context, rows);
    if (successor) await deps.enqueueChunk(tx, successor.payload, successor.delayMs);
    return sent;
  });
  for (const { message, updatedCard, created } of stored) emitNewMessage(deps.events, tenantId, updatedCard, message, created);
}

type RecipientRow = typeof batchRecipients.$inferSelect;

/**
 * The slice's rows that can go out get their contact, chat and template message with its send job; the others fail.
 * A marketing template skips customers who opted out of marketing, as the send is about to happen (they may have
 * written BAJA since the upload): their row fails with no chat made, nothing sent and nothing billed. Its token of
 * the number is spent all the same, a small cost beside looking the contacts up before the pacer.
 */
async function queueRows(deps: ChunkDeps, tx: Tx, batch: BatchRow, context: SendContext, slice: RecipientRow[]) {
  const { tenantId } = batch;
  const contacts = await upsertContacts(
    tx,
    tenantId,
    slice.map((row) => ({ phone: row.phone!, isGroup: false })),
  );
  const failures = new Map<RecipientRow, string>();
  const rows = slice.filter((row) => {
    if (!refusesMarketing(context.template.category, contacts.get(row.phone!))) return true;
    failures.set(row, MARKETING_OPTED_OUT);
    return false;
  });
  const placed = await findOrCreateCards(
    tx,
    tenantId,
    rows.map((row) => ({ contact: contacts.get(row.phone!)!, learnt: row.contactName ? { name: row.contactName, source: 'file' as const } : undefined })),
    async () => context.landing,
  );
  const sendable: Array<{ row: RecipientRow; card: CardRow; created: boolean; draft: OutboundDraft }> = [];
  for (const [index, row] of rows.entries()) {
    const { card, created } = placed[index]!;
    if (!canSeeFunnel(context.actor, card.funnelId)) {
      failures.set(row, CONTACT_IN_HIDDEN_FUNNEL);
      continue;
    }
    try {
      sendable.push({ row, card, created, draft: templateDraft(context.template, row.variables) });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      failures.set(row, error.message);
    }
  }
  await failRows(deps, tx, [...failures.keys()], (row) => failures.get(row)!);
  const outcomes = await storeOutbounds(
    deps,
    tx,
    { tenantId, userId: batch.userId },
    sendable.map(({ card, draft }) => ({ card, draft })),
  );
  const queued = sendable.map(({ row, card, created }, index) => ({ row, cardId: card.id, created, ...outcomes[index]! }));
  if (queued.length > 0) {
    const values = sql.join(
      queued.map(({ row, cardId, message }) => sql`(${row.id}::uuid, ${cardId}::uuid, ${message.id}::uuid)`),
      sql`, `,
    );
    await tx
      .update(batchRecipients)
      .set({ status: 'queued', cardId: sql`queued.card_id`, messageId: sql`queued.message_id` })
      .from(sql`(values ${values}) as queued(id, card_id, message_id)`)
      .where(sql`${batchRecipients.id} = queued.id`);
    await publishRowsFinished(
      deps,
      tx,
      queued.map(({ row, message }) => ({ row, status: 'queued' as const, messageId: message.id })),
    );
  }
  return queued;
}

export const CHUNK_GAVE_UP = 'No se pudo preparar el envío de esta fila; inténtalo de nuevo en otro lote.';

/**
 * After a chunk job's last failed attempt: the slice it kept failing on will never be sent, so its rows count as
 * failed rather than keep the batch processing, and a successor takes the rest of the batch on.
 */
export async function giveUpChunk(deps: ChunkDeps, { tenantId, batchId, chunk }: ChunkPayload): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const slice = tx
      .select({ id: batchRecipients.id })
      .from(batchRecipients)
      .where(and(eq(batchRecipients.tenantId, tenantId), eq(batchRecipients.batchId, batchId), eq(batchRecipients.status, 'pending')))
      .orderBy(asc(batchRecipients.position))
      .limit(ROWS_PER_TRANSACTION);
    const failed = await tx
      .update(batchRecipients)
      .set({ status: 'failed', errorReason: CHUNK_GAVE_UP })
      .where(and(inArray(batchRecipients.id, slice), eq(batchRecipients.status, 'pending')))
      .returning({ id: batchRecipients.id, tenantId: batchRecipients.tenantId, batchId: batchRecipients.batchId, rowNumber: batchRecipients.rowNumber });
    await publishRowsFinished(
      deps,
      tx,
      failed.map((row) => ({ row, status: 'failed' as const, messageId: null })),
    );
    await deps.enqueueChunk(tx, { tenantId, batchId, chunk: chunk + 1 }, 0);
  });
}
