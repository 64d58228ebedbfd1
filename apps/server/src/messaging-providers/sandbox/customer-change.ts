import type { SandboxChangeRequest } from '@embudo/contracts/http/sandbox-phone';
import type { FakeConversationMessage } from './conversation-store.ts';

/** What the customer does to an earlier message of the conversation on the sandbox phone. */
export type CustomerChange =
  { kind: 'reaction'; messageId: string; emoji: string | null } | { kind: 'edit'; messageId: string; text: string } | { kind: 'delete'; messageId: string };

/** Who changes it: the customer the phone plays, and the group they write in, if any. */
export type ChangingCustomer = Pick<SandboxChangeRequest, 'phone' | 'name' | 'group'>;

export const ONLY_OWN_MESSAGES = 'Solo puedes editar o eliminar tus propios mensajes.';
export const ONLY_TEXT_EDITS = 'Solo puedes editar mensajes de texto.';
export const MESSAGE_DELETED = 'Ese mensaje ya fue eliminado.';
/** Neither provider's formats carry a group's edit or deletion (Meta's Cloud API has no groups at all). */
export const GROUP_ONLY_REACTIONS = 'En un grupo solo puedes reaccionar a los mensajes.';

/**
 * Why WhatsApp would not let this customer make the change, in Spanish; undefined when it may. Anyone reacts to
 * any message; only its writer edits (texts only) or deletes one, and a deleted message takes no more changes.
 */
export function changeProblem(message: FakeConversationMessage, change: CustomerChange, customer: ChangingCustomer): string | undefined {
  if (message.body.deleted === true) return MESSAGE_DELETED;
  if (change.kind === 'reaction') return undefined;
  if (customer.group) return GROUP_ONLY_REACTIONS;
  if (message.direction !== 'from_customer') return ONLY_OWN_MESSAGES;
  if (change.kind === 'edit' && message.type !== 'text') return ONLY_TEXT_EDITS;
  return undefined;
}

/** The message's body as the customer's own phone shows it after the change. */
export function changedBody(body: Record<string, unknown>, change: CustomerChange): Record<string, unknown> {
  switch (change.kind) {
    case 'reaction': {
      const { reaction: _previous, ...rest } = body;
      return change.emoji ? { ...rest, reaction: change.emoji } : rest;
    }
    case 'edit':
      return { ...body, text: change.text, edited: true };
    case 'delete':
      return { ...body, deleted: true };
  }
}

/** The WhatsApp id a change names its message by: a business message's own, or the customer's message id. */
export function whatsappIdOf(message: FakeConversationMessage): string {
  return message.whatsappId ?? message.id;
}
