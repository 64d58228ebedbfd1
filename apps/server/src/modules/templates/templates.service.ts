import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { isUniqueViolation } from '../../platform/db/unique-violation.ts';
import { fileTypeFromBuffer } from 'file-type';
import {
  deriveVariablesSchema,
  MEDIA_UPLOAD_INVALID_RESPONSE,
  OPERATOR_REJECTION_REASON,
  TEMPLATE_MEDIA_UNSUPPORTED,
  TEMPLATE_NOT_FOUND,
  templateMediaTypes,
  type AdminTemplateDto,
  type TemplateDto,
  type TemplateRequest,
  type TemplateStatus,
} from '@embudo/contracts/http/templates';
import { messageTemplates, tenants } from '../../../db/schema/index.ts';
import { queryRows, type Db, type DbExecutor } from '../../platform/db/database.ts';
import { AppError, badGateway, badRequest, conflict, notFound } from '../../platform/errors/app-error.ts';
import { requireOwnerOrAdmin, type Actor } from '../../platform/policy/policy.ts';
import { ProviderError, type InboundTemplateStatus, type TemplateCatalog, type WhatsAppLines } from '../../messaging-providers/provider.ts';
import { MEDIA_URL_PREFIX, type MediaStorage } from '../../platform/storage/media-storage.ts';
import type { Logger } from '../../platform/logger/logger.ts';

export type TemplateRow = typeof messageTemplates.$inferSelect;

export interface TemplatesDeps {
  db: Db;
  /** Each company's WhatsApp line (the provider port): its template catalog is where WhatsApp's review happens. */
  lines: WhatsAppLines;
  /** Keeps our copy of each header sample: the editor previews it and sends use it as the header. */
  storage: MediaStorage;
}

/** Who acts, in which tenant; the slug names the sandbox app when none is configured. */
export interface TemplateActor {
  tenant: { id: string; slug: string };
  actor: Actor;
}

export const APP_NOT_CONFIGURED = 'Configura la Conexión WhatsApp antes de gestionar plantillas.';
const MB = 1024 * 1024;
const mediaMaxBytes = { IMAGE: 5 * MB, VIDEO: 16 * MB, DOCUMENT: 100 * MB } as const;

