import { and, eq } from 'drizzle-orm';
import { CONVERSATION_WINDOW_MS, EMPTY_MESSAGE, SCHEDULE_IN_PAST, SCHEDULE_NEEDS_TEMPLATE, type ScheduleRequest } from '@embudo/contracts/http/chats';
import { scheduledMessages } from '../../../db/schema/index.ts';
import type { DbExecutor, Tx } from '../../platform/db/database.ts';
import type { ChatEvents } from './chat-events.ts';
import type { CardRow } from '../funnels/index.ts';
import { badRequest } from '../../platform/errors/app-error.ts';
import { findApprovedTemplate } from '../templates/index.ts';
import { writableCard, type Author, type OutboundDeps } from './outbound.service.ts';
import { templateDraft } from './template-send.service.ts';
import { assertMarketingAllowed } from './contacts.service.ts';

export const TEMPLATES_NOT_AVAILABLE = 'Plantilla no encontrada o no aprobada.';

export interface ScheduleDeps extends OutboundDeps {
  enqueueScheduled: (tx: Tx, input: { tenantId: string; scheduledId: string }, runAt: Date) => Promise<unknown>;
}

/** Spec 01 §5 Schedule: future time; outside the 24-hour window a template; inside it non-empty text. */
export async function scheduleMessage(deps: ScheduleDeps, author: Author, input: ScheduleRequest, now = new Date()) {
  const card = await writableCard(deps.db, author, input.cardId);
  const scheduledFor = new Date(input.scheduledFor);
  if (scheduledFor.getTime() <= now.getTime()) throw badRequest(SCHEDULE_IN_PAST);
  const windowEnd = card.contactLastMessageAt ? card.contactLastMessageAt.getTime() + CONVERSATION_WINDOW_MS : 0;
  const outsideWindow = scheduledFor.getTime() > windowEnd;
  const text = input.text?.trim() ?? '';
  if (outsideWindow && !input.templateId) throw badRequest(SCHEDULE_NEEDS_TEMPLATE);
  if (!input.templateId && !text) throw badRequest(EMPTY_MESSAGE);
  if (input.templateId) {
    const template = await findApprovedTemplate(deps.db, author.tenantId, input.templateId);
    if (!template) throw badRequest(TEMPLATES_NOT_AVAILABLE);
    // Every variable is needed now, not found missing when the item is due; a marketing one not to a customer who opted out.
    await assertMarketingAllowed(deps.db, author.tenantId, card.contactId, templateDraft(template, input.variables).templateCategory);
  }

  const row = await deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(scheduledMessages)
      .values({
        tenantId: author.tenantId,
        cardId: card.id,
        authorUserId: author.actor.userId,
        authorName: author.userName,
        scheduledFor,
        text: input.templateId ? null : text,
        templateId: input.templateId ?? null,
        variables: input.variables ?? null,
      })
      .returning();
    await deps.enqueueScheduled(tx, { tenantId: author.tenantId, scheduledId: created!.id }, scheduledFor);
    return created!;
  });
  const item = {
    id: row.id,
    cardId: row.cardId,
    author: row.authorName,
    scheduledFor: row.scheduledFor.toISOString(),
    text: row.text,
    templateId: row.templateId,
    variables: row.variables,
    status: row.status,
    raw_timestamp: row.createdAt.getTime(),
  };
  deps.events.emit(author.tenantId, card.funnelId, 'scheduled:updated', { cardId: card.id, scheduled: item });
  return item;
}

/**
 * A text the AI (the column assistant or a flow's aiPrompt node) schedules for this chat, sent as sender `ai`. Only
 * inside the 24-hour window at its time: the AI has no template to send, so a later time is refused (AppError).
 */
