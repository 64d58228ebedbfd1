import { and, desc, eq, gte, sql } from 'drizzle-orm';
import { cards, messages, webhookDeliveryHours, webhookRejections } from '../../../db/schema/index.ts';
import { queryRows, type Db } from '../../platform/db/database.ts';

/** What one webhook delivery was, per company and hour (the activity panel's chart and "last" times). */
export type DeliveryKind = 'message' | 'status' | 'refused' | 'malformed';

/**
 * Deliveries with a wrong secret are recorded (raw payload included) at most this many times per company and hour;
 * past that only counted, so whoever knows a company's id cannot fill the table.
 */
export const WRONG_SECRET_RECORDS_PER_HOUR = 60;

export const WRONG_SECRET_REASON =
  'La URL del webhook no lleva el secreto de la empresa: copia otra vez en Gupshup la URL de webhook que muestra Conexión WhatsApp.';

/** Counts one delivery in its hour; never fails the webhook (the caller logs a failure). */
export async function countDelivery(db: Db, tenantId: string, kind: DeliveryKind, at: Date): Promise<void> {
  await db
    .insert(webhookDeliveryHours)
    .values({ tenantId, hour: sql`date_trunc('hour', ${at.toISOString()}::timestamptz)`, kind, deliveries: 1, lastAt: at })
    .onConflictDoUpdate({
      target: [webhookDeliveryHours.tenantId, webhookDeliveryHours.hour, webhookDeliveryHours.kind],
      set: { deliveries: sql`${webhookDeliveryHours.deliveries} + 1`, lastAt: sql`greatest(${webhookDeliveryHours.lastAt}, excluded.last_at)` },
    });
}

/** Records a delivery for this company whose secret was wrong (a webhook URL copied wrong), within the hourly cap. */
export async function recordWrongSecret(db: Db, tenantId: string, rawBody: string, receivedAt: Date): Promise<void> {
  const [hour] = await db
    .select({ deliveries: webhookDeliveryHours.deliveries })
    .from(webhookDeliveryHours)
    .where(
      and(
        eq(webhookDeliveryHours.tenantId, tenantId),
        eq(webhookDeliveryHours.kind, 'refused'),
        eq(webhookDeliveryHours.hour, sql`date_trunc('hour', ${receivedAt.toISOString()}::timestamptz)`),
      ),
    );
  if ((hour?.deliveries ?? 0) < WRONG_SECRET_RECORDS_PER_HOUR) {
    await db.insert(webhookRejections).values({ tenantId, kind: 'wrong_secret', reason: WRONG_SECRET_REASON, rawBody, receivedAt });
  }
  await countDelivery(db, tenantId, 'refused', receivedAt);
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