export function toTemplateDto(row: TemplateRow): TemplateDto {
  return {
    id: row.id,
    name: row.name,
    category: row.category,
    language_code: row.languageCode,
    header: row.header ?? null,
    body_text: row.bodyText,
    footer: row.footer,
    buttons: row.buttons,
    status: row.status,
    rejection_reason: row.rejectionReason,
    blocked_by_operator: row.operatorRejectionReason !== null,
    provider_template_id: row.providerTemplateId,
    variables_schema: row.variablesSchema,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function findOwn(executor: DbExecutor, tenantId: string, templateId: string) {
  if (!UUID.test(templateId)) return undefined;
  const [row] = await executor
    .select()
    .from(messageTemplates)
    .where(and(eq(messageTemplates.tenantId, tenantId), eq(messageTemplates.id, templateId)))
    .limit(1);
  return row;
}

/** The template if it is APPROVED in this tenant: what a send needs (provider id, category, body, header). */
export async function findApprovedTemplate(executor: DbExecutor, tenantId: string, templateId: string): Promise<TemplateRow | undefined> {
  const row = await findOwn(executor, tenantId, templateId);
  return row?.status === 'APPROVED' ? row : undefined;
}

export const TEMPLATE_NOT_APPROVED = 'Solo se pueden enviar plantillas aprobadas: esta plantilla no está aprobada.';
export const TEMPLATE_NOT_AT_PROVIDER = 'Esta plantilla no está registrada en WhatsApp: edítala y guárdala para enviarla a revisión de nuevo.';

/** A template a send may use: this tenant's (else 404, like a missing one), APPROVED and known to the provider. */
export async function templateForSending(executor: DbExecutor, tenantId: string, templateId: string): Promise<TemplateRow> {
  const row = await findOwn(executor, tenantId, templateId);
  if (!row) throw notFound(TEMPLATE_NOT_FOUND);
  if (row.status !== 'APPROVED') throw badRequest(TEMPLATE_NOT_APPROVED);
  if (!row.providerTemplateId) throw badRequest(TEMPLATE_NOT_AT_PROVIDER);
  return row;
}

export async function listTemplates(executor: DbExecutor, tenantId: string, filter: { status?: TemplateStatus } = {}): Promise<TemplateDto[]> {
  const rows = await executor
    .select()
    .from(messageTemplates)
    .where(and(eq(messageTemplates.tenantId, tenantId), filter.status ? eq(messageTemplates.status, filter.status) : undefined))
    .orderBy(desc(messageTemplates.createdAt));
  return rows.map(toTemplateDto);
}

export async function getTemplate(executor: DbExecutor, tenantId: string, templateId: string): Promise<TemplateDto> {
  const row = await findOwn(executor, tenantId, templateId);
  if (!row) throw notFound(TEMPLATE_NOT_FOUND);
  return toTemplateDto(row);
}

const providerLabels = { gupshup: 'Gupshup', meta: 'Meta' } as const;

/** The company's template catalog at the provider it sends through, and that provider's name for messages. */
async function catalogOf(deps: TemplatesDeps, tenant: TemplateActor['tenant']): Promise<{ catalog: TemplateCatalog; label: string }> {
  const line = await deps.lines.active(tenant);
  if (!line) throw badRequest(APP_NOT_CONFIGURED);
  return { catalog: line.templates, label: providerLabels[line.provider] };
}

/** Provider failures become a 502 with the provider's reason; our own errors (no credentials) pass through. */
function providerFailure(error: unknown, what: string): never {
  if (error instanceof AppError) throw error;
  if (error instanceof ProviderError) throw badGateway(`${what}: ${error.message}`);
  throw error;
}

/** A template the provider no longer holds counts as deleted (the port says so). */
function deleteAtProvider(catalog: TemplateCatalog, row: TemplateRow) {
  return catalog.remove(row.name, row.providerTemplateId ?? undefined);
}

async function assertNameFree(executor: DbExecutor, tenantId: string, input: TemplateRequest, exceptId?: string) {
  const [clash] = await executor
    .select({ id: messageTemplates.id })
    .from(messageTemplates)
    .where(
      and(
        eq(messageTemplates.tenantId, tenantId),
        eq(messageTemplates.name, input.name),
        eq(messageTemplates.languageCode, input.language_code),
        exceptId ? ne(messageTemplates.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (clash) throw conflict(`Ya existe una plantilla llamada ${input.name} en el idioma ${input.language_code}.`);
}

/** A header file of ours must be this tenant's; an https URL elsewhere is the tenant's own choice. */
function assertOwnHeaderMedia(tenantId: string, input: TemplateRequest) {
  const url = input.header && input.header.type !== 'TEXT' ? input.header.media_url : undefined;
  if (url?.startsWith(`${MEDIA_URL_PREFIX}/`) && !url.startsWith(`${MEDIA_URL_PREFIX}/${tenantId}/`)) {
    throw badRequest('La URL del archivo del encabezado no es válida.');
  }
}

function columnsOf(input: TemplateRequest) {
  return {
    name: input.name,
    category: input.category,
    languageCode: input.language_code,
    header: input.header,
    bodyText: input.body_text,
    footer: input.footer,
    buttons: input.buttons,
    variablesSchema: deriveVariablesSchema(input.body_text),
  };
}

/** Submits the template for review first and stores it only once the provider took it. */
export async function createTemplate(deps: TemplatesDeps, who: TemplateActor, input: TemplateRequest): Promise<TemplateDto> {
  requireOwnerOrAdmin(who.actor);
  assertOwnHeaderMedia(who.tenant.id, input);
  await assertNameFree(deps.db, who.tenant.id, input);
  const { catalog, label } = await catalogOf(deps, who.tenant);
  const columns = columnsOf(input);
  const submitted = await catalog.submit(columns).catch((error) => providerFailure(error, `${label} no aceptó la plantilla`));
  try {
    const [row] = await deps.db
      .insert(messageTemplates)
      .values({
        ...columns,
        tenantId: who.tenant.id,
        status: 'PENDING',
        rejectionReason: null,
        providerTemplateId: submitted.id,
      })
      .returning();
    return toTemplateDto(row!);
  } catch (error) {
    // Lost a race with an identical save: the provider's copy must not stay orphaned.
    await catalog.remove(columns.name, submitted.id).catch(() => undefined);
    if (isUniqueViolation(error)) {
      throw conflict(`Ya existe una plantilla llamada ${input.name} en el idioma ${input.language_code}.`);
    }
    throw error;
  }
}

/**
 * Editing re-submits for review. Gupshup keeps one template per name and language, so the old one
 * goes first when that key stays; when it changes, the new one is created before the old is removed.
 */
export async function updateTemplate(deps: TemplatesDeps, who: TemplateActor, templateId: string, input: TemplateRequest): Promise<TemplateDto> {
  requireOwnerOrAdmin(who.actor);
  const existing = await findOwn(deps.db, who.tenant.id, templateId);
  if (!existing) throw notFound(TEMPLATE_NOT_FOUND);
  assertOwnHeaderMedia(who.tenant.id, input);
  await assertNameFree(deps.db, who.tenant.id, input, existing.id);
  const { catalog, label } = await catalogOf(deps, who.tenant);
  const columns = columnsOf(input);
  const sameKey = existing.name === columns.name && existing.languageCode === columns.languageCode;

  if (sameKey) await deleteAtProvider(catalog, existing).catch((error) => providerFailure(error, `No se pudo reemplazar la plantilla en ${label}`));
  let submitted;
  try {
    submitted = await catalog.submit(columns);
  } catch (error) {
    if (sameKey && error instanceof ProviderError) {
      // The old version is already gone at the provider; say so instead of showing a stale status.
      await deps.db
        .update(messageTemplates)
        .set({ status: 'FAILED', rejectionReason: error.message, providerTemplateId: null, updatedAt: new Date() })
        .where(and(eq(messageTemplates.tenantId, who.tenant.id), eq(messageTemplates.id, existing.id)));
    }
    return providerFailure(error, `${label} no aceptó la plantilla`);
  }
  if (!sameKey) await deleteAtProvider(catalog, existing).catch(() => undefined);

  const [row] = await deps.db
    .update(messageTemplates)
    .set({ ...columns, ...reviewStateAfterSubmit(existing), providerTemplateId: submitted.id, updatedAt: new Date() })
    .where(and(eq(messageTemplates.tenantId, who.tenant.id), eq(messageTemplates.id, existing.id)))
    .returning();
  if (!row) throw notFound(TEMPLATE_NOT_FOUND);
  return toTemplateDto(row);
}

/** A new version goes to Meta's review, but the operator's block stays until the operator approves. */
function reviewStateAfterSubmit(existing: TemplateRow): Pick<TemplateRow, 'status' | 'rejectionReason'> {
  return existing.operatorRejectionReason !== null
    ? { status: 'REJECTED', rejectionReason: existing.operatorRejectionReason }
    : { status: 'PENDING', rejectionReason: null };
}

/** Deletes at the provider first (irreversible there), then here. */
export async function deleteTemplate(deps: TemplatesDeps, who: TemplateActor, templateId: string): Promise<void> {
  requireOwnerOrAdmin(who.actor);
  const existing = await findOwn(deps.db, who.tenant.id, templateId);
  if (!existing) throw notFound(TEMPLATE_NOT_FOUND);
  const { catalog, label } = await catalogOf(deps, who.tenant);
  await deleteAtProvider(catalog, existing).catch((error) => providerFailure(error, `No se pudo eliminar la plantilla en ${label}`));
  await deps.db.delete(messageTemplates).where(and(eq(messageTemplates.tenantId, who.tenant.id), eq(messageTemplates.id, existing.id)));
}

/**
 * Refreshes every template's status and rejection reason from the provider's list, except where the
 * operator blocked the template: that REJECTED (and its reason) stands whatever the provider says.
 */
export async function syncTemplates(deps: TemplatesDeps, who: TemplateActor): Promise<{ synced: number; templates: TemplateDto[] }> {
  requireOwnerOrAdmin(who.actor);
  const rows = await deps.db.select().from(messageTemplates).where(eq(messageTemplates.tenantId, who.tenant.id));
  // Nothing stored, nothing to refresh: no need to reach the provider.
  if (rows.length === 0) return { synced: 0, templates: [] };
  const { catalog, label } = await catalogOf(deps, who.tenant);
  const remote = await catalog.list().catch((error) => providerFailure(error, `No se pudo sincronizar con ${label}`));
  let synced = 0;
  for (const row of rows) {
    const match =
      remote.find((template) => row.providerTemplateId && template.id === row.providerTemplateId) ??
      remote.find((template) => template.name === row.name && template.languageCode === row.languageCode);
    if (!match) continue;
    synced++;
    const blocked = row.operatorRejectionReason !== null;
    const status = blocked ? 'REJECTED' : match.status;
    const rejectionReason = blocked ? row.operatorRejectionReason : status === 'REJECTED' || status === 'FAILED' ? match.reason : null;
    if (status === row.status && rejectionReason === row.rejectionReason && match.id === row.providerTemplateId) continue;
    await deps.db
      .update(messageTemplates)
      .set({ status, rejectionReason, providerTemplateId: match.id, updatedAt: new Date() })
      .where(and(eq(messageTemplates.tenantId, who.tenant.id), eq(messageTemplates.id, row.id)));
  }
  return { synced, templates: await listTemplates(deps.db, who.tenant.id) };
}

/**
 * Meta's review moved a template (the provider's status webhook): the same rule as a sync, for the one template it
 * names (by the provider's id, else by name and language). The operator's block stands whatever the provider says,
 * and news received before the template's last change (an operator's approval, a sync) is not news: the webhook
 * intake applies a delivery after it was received. Our own receive time is compared, not the provider's stamp: that
 * one comes in whole seconds, and a review right after the template was saved shares its second.
 */
export async function applyProviderTemplateStatus(
  db: DbExecutor,
  tenantId: string,
  update: Omit<InboundTemplateStatus, 'kind' | 'timestamp'> & { receivedAt?: Date },
) {
  const rows = await db.select().from(messageTemplates).where(eq(messageTemplates.tenantId, tenantId));
  const row =
    rows.find((candidate) => update.providerTemplateId && candidate.providerTemplateId === update.providerTemplateId) ??
    rows.find((candidate) => candidate.name === update.name && (!update.languageCode || candidate.languageCode === update.languageCode));
  if (!row || row.operatorRejectionReason !== null) return undefined;
  if (update.receivedAt && update.receivedAt < row.updatedAt) return row;
  const rejectionReason = update.status === 'REJECTED' || update.status === 'FAILED' || update.status === 'PAUSED' ? update.reason : null;
  if (row.status === update.status && row.rejectionReason === rejectionReason) return row;
  const [updated] = await db
    .update(messageTemplates)
    .set({ status: update.status, rejectionReason, updatedAt: new Date() })
    .where(and(eq(messageTemplates.tenantId, tenantId), eq(messageTemplates.id, row.id)))
    .returning();
  return updated;
}

/**
 * A header sample, checked by its content (png/jpeg, mp4, pdf), uploaded to the provider for its handle.
 * Our copy is stored only once the provider took it, so a refused upload leaves no file behind.
 */
export async function uploadTemplateMedia(deps: TemplatesDeps, who: TemplateActor, file: { data: Buffer; fileName: string }) {
  requireOwnerOrAdmin(who.actor);
  const detected = await fileTypeFromBuffer(file.data);
  const headerType = (Object.keys(templateMediaTypes) as Array<keyof typeof templateMediaTypes>).find(
    (type) => detected && templateMediaTypes[type].includes(detected.mime),
  );
  if (!detected || !headerType) throw badRequest(TEMPLATE_MEDIA_UNSUPPORTED);
  if (file.data.length > mediaMaxBytes[headerType]) throw badRequest(`El archivo supera el límite de ${mediaMaxBytes[headerType] / MB} MB para este tipo.`);
  const { catalog, label } = await catalogOf(deps, who.tenant);
  try {
    const handleId = await catalog.uploadSample({ data: file.data, mime: detected.mime, fileName: file.fileName || `sample.${detected.ext}` });
    const url = await deps.storage.save(who.tenant.id, file.data, detected.ext);
    return { handleId, headerType, url };
  } catch (error) {
    if (error instanceof ProviderError && error.message === MEDIA_UPLOAD_INVALID_RESPONSE) throw badGateway(MEDIA_UPLOAD_INVALID_RESPONSE);
    return providerFailure(error, `No se pudo subir el archivo a ${label}`);
  }
}

/** Template figures across every tenant (the operator's dashboard), read from the templates table when this database has it. */
export async function templateCounts(db: Db) {
  const [probe] = await queryRows<{ present: boolean }>(db, sql`select to_regclass('message_templates') is not null as present`);
  if (!probe?.present) return { totalTemplates: 0, utilityTemplates: 0, marketingTemplates: 0 };
  const [row] = await queryRows<{ total: number; utility: number; marketing: number }>(
    db,
    sql`select count(*)::int as total,
      (count(*) filter (where category = 'UTILITY'))::int as utility,
      (count(*) filter (where category = 'MARKETING'))::int as marketing from message_templates`,
  );
  return { totalTemplates: row?.total ?? 0, utilityTemplates: row?.utility ?? 0, marketingTemplates: row?.marketing ?? 0 };
}

/** Every tenant's templates, newest first, with the tenant's name (the operator's review table). */
export async function listAllTemplatesForOperator(db: Db): Promise<AdminTemplateDto[]> {
  const rows = await db
    .select({ template: messageTemplates, tenantName: tenants.name })
    .from(messageTemplates)
    .innerJoin(tenants, eq(tenants.id, messageTemplates.tenantId))
    .orderBy(desc(messageTemplates.createdAt));
  return rows.map((row) => ({ ...toTemplateDto(row.template), tenant_id: row.template.tenantId, tenant_name: row.tenantName }));
}

export const ALREADY_APPROVED = 'La plantilla ya está aprobada.';
export const ALREADY_REJECTED = 'La plantilla ya está rechazada.';

/** The sandbox's "Meta review": the operator's approval approves there too (at the fake of the company's provider). */
export interface SandboxTemplateReviewer {
  approve(tenant: { id: string; slug: string }, providerTemplateId: string): Promise<boolean>;
}

export interface OperatorReviewDeps {
  db: Db;
  /** Present in sandbox mode only. */
  sandboxReviewer?: SandboxTemplateReviewer;
  log: Pick<Logger, 'warn'>;
}

/**
 * The operator's decision (spec 02 §4): APPROVED on any non-approved template, REJECTED on any non-rejected one.
 * A rejection is a platform block with the operator's reason that no sync lifts; an approval clears it and makes
 * the template APPROVED (in sandbox mode at the fake provider too, so it really sends; in live mode Meta's review
 * still decides delivery, and a refused send shows the provider's reason on the message).
 */
export async function setTemplateStatusByOperator(
  deps: OperatorReviewDeps,
  templateId: string,
  decision: { status: 'APPROVED' | 'REJECTED'; reason?: string },
): Promise<AdminTemplateDto> {
  const { status } = decision;
  const [row] = await deps.db
    .select({ template: messageTemplates, tenant: tenants })
    .from(messageTemplates)
    .innerJoin(tenants, eq(tenants.id, messageTemplates.tenantId))
    .where(eq(messageTemplates.id, templateId))
    .limit(1);
  if (!row) throw notFound(TEMPLATE_NOT_FOUND);
  if (row.template.status === status) throw badRequest(status === 'APPROVED' ? ALREADY_APPROVED : ALREADY_REJECTED);
  const operatorReason = status === 'REJECTED' ? (decision.reason ?? OPERATOR_REJECTION_REASON) : null;
  const [updated] = await deps.db
    .update(messageTemplates)
    .set({ status, rejectionReason: operatorReason, operatorRejectionReason: operatorReason, updatedAt: new Date() })
    .where(and(eq(messageTemplates.id, templateId), ne(messageTemplates.status, status)))
    .returning();
  if (!updated) throw badRequest(status === 'APPROVED' ? ALREADY_APPROVED : ALREADY_REJECTED);
  if (status === 'APPROVED' && deps.sandboxReviewer) await approveAtSandbox(deps, deps.sandboxReviewer, row.tenant, updated);
  return { ...toTemplateDto(updated), tenant_id: updated.tenantId, tenant_name: row.tenant.name };
}

async function approveAtSandbox(deps: OperatorReviewDeps, reviewer: SandboxTemplateReviewer, tenant: TemplateActor['tenant'], template: TemplateRow) {
  const approved = Boolean(template.providerTemplateId && (await reviewer.approve(tenant, template.providerTemplateId)));
  // Sends will then fail with the provider's reason on the message; saving the template again re-submits it.
  if (!approved) deps.log.warn({ tenantId: tenant.id, templateId: template.id }, 'sandbox provider does not hold the template the operator approved');
}
