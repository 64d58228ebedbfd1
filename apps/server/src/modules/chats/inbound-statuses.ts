import { getTableColumns, sql } from 'drizzle-orm';
import { cards, messages } from '../../../db/schema/index.ts';
import type { Tx } from '../../platform/db/database.ts';
import { ackByStatus, RATE_LIMIT_GAVE_UP, type InboundStatus, type ProviderFailure } from '../../messaging-providers/provider.ts';
import { slowsTheNumber } from '../send-pacing/index.ts';
import { dropChargeOfMessage, unbillFailedMessage } from '../usage/index.ts';
import type { MessageRow } from './message-dto.ts';

/** A message whose status moved, with its chat's funnel (the open chats of that funnel's room hear of it). */
export type ChangedStatus = MessageRow & { funnelId: string };

/** A delivery's status waiting to be applied with the others of its run, in arrival order. */
export interface PendingStatus {
  /** The delivery it came in, by its place in the intake's batch. */
  index: number;
  event: InboundStatus;
}

export interface StatusRunOutcome {
  /** Deliveries with a status that names no message we know yet (the send that will store its id has not finished). */
  waitingForMessage: Set<number>;
  /** Deliveries with a status that moved an ack. */
  moving: Set<number>;
  /** Each message whose ack moved, as the run leaves it, with the delivery that moved it last. */
  moved: Array<{ message: ChangedStatus; index: number }>;
  /**
   * Sends the provider took and then refused for the number's throughput (Meta's asynchronous 130429): back to
   * waiting, their charge dropped, to be sent again (by the caller) after the number slows down.
   */
  throttled: Array<{ message: ChangedStatus; index: number; failure: ProviderFailure }>;
}

/** How many times a send refused afterwards for throughput is sent again before it fails for good. */
export const THROUGHPUT_RESENDS = 5;

/** How long the `resend`th resend waits: 2 s, doubling, at most a minute (the number's pace slows down meanwhile). */
export const throughputResendDelayMs = (resend: number) => Math.min(60_000, 2_000 * 2 ** (resend - 1));

const FALLBACK_FAILURE = 'Error del proveedor';

/** The ids a status names a message by: our send's provider id, its WhatsApp id. */
const idsOf = (event: InboundStatus) => [event.providerMessageId, event.whatsappMessageId].filter((id): id is string => Boolean(id));

/**
 * Applies a run of statuses in two statements whatever its length: the messages they name are read and locked, each
 * status is applied in arrival order to what the run has made of its message so far, and the messages that changed are
 * written at once. The rules are the ones of a single status: the ack only increases; a failure counts only while
 * nothing better is known (a late `failed` never hides a message that was already delivered) and un-bills the send;
 * a status that does not move the ack still teaches the message its WhatsApp id (quotes refer to it). A message that
 * moved twice in the run (delivered, then read) is told once, as it ends.
 */
