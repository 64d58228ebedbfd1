import { and, desc, eq, gte, sql } from 'drizzle-orm';
import { cards, messages, webhookDeliveryHours, webhookRejections } from '../../../db/schema/index.ts';
import { withoutForbiddenCharacters } from '@embudo/contracts/text';
import { queryRows, type Db } from '../../platform/db/database.ts';
import type { ProviderName } from '../../messaging-providers/provider.ts';

/** What one webhook delivery was, per company and hour (the activity panel's chart and "last" times). */
export type DeliveryKind = 'message' | 'status' | 'refused' | 'malformed';

/**
 * Deliveries with a wrong secret are recorded (raw payload included) at most this many times per company and hour;
 * past that only counted, so whoever knows a company's id cannot fill the table.
 */
/** How much of a refused delivery is kept: enough to see what the provider sent. */
export const REJECTED_BODY_KEPT = 4096;

export const keptBody = (rawBody: string) => withoutForbiddenCharacters(rawBody.slice(0, REJECTED_BODY_KEPT));

export const WRONG_SECRET_RECORDS_PER_HOUR = 60;

/** Why a delivery is refused: the secret in its URL is not the company's, or the provider's signature does not match. */
export type RefusalCause = 'secret' | 'signature';

/**
 * What a refused delivery's row says, by the provider it came through: the advice is where that provider keeps
 * the webhook settings (Gupshup's app, Meta's app dashboard) and what of ours goes there. Gupshup signs nothing, so
 * only its URL can be wrong.
 */
export const REFUSED_DELIVERY_REASONS: Record<ProviderName, Record<RefusalCause, string>> = {
  gupshup: {
    secret: 'La URL del webhook no lleva el secreto de la empresa: copia otra vez en Gupshup la URL de webhook que muestra Conexión WhatsApp.',
    signature: 'Gupshup envió una entrega que no se pudo verificar: copia otra vez en Gupshup la URL de webhook que muestra Conexión WhatsApp.',
  },
  meta: {
    secret:
      'La URL del webhook no lleva el secreto de la empresa: en el panel de tu app de Meta (WhatsApp › Configuración) pega otra vez la URL de devolución de llamada y el token de verificación que muestra Conexión WhatsApp.',
    signature:
      'La firma de Meta no coincide con el secreto de la app guardado: copia el secreto de la app (Configuración básica de tu app en Meta) en Conexión WhatsApp y guárdalo.',
  },
};

const HOUR_MS = 3_600_000;
/** How often buffered counts are written: one upsert per company, hour and kind, not one per delivery. */
export const DELIVERY_COUNT_FLUSH_MS = 5_000;

interface PendingCount {
  tenantId: string;
  hour: Date;
  kind: DeliveryKind;
  deliveries: number;
  lastAt: Date;
}

/**
 * Counts webhook deliveries per company, hour and kind in memory and writes them every few seconds. Updating one row
 * per delivery made it a hot row (and, in the embedded database, a growing chain of dead row versions) that cost
 * 40 % of the webhook ingest rate; a crash loses at most the last few seconds of counts, which only feed the panel.
 */
export class DeliveryCounter {
  private pending = new Map<string, PendingCount>();
  /** Wrong-secret deliveries recorded by this process, per company and hour (the cap). */
  private wrongSecretRecords = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: { warn: (details: object, message: string) => void },
  ) {}

  count(tenantId: string, kind: DeliveryKind, at: Date): void {
    const hour = new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
    const key = `${tenantId}|${hour.toISOString()}|${kind}`;
    const entry = this.pending.get(key);
    if (entry) {
      entry.deliveries += 1;
      if (at > entry.lastAt) entry.lastAt = at;
    } else {
      this.pending.set(key, { tenantId, hour, kind, deliveries: 1, lastAt: at });
    }
  }

  /** Whether this wrong-secret delivery may still be recorded with its payload (at most the cap per company and hour). */
  mayRecordWrongSecret(tenantId: string, at: Date): boolean {
    const key = `${tenantId}|${Math.floor(at.getTime() / HOUR_MS)}`;
    const recorded = this.wrongSecretRecords.get(key) ?? 0;
    if (recorded >= WRONG_SECRET_RECORDS_PER_HOUR) return false;
    if (this.wrongSecretRecords.size > 10_000) this.wrongSecretRecords.clear();
    this.wrongSecretRecords.set(key, recorded + 1);
    return true;
  }

  /** Writes what was counted since the last flush; counts that could not be written are kept for the next one. */
  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      await this.db
        .insert(webhookDeliveryHours)
        .values(batch)
        .onConflictDoUpdate({
          target: [webhookDeliveryHours.tenantId, webhookDeliveryHours.hour, webhookDeliveryHours.kind],
          set: {
            deliveries: sql`${webhookDeliveryHours.deliveries} + excluded.deliveries`,
            lastAt: sql`greatest(${webhookDeliveryHours.lastAt}, excluded.last_at)`,
          },
        });
    } catch (error) {
      for (const entry of batch) for (let n = 0; n < entry.deliveries; n += 1) this.count(entry.tenantId, entry.kind, entry.lastAt);
      this.log.warn({ err: error }, 'could not write webhook delivery counts; kept for the next try');
    }
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), DELIVERY_COUNT_FLUSH_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}