export async function scheduleAiMessage(
  deps: ScheduleDeps,
  input: { tenantId: string; card: CardRow; text: string; scheduledFor: Date; authorName: string },
  now = new Date(),
  /** Commits with the scheduled item (the AI's ledger records what to undo). */
  alsoInTransaction?: (tx: Tx, scheduledId: string) => Promise<void>,
) {
  const { card, scheduledFor } = input;
  const text = input.text.trim();
  if (!text) throw badRequest(EMPTY_MESSAGE);
  if (Number.isNaN(scheduledFor.getTime()) || scheduledFor.getTime() <= now.getTime()) throw badRequest(SCHEDULE_IN_PAST);
  const windowEnd = card.contactLastMessageAt ? card.contactLastMessageAt.getTime() + CONVERSATION_WINDOW_MS : 0;
  if (scheduledFor.getTime() > windowEnd) throw badRequest(AI_SCHEDULE_OUTSIDE_WINDOW(new Date(windowEnd)));
  const row = await deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(scheduledMessages)
      .values({ tenantId: input.tenantId, cardId: card.id, authorUserId: null, authorName: input.authorName, sender: 'ai', scheduledFor, text })
      .returning();
    await deps.enqueueScheduled(tx, { tenantId: input.tenantId, scheduledId: created!.id }, scheduledFor);
    await alsoInTransaction?.(tx, created!.id);
    return created!;
  });
  deps.events.emit(input.tenantId, card.funnelId, 'scheduled:updated', {
    cardId: card.id,
    scheduled: {
      id: row.id,
      cardId: row.cardId,
      author: row.authorName,
      scheduledFor: row.scheduledFor.toISOString(),
      text: row.text,
      templateId: null,
      variables: null,
      status: row.status,
      raw_timestamp: row.createdAt.getTime(),
    },
  });
  return { id: row.id, scheduledFor: row.scheduledFor.toISOString(), text };
}

/** Why an AI-scheduled text did not go out when the answer that scheduled it was dropped. */
export const AI_SCHEDULE_WITHDRAWN = 'La respuesta de la IA que lo programó se descartó.';

/**
 * Takes back a text the AI scheduled, if it has not gone out yet: it leaves the schedule as failed, with the reason,
 * and its send job finds nothing to send. Runs in the caller's transaction; answers the chat's funnel to announce it
 * in, or undefined when nothing was taken back.
 */
export async function withdrawAiScheduled(executor: DbExecutor, tenantId: string, scheduledId: string) {
  const [withdrawn] = await executor
    .update(scheduledMessages)
    .set({ status: 'failed', errorReason: AI_SCHEDULE_WITHDRAWN })
    .where(
      and(
        eq(scheduledMessages.tenantId, tenantId),
        eq(scheduledMessages.id, scheduledId),
        eq(scheduledMessages.sender, 'ai'),
        eq(scheduledMessages.status, 'scheduled'),
      ),
    )
    .returning({ id: scheduledMessages.id, cardId: scheduledMessages.cardId });
  return withdrawn;
}

/** The open chat drops a withdrawn item from its schedule. */
export function announceWithdrawnScheduled(events: ChatEvents, tenantId: string, withdrawn: { id: string; cardId: string }) {
  return events.emitForCard(tenantId, withdrawn.cardId, 'scheduled:updated', { cardId: withdrawn.cardId, scheduled: { id: withdrawn.id, status: 'failed' } });
}

export const AI_SCHEDULE_OUTSIDE_WINDOW = (windowEnd: Date) =>
  windowEnd.getTime() > 0
    ? `Solo se puede programar texto dentro de la ventana de 24 horas, que cierra ${windowEnd.toISOString()}: elige una hora anterior.`
    : 'La ventana de 24 horas está cerrada: no se puede programar texto.';

export async function findScheduled(deps: Pick<ScheduleDeps, 'db'>, tenantId: string, scheduledId: string) {
  const [row] = await deps.db
    .select()
    .from(scheduledMessages)
    .where(and(eq(scheduledMessages.tenantId, tenantId), eq(scheduledMessages.id, scheduledId)))
    .limit(1);
  return row;
}