export async function applyStatusRun(tx: Tx, tenantId: string, run: readonly PendingStatus[]): Promise<StatusRunOutcome> {
  const outcome: StatusRunOutcome = { waitingForMessage: new Set(), moving: new Set(), moved: [], throttled: [] };
  const ids = [...new Set(run.flatMap(({ event }) => idsOf(event)))];
  if (ids.length === 0) return outcome;
  const named = sql.param(ids);
  const found: ChangedStatus[] = await tx
    .select({ ...getTableColumns(messages), funnelId: cards.funnelId })
    .from(messages)
    .innerJoin(cards, sql`${cards.id} = ${messages.cardId}`)
    .where(
      sql`${messages.tenantId} = ${tenantId} and (${messages.providerMessageId} = any(${named}::text[]) or ${messages.whatsappMessageId} = any(${named}::text[]))`,
    )
    .for('update', { of: messages });

  const states = new Map(found.map((row) => [row.id, { ...row }]));
  const lastMovedBy = new Map<string, number>();
  const throttledBy = new Map<string, { index: number; failure: ProviderFailure }>();
  for (const { index, event } of run) {
    const itsIds = idsOf(event);
    const matching = [...states.values()].filter(
      (state) =>
        (state.providerMessageId !== null && itsIds.includes(state.providerMessageId)) ||
        (state.whatsappMessageId !== null && itsIds.includes(state.whatsappMessageId)),
    );
    if (matching.length === 0) {
      outcome.waitingForMessage.add(index);
      continue;
    }
    const ack = ackByStatus[event.status];
    for (const state of matching) {
      const moves = ack === -1 ? state.ack <= 0 : state.ack < ack;
      const failure = event.failure;
      if (moves && ack === -1 && failure && slowsTheNumber(failure)) {
        outcome.moving.add(index);
        if (state.throughputResends < THROUGHPUT_RESENDS) {
          // Still unsent as far as WhatsApp goes: it waits (ack 0) for its resend, saying why, as a refused attempt
          // does. The refused attempt's ids name nothing any more: the resend gets its own.
          Object.assign(state, {
            providerMessageId: null,
            whatsappMessageId: null,
            dispatchStartedAt: null,
            errorReason: failure.reason,
            errorCode: failure.code,
            throughputResends: state.throughputResends + 1,
          });
          throttledBy.set(state.id, { index, failure });
        } else {
          Object.assign(state, { ack: -1, errorReason: RATE_LIMIT_GAVE_UP, errorCode: failure.code });
          lastMovedBy.set(state.id, index);
        }
        continue;
      }
      if (moves) {
        state.ack = ack;
        if (event.whatsappMessageId) state.whatsappMessageId = event.whatsappMessageId;
        if (ack === -1) {
          state.errorReason = event.failure?.reason ?? FALLBACK_FAILURE;
          state.errorCode = event.failure?.code ?? null;
        }
        lastMovedBy.set(state.id, index);
        outcome.moving.add(index);
      } else if (event.whatsappMessageId && state.whatsappMessageId === null) {
        state.whatsappMessageId = event.whatsappMessageId;
      }
    }
  }

  const changed = found.filter((before) => {
    const after = states.get(before.id)!;
    return (
      after.ack !== before.ack ||
      after.whatsappMessageId !== before.whatsappMessageId ||
      after.errorReason !== before.errorReason ||
      after.errorCode !== before.errorCode ||
      after.throughputResends !== before.throughputResends
    );
  });
  if (changed.length === 0) return outcome;
  const column = <T>(value: (state: ChangedStatus) => T) => sql.param(changed.map((before) => value(states.get(before.id)!)));
  await tx.execute(sql`
    update messages m set ack = v.ack, whatsapp_message_id = v.whatsapp_message_id, error_reason = v.error_reason, error_code = v.error_code,
      provider_message_id = v.provider_message_id, dispatch_started_at = v.dispatch_started_at, throughput_resends = v.throughput_resends
    from unnest(
      ${column((state) => state.id)}::uuid[],
      ${column((state) => state.ack)}::int[],
      ${column((state) => state.whatsappMessageId)}::text[],
      ${column((state) => state.errorReason)}::text[],
      ${column((state) => state.errorCode)}::text[],
      ${column((state) => state.providerMessageId)}::text[],
      ${column((state) => state.dispatchStartedAt?.toISOString() ?? null)}::timestamptz[],
      ${column((state) => state.throughputResends)}::int[]
    ) as v(id, ack, whatsapp_message_id, error_reason, error_code, provider_message_id, dispatch_started_at, throughput_resends)
    where m.tenant_id = ${tenantId}::uuid and m.id = v.id`);

  for (const before of changed) {
    const after = states.get(before.id)!;
    const throttled = throttledBy.get(after.id);
    if (throttled) {
      await dropChargeOfMessage(tx, tenantId, after.id);
      outcome.throttled.push({ message: after, ...throttled });
      continue;
    }
    if (after.ack === before.ack) continue;
    if (after.ack === -1) await unbillFailedMessage(tx, tenantId, after.id);
    outcome.moved.push({ message: after, index: lastMovedBy.get(after.id)! });
  }
  return outcome;
}