/** What a refused delivery came through, and why it was refused. */
export interface Refusal {
  provider: ProviderName;
  cause: RefusalCause;
}

/**
 * Records a delivery for this company whose secret or signature was wrong (a webhook URL copied wrong, an app
 * secret not saved), within the hourly cap, with the advice of the provider it came through.
 */
export async function recordWrongSecret(
  db: Db,
  counter: DeliveryCounter,
  tenantId: string,
  refusal: Refusal,
  rawBody: string,
  receivedAt: Date,
): Promise<void> {
  counter.count(tenantId, 'refused', receivedAt);
  if (counter.mayRecordWrongSecret(tenantId, receivedAt)) {
    const reason = REFUSED_DELIVERY_REASONS[refusal.provider][refusal.cause];
    await db.insert(webhookRejections).values({ tenantId, kind: 'wrong_secret', reason, rawBody, receivedAt });
  }
}

export interface DeliveryHour {
  hour: Date;
  kind: DeliveryKind;
  deliveries: number;
}

/** The hourly counts since `since`, and the last customer message and status ever counted. */
export async function deliveryActivity(db: Db, tenantId: string, since: Date) {
  const hours: DeliveryHour[] = await db
    .select({ hour: webhookDeliveryHours.hour, kind: webhookDeliveryHours.kind, deliveries: webhookDeliveryHours.deliveries })
    .from(webhookDeliveryHours)
    .where(and(eq(webhookDeliveryHours.tenantId, tenantId), gte(webhookDeliveryHours.hour, sql`date_trunc('hour', ${since.toISOString()}::timestamptz)`)))
    .orderBy(webhookDeliveryHours.hour);
  const last = await queryRows<{ kind: DeliveryKind; last_at: string }>(
    db,
    sql`select kind, max(last_at)::text as last_at from webhook_delivery_hours where tenant_id = ${tenantId} and kind in ('message', 'status') group by kind`,
  );
  const lastOf = (kind: DeliveryKind) => {
    const row = last.find((entry) => entry.kind === kind);
    return row ? new Date(row.last_at) : null;
  };
  return { hours, lastMessageAt: lastOf('message'), lastStatusAt: lastOf('status') };
}

export async function recentRejections(db: Db, tenantId: string, limit: number) {
  return db
    .select({
      id: webhookRejections.id,
      kind: webhookRejections.kind,
      reason: webhookRejections.reason,
      rawBody: webhookRejections.rawBody,
      receivedAt: webhookRejections.receivedAt,
    })
    .from(webhookRejections)
    .where(eq(webhookRejections.tenantId, tenantId))
    .orderBy(desc(webhookRejections.receivedAt))
    .limit(limit);
}

/** Sends that failed (ack -1), newest first, with the chat they belong to. */
export async function recentFailedSends(db: Db, tenantId: string, since: Date, limit: number) {
  return db
    .select({
      messageId: messages.id,
      cardId: messages.cardId,
      chatTitle: cards.title,
      phone: cards.phone,
      type: messages.type,
      errorReason: messages.errorReason,
      errorCode: messages.errorCode,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .innerJoin(cards, eq(cards.id, messages.cardId))
    .where(and(eq(messages.tenantId, tenantId), eq(messages.ack, -1), sql`${messages.sender} <> 'contact'`, gte(messages.createdAt, since)))
    .orderBy(desc(messages.createdAt))
    .limit(limit);
}

/**
 * Companies that received customer messages at some point in the kept history but none since `silentSince`: a
 * webhook URL changed, a provider outage or a number that was disconnected.
 */
export async function silentTenantIds(db: Db, silentSince: Date) {
  return queryRows<{ tenant_id: string; last_at: string }>(
    db,
    sql`select tenant_id, max(last_at)::text as last_at from webhook_delivery_hours where kind = 'message'
        group by tenant_id having max(last_at) < ${silentSince.toISOString()} order by max(last_at)`,
  );
}
