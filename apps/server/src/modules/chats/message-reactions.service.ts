import { and, eq } from 'drizzle-orm';
import { messages, type StoredReaction } from '../../../db/schema/index.ts';
import type { Db, Tx } from '../../platform/db/database.ts';
import { badRequest, notFound } from '../../platform/errors/app-error.ts';
import type { WhatsAppLines } from '../../messaging-providers/provider.ts';
import type { ChatEvents } from './chat-events.ts';
import { toMessageDto, type MessageRow } from './message-dto.ts';
import { writableCard, type Author } from './outbound.service.ts';

export const MESSAGE_NOT_FOUND = 'Mensaje no encontrado.';
export const REACTIONS_NOT_SUPPORTED = 'Tu conexión de WhatsApp no permite enviar reacciones (la API de Meta sí las permite).';
export const REACTION_TO_DELETED = 'No se puede reaccionar a un mensaje eliminado.';
export const REACTION_NOT_DELIVERED = 'Este mensaje todavía no llegó a WhatsApp: no se puede reaccionar a él.';

export interface ReactionDeps {
  db: Db;
  lines: WhatsAppLines;
  events: ChatEvents;
  /** Records, in the transaction, the job that tells WhatsApp the member's reaction as it then is. */
  enqueueReaction: (tx: Tx, input: { tenantId: string; messageId: string; userId: string }) => Promise<unknown>;
}

/** The WhatsApp id a reaction names: a customer's message is known by it; ours once the provider told it. */
export const whatsappIdOf = (message: MessageRow) => (message.sender === 'contact' ? message.providerMessageId : message.whatsappMessageId);

/**
 * A member's reaction under a message, shown at once and sent to the customer's WhatsApp by a job (one reaction per
 * member: a new one replaces theirs, null takes it back). Only where the company's provider can send reactions.
 */
export async function reactToMessage(deps: ReactionDeps, author: Author, messageId: string, emoji: string | null) {
  const [message] = await deps.db
    .select()
    .from(messages)
    .where(and(eq(messages.tenantId, author.tenantId), eq(messages.id, messageId)))
    .limit(1);
  if (!message) throw notFound(MESSAGE_NOT_FOUND);
  const card = await writableCard(deps.db, author, message.cardId);
  if (message.deletedAt) throw badRequest(REACTION_TO_DELETED);
  if (!whatsappIdOf(message)) throw badRequest(REACTION_NOT_DELIVERED);
  const line = await deps.lines.activeOf(author.tenantId);
  if (!line?.react) throw badRequest(REACTIONS_NOT_SUPPORTED);
  const userId = author.actor.userId;
  const reactions: StoredReaction[] = (message.reactions ?? []).filter((reaction) => reaction.userId !== userId);
  if (emoji) reactions.push({ emoji, userId, name: author.userName, at: new Date().toISOString() });
  const updated = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(messages)
      .set({ reactions: reactions.length > 0 ? reactions : null })
      .where(eq(messages.id, message.id))
      .returning();
    await deps.enqueueReaction(tx, { tenantId: author.tenantId, messageId: message.id, userId });
    return row!;
  });
  const dto = toMessageDto(updated);
  deps.events.emit(author.tenantId, card.funnelId, 'message:updated', { cardId: card.id, message: dto });
  return dto;
}
