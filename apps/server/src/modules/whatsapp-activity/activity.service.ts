import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { ActivityHour, FailedJob, NumberHealth, SilentCompany, WhatsappActivity } from '@embudo/contracts/http/whatsapp-activity';
import { numberQualities } from '@embudo/contracts/http/whatsapp-activity';
import { JOB_NOT_FOUND } from '@embudo/contracts/http/whatsapp-activity';
import { jobs, tenants } from '../../../db/schema/index.ts';
import type { Db } from '../../platform/db/database.ts';
import { conflict, notFound } from '../../platform/errors/app-error.ts';
import { isUniqueViolation } from '../../platform/db/unique-violation.ts';
import type { JobQueue } from '../../platform/queue/job-queue.ts';
import { deliveryActivity, recentFailedSends, recentRejections, silentTenantIds } from '../chats/index.ts';
import { numberHealthOf } from '../tenants/index.ts';

const HOUR_MS = 3_600_000;
const PROVIDER_REFUSED = 'El proveedor de WhatsApp rechazó el mensaje';
/** What the panel lists of each kind: the newest first. */
export const LISTED = 50;
/** Failed sends older than this are not listed (the chat keeps them). */
const FAILED_SENDS_DAYS = 7;

/** What a job did, in the company's words; listener jobs are named `event.<module>.<listener>`. */
const JOB_LABELS: Array<[RegExp, string]> = [
  [/^chats\.send-message$/, 'Enviar un mensaje por WhatsApp'],
  [/^chats\.send-scheduled$/, 'Enviar un mensaje programado'],
  [/^chats\.download-media$/, 'Descargar un archivo que envió un cliente'],
  [/^chats\.send-read-receipt$/, 'Avisar a WhatsApp que se leyó un chat'],
  [/^bulk-sends\.send-chunk$/, 'Enviar un tramo de un envío masivo'],
  [/^event\.bulk-sends\./, 'Actualizar el avance de un envío masivo'],
  [/^event\.autobot\./, 'Responder con el Bot Auto'],
  [/^(event\.)?bots\./, 'Avanzar un bot de Bots Studio'],
  [/^event\.ai\.transcribe/, 'Transcribir una nota de voz'],
  [/^(event\.)?ai\./, 'Responder con el asistente de IA'],
];

export function jobLabel(name: string): string {
  return JOB_LABELS.find(([pattern]) => pattern.test(name))?.[1] ?? name;
}

/** The last 24 hours, oldest first, every hour present (0 when nothing came). */
function lastDay(now: Date, rows: { hour: Date; kind: string; deliveries: number }[]): ActivityHour[] {
  const current = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const hours = Array.from({ length: 24 }, (_, index) => ({
    hour: new Date(current - (23 - index) * HOUR_MS).toISOString(),
    messages: 0,
    statuses: 0,
    refused: 0,
    malformed: 0,
  }));
  for (const row of rows) {
    const slot = hours[23 - Math.round((current - row.hour.getTime()) / HOUR_MS)];
    if (!slot) continue;
    if (row.kind === 'message') slot.messages += row.deliveries;
    else if (row.kind === 'status') slot.statuses += row.deliveries;
    else if (row.kind === 'refused') slot.refused += row.deliveries;
    else if (row.kind === 'malformed') slot.malformed += row.deliveries;
  }
  return hours;
}

async function failedJobsOf(db: Db, tenantId: string): Promise<FailedJob[]> {
  const rows = await db
    .select({ id: jobs.id, name: jobs.name, lastError: jobs.lastError, attempts: jobs.attempts, failedAt: jobs.completedAt })
    .from(jobs)
    .where(and(eq(jobs.tenantId, tenantId), eq(jobs.status, 'failed')))
    .orderBy(sql`${jobs.completedAt} desc nulls last`, desc(jobs.createdAt))
    .limit(LISTED);
  return rows.map((row) => ({ ...row, label: jobLabel(row.name), failedAt: row.failedAt?.toISOString() ?? null }));
}

/** The number's health as the provider last reported it; a quality word we do not know counts as unknown. */
async function numberHealth(db: Db, tenantId: string): Promise<NumberHealth> {
  const row = await numberHealthOf(db, tenantId);
  const quality = row.quality === null ? null : (numberQualities.find((known) => known === row.quality) ?? 'UNKNOWN');
  return { quality, dailyLimit: row.dailyLimit, lastEvent: row.lastEvent, lastEventAt: row.lastEventAt?.toISOString() ?? null };
}

export async function whatsappActivity(db: Db, tenantId: string, now = new Date()): Promise<WhatsappActivity> {
  const since = new Date(now.getTime() - 23 * HOUR_MS);
  const [deliveries, rejections, sends, failedJobs, health] = await Promise.all([
    deliveryActivity(db, tenantId, since),
    recentRejections(db, tenantId, LISTED),
    recentFailedSends(db, tenantId, new Date(now.getTime() - FAILED_SENDS_DAYS * 24 * HOUR_MS), LISTED),
    failedJobsOf(db, tenantId),
    numberHealth(db, tenantId),
  ]);
  return {
    lastInboundMessageAt: deliveries.lastMessageAt?.toISOString() ?? null,
    lastStatusAt: deliveries.lastStatusAt?.toISOString() ?? null,
    hours: lastDay(now, deliveries.hours),
    refusedDeliveries: rejections.map((row) => ({ ...row, receivedAt: row.receivedAt.toISOString() })),
    failedSends: sends.map((row) => ({
      messageId: row.messageId,
      cardId: row.cardId,
      chatTitle: row.chatTitle,
      phone: row.phone,
      type: row.type,
      // Stored when the provider refused: its code and the Spanish reason the chat shows (docs/decisions/0014).
      code: row.errorCode,
      reason: row.errorReason ?? PROVIDER_REFUSED,
      createdAt: row.createdAt.toISOString(),
    })),
    failedJobs,
    numberHealth: health,
  };
}

/** Reintentar: the company's job that failed for good runs once more; another company's (or an unknown) id is a 404. */
export async function retryFailedJob(queue: JobQueue, tenantId: string, jobId: string) {
  let retried: boolean;
  try {
    retried = await queue.retryFailed(jobId, { tenantId });
  } catch (error) {
    // The same work (its singleton key) is already queued again, e.g. the message was resent meanwhile.
    if (isUniqueViolation(error)) throw conflict(JOB_ALREADY_QUEUED);
    throw error;
  }
  if (!retried) throw notFound(JOB_NOT_FOUND);
  return { id: jobId, status: 'pending' as const };
}

export const JOB_ALREADY_QUEUED = 'Ese trabajo ya está en la cola: espera a que termine.';

/** Companies with customer messages in the kept history and none in the last `hours`. */
export async function silentCompanies(db: Db, hours: number, now = new Date()): Promise<SilentCompany[]> {
  const silent = await silentTenantIds(db, new Date(now.getTime() - hours * HOUR_MS));
  if (silent.length === 0) return [];
  const rows = await db
    .select({ id: tenants.id, name: tenants.name, slug: tenants.slug })
    .from(tenants)
    .where(
      inArray(
        tenants.id,
        silent.map((row) => row.tenant_id),
      ),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return silent.flatMap((row) => {
    const tenant = byId.get(row.tenant_id);
    return tenant ? [{ tenantId: tenant.id, name: tenant.name, slug: tenant.slug, lastInboundMessageAt: new Date(row.last_at).toISOString() }] : [];
  });
}
