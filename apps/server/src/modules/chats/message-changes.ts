import { getTableColumns, sql } from 'drizzle-orm';
import { cards, messages, type StoredReaction } from '../../../db/schema/index.ts';
import type { Tx } from '../../platform/db/database.ts';
import type { InboundMessageChange, MessageRef } from '../../messaging-providers/provider.ts';
import type { MessageRow } from './message-dto.ts';

/** A message a change was applied to, with its chat's funnel (the open chats of that funnel's room hear of it). */
export type ChangedMessage = MessageRow & { funnelId: string };

export type ChangeOutcome =
  /** The message changed: tell the open chats. */
  | { kind: 'changed'; message: ChangedMessage }
  /** Already so (a repeated delivery, an older change arriving after a newer one) or not the customer's to change. */
  | { kind: 'unchanged' }
  /** The message it names is not stored yet: the delivery is applied again shortly, as a status would be. */
  | { kind: 'waiting' };

const idsOf = (ref: MessageRef) => [ref.providerMessageId, ref.whatsappMessageId].filter((id): id is string => Boolean(id));

/** The message a change names, locked for the change; its chat's funnel beside it. */
async function lockedTarget(tx: Tx, tenantId: string, ref: MessageRef): Promise<ChangedMessage | undefined> {
  const ids = idsOf(ref);
  if (ids.length === 0) return undefined;
  const named = sql.param(ids);
  const [row] = await tx
    .select({ ...getTableColumns(messages), funnelId: cards.funnelId })
    .from(messages)
    .innerJoin(cards, sql`${cards.id} = ${messages.cardId}`)
    .where(
      sql`${messages.tenantId} = ${tenantId} and (${messages.providerMessageId} = any(${named}::text[]) or ${messages.whatsappMessageId} = any(${named}::text[]))`,
    )
    .limit(1)
    .for('update', { of: messages });
  return row;
}

/** A customer's message may be edited or deleted only by that customer (in a group, by the participant who wrote it). */
function writtenBy(message: ChangedMessage, change: { from: string; group?: { id: string } }, chatPhone: string | undefined) {
  if (message.sender !== 'contact') return false;
  return change.group ? true : chatPhone === undefined || chatPhone === change.from;
}

/**
 * Applies a reaction, an edit or a deletion to the message it names, as WhatsApp shows them: one reaction per
 * customer (a later one replaces it, one without emoji removes it), the newest text of an edit with the earlier ones
 * kept, a deleted message kept in the database but never answered again. Changes may arrive out of order: one older
 * than what the message already shows is ignored.
 */
export async function applyMessageChange(tx: Tx, tenantId: string, change: InboundMessageChange): Promise<ChangeOutcome> {
  const message = await lockedTarget(tx, tenantId, change.target);
  if (!message) return { kind: 'waiting' };
  const at = change.timestamp.toISOString();
  if (change.kind === 'reaction') {
    const reactions = message.reactions ?? [];
    const previous = reactions.find((reaction) => reaction.phone === change.from);
    // An older reaction arriving late, or the one already shown (nothing to take back counts as shown).
    if ((previous && previous.at > at) || previous?.emoji === (change.emoji ?? undefined)) return { kind: 'unchanged' };
    const next: StoredReaction[] = reactions.filter((reaction) => reaction.phone !== change.from);
    if (change.emoji) next.push({ emoji: change.emoji, phone: change.from, name: change.group ? (change.senderName ?? change.from) : null, at });
    return { kind: 'changed', message: await write(tx, message, { reactions: next.length > 0 ? next : null }) };
  }
  const [chat] = await tx
    .select({ phone: cards.phone })
    .from(cards)
    .where(sql`${cards.id} = ${message.cardId}`);
  if (!writtenBy(message, change, chat?.phone) || message.deletedAt) return { kind: 'unchanged' };
  if (change.kind === 'revoke') return { kind: 'changed', message: await write(tx, message, { deletedAt: change.timestamp }) };
  if ((message.editedAt && message.editedAt >= change.timestamp) || message.text === change.text) return { kind: 'unchanged' };
  const history = [...(message.editHistory ?? []), { text: message.text, replacedAt: at }];
  return { kind: 'changed', message: await write(tx, message, { text: change.text, editedAt: change.timestamp, editHistory: history }) };
}

async function write(tx: Tx, message: ChangedMessage, values: Partial<Pick<MessageRow, 'reactions' | 'text' | 'editedAt' | 'editHistory' | 'deletedAt'>>) {
  await tx
    .update(messages)
    .set(values)
    .where(sql`${messages.id} = ${message.id}`);
  return { ...message, ...values };
}
