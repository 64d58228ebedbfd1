import { z } from 'zod';
import { isoDateTime } from './common.ts';

/**
 * The WhatsApp activity of one company (issue 17): is the provider reaching us, and what went wrong. Owners and admins
 * read it for their company (GET /api/whatsapp/activity); the platform operator for any company
 * (GET /api/admin/tenants/{id}/whatsapp-activity).
 */

/** One hour of webhook deliveries, by kind. */
export const activityHour = z.object({
  hour: isoDateTime,
  /** Customer messages (new or repeated by the provider). */
  messages: z.number().int(),
  /** Delivery statuses of what the company sent. */
  statuses: z.number().int(),
  /** Refused: the webhook URL's secret was wrong. */
  refused: z.number().int(),
  /** Recorded but unusable: not JSON, too deep, an id too long… */
  malformed: z.number().int(),
});
export type ActivityHour = z.infer<typeof activityHour>;

/**
 * `unapplied`: accepted, but applying it kept failing (the intake gave up after several tries); `refused_sender`: its
 * sender was no phone number nor a known group, so no chat was made of it.
 */
export const refusedDeliveryKinds = ['malformed', 'wrong_secret', 'unapplied', 'refused_sender'] as const;

/** A delivery the webhook refused, with what the provider sent (kept 7 days, cut to 4 KB). */
export const refusedDelivery = z.object({
  id: z.string(),
  kind: z.enum(refusedDeliveryKinds),
  reason: z.string(),
  rawBody: z.string(),
  receivedAt: isoDateTime,
});
export type RefusedDelivery = z.infer<typeof refusedDelivery>;

/** A message the company sent that the provider refused or reported as failed. */
export const failedSend = z.object({
  messageId: z.string(),
  cardId: z.string(),
  chatTitle: z.string(),
  phone: z.string(),
  type: z.string(),
  /** The provider's error code when it gave one (e.g. Gupshup's 1002, Meta's 131047). */
  code: z.string().nullable(),
  /** In Spanish, as the chat shows it on the failed message: what to do about it (docs/decisions/0014). */
  reason: z.string(),
  createdAt: isoDateTime,
});
export type FailedSend = z.infer<typeof failedSend>;

/** A job of the company that failed for good, after its last attempt. */
export const failedJob = z.object({
  id: z.string(),
  name: z.string(),
  /** What the job did, in Spanish. */
  label: z.string(),
  lastError: z.string().nullable(),
  attempts: z.number().int(),
  failedAt: isoDateTime.nullable(),
});
export type FailedJob = z.infer<typeof failedJob>;

/** Quality ratings of a WhatsApp number as Meta (or Gupshup, relaying Meta) reports them. */
export const numberQualities = ['GREEN', 'YELLOW', 'RED', 'UNKNOWN'] as const;
export type NumberQuality = (typeof numberQualities)[number];

/** Issue 43: the number's health as the provider last reported it (nothing reported yet: all null). */
export const numberHealth = z.object({
  /** GREEN high, YELLOW medium, RED low; null when the provider has said nothing. */
  quality: z.enum(numberQualities).nullable(),
  /** Business-initiated conversations the number may start a day; null when unlimited or not reported. */
  dailyLimit: z.number().int().nullable(),
  /** The provider's last event about the number (FLAGGED, UNFLAGGED, UPGRADE, DOWNGRADE…) and when it came. */
  lastEvent: z.string().nullable(),
  lastEventAt: isoDateTime.nullable(),
});
export type NumberHealth = z.infer<typeof numberHealth>;

export const whatsappActivityResponse = z.object({
  lastInboundMessageAt: isoDateTime.nullable(),
  lastStatusAt: isoDateTime.nullable(),
  /** The last 24 hours, oldest first, the current hour last. */
  hours: z.array(activityHour),
  refusedDeliveries: z.array(refusedDelivery),
  failedSends: z.array(failedSend),
  failedJobs: z.array(failedJob),
  numberHealth: numberHealth.optional(),
});
export type WhatsappActivity = z.infer<typeof whatsappActivityResponse>;

/** Reintentar: the failed job runs once more. */
export const retryJobResponse = z.object({ id: z.string(), status: z.literal('pending') });
export type RetryJobResponse = z.infer<typeof retryJobResponse>;

export const JOB_NOT_FOUND = 'Trabajo fallido no encontrado.';

/** The operator's list of companies that stopped receiving customer messages. */
export const silentCompaniesQuery = z.object({
  hours: z.coerce
    .number({ error: 'Las horas deben ser un número.' })
    .int({ error: 'Las horas deben ser un número entero.' })
    .min(1, { error: 'Mínimo 1 hora.' })
    .max(24 * 90, { error: 'Máximo 90 días.' })
    .default(24),
});

export const silentCompany = z.object({
  tenantId: z.string(),
  name: z.string(),
  slug: z.string(),
  lastInboundMessageAt: isoDateTime,
});
export type SilentCompany = z.infer<typeof silentCompany>;
export const silentCompaniesResponse = z.array(silentCompany);
