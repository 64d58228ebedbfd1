import { and, asc, desc, eq, lte, sql } from 'drizzle-orm';
import type { RenderedTemplate } from '@embudo/contracts/http/templates';
import { sandboxPhoneMessages } from '../../../db/schema/index.ts';
import type { Db } from '../../platform/db/database.ts';

export type FakeMessageStatus = 'submitted' | 'enqueued' | 'sent' | 'delivered' | 'read' | 'failed';

export interface FakeConversationMessage {
  id: string;
  /** A business message's WhatsApp id, the one a quote of it names (`context.msgId`). */
  whatsappId?: string;
  direction: 'to_customer' | 'from_customer';
  /** Gupshup `message` JSON as sent, or the inbound payload the phone produced. */
  type: string;
  body: Record<string, unknown>;
  status: FakeMessageStatus;
  participant?: { phone: string; name?: string };
  /** A template as the customer's WhatsApp shows it: Meta's approved copy with the params in place. */
  template?: RenderedTemplate;
  createdAt: string;
}

/**
 * Where the fake keeps the customer's side of each conversation (app + customer phone or group id).
 * Each conversation keeps only its newest messages, so a long-running sandbox stays bounded.
 */
export interface FakeConversationStore {
  append(appName: string, conversation: string, message: FakeConversationMessage): Promise<void>;
  list(appName: string, conversation: string): Promise<FakeConversationMessage[]>;
  /** Moves a message to `status`; with `onlyFrom`, only while it still has that status. */
  setStatus(id: string, status: FakeMessageStatus, onlyFrom?: FakeMessageStatus): Promise<void>;
  /** Marks this customer message of the app, and every earlier one of its conversation, read; false when unknown. */
  markCustomerMessagesRead(appName: string, messageId: string): Promise<boolean>;
}

export interface ConversationLimits {
  messagesPerConversation: number;
  /** Conversations held in memory (the database keeps every conversation, on disk). */
  conversations: number;
}

export const DEFAULT_CONVERSATION_LIMITS: ConversationLimits = { messagesPerConversation: 200, conversations: 1000 };

/** For a fake run as a standalone server in tests: bounded in messages and conversations, oldest dropped first. */
export function createMemoryConversationStore(limits: ConversationLimits = DEFAULT_CONVERSATION_LIMITS): FakeConversationStore {
  const conversations = new Map<string, FakeConversationMessage[]>();
  const find = (id: string) => {
    for (const list of conversations.values()) {
      const message = list.find((candidate) => candidate.id === id);
      if (message) return message;
    }
    return undefined;
  };
  return {
    async append(appName, conversation, message) {
      const key = `${appName}:${conversation}`;
      const list = conversations.get(key) ?? [];
      // Re-inserting moves the conversation to the newest end, so the least recently used goes first.
      conversations.delete(key);
      list.push(message);
      conversations.set(key, list.slice(-limits.messagesPerConversation));
      for (const oldest of conversations.keys()) {
        if (conversations.size <= limits.conversations) break;
        conversations.delete(oldest);
      }
    },
    async list(appName, conversation) {
      return (conversations.get(`${appName}:${conversation}`) ?? []).map((message) => ({ ...message }));
    },
    async setStatus(id, status, onlyFrom) {
      const message = find(id);
      if (message && (!onlyFrom || message.status === onlyFrom)) message.status = status;
    },
    async markCustomerMessagesRead(appName, messageId) {
      const list = [...conversations.entries()].find(([key, messages]) => key.startsWith(`${appName}:`) && messages.some((message) => message.direction === 'from_customer' && message.id === messageId))?.[1];
      if (!list) return false;
      const readIndex = list.findIndex((message) => message.id === messageId);
      for (const message of list.slice(0, readIndex + 1)) if (message.direction === 'from_customer') message.status = 'read';
      return true;
    },
  };
}

/** The in-process sandbox's store: a small table, so the phone shows the same history after a restart. */
export function createDatabaseConversationStore(db: Db, limits: Pick<ConversationLimits, 'messagesPerConversation'> = DEFAULT_CONVERSATION_LIMITS): FakeConversationStore {
  const table = sandboxPhoneMessages;
  return {
    async append(appName, conversation, message) {
      await db.transaction(async (tx) => {
        await tx.insert(table).values({
          messageId: message.id, whatsappId: message.whatsappId ?? null, appName, conversation, direction: message.direction, type: message.type, body: message.body, status: message.status,
          participant: message.participant ?? null, template: message.template ?? null, createdAt: new Date(message.createdAt),
        });
        const kept = tx.select({ seq: table.seq }).from(table)
          .where(and(eq(table.appName, appName), eq(table.conversation, conversation)))
          .orderBy(desc(table.seq)).limit(limits.messagesPerConversation);
        await tx.delete(table).where(and(eq(table.appName, appName), eq(table.conversation, conversation), sql`${table.seq} not in ${kept}`));
      });
    },
    async list(appName, conversation) {
      const rows = await db.select().from(table).where(and(eq(table.appName, appName), eq(table.conversation, conversation))).orderBy(asc(table.seq));
      return rows.map((row) => ({
        id: row.messageId,
        ...(row.whatsappId ? { whatsappId: row.whatsappId } : {}),
        direction: row.direction as FakeConversationMessage['direction'],
        type: row.type,
        body: row.body as Record<string, unknown>,
        status: row.status as FakeMessageStatus,
        ...(row.participant ? { participant: row.participant as FakeConversationMessage['participant'] } : {}),
        ...(row.template ? { template: row.template as RenderedTemplate } : {}),
        createdAt: row.createdAt.toISOString(),
      }));
    },
    async setStatus(id, status, onlyFrom) {
      await db.update(table).set({ status }).where(and(eq(table.messageId, id), onlyFrom ? eq(table.status, onlyFrom) : undefined));
    },
    async markCustomerMessagesRead(appName, messageId) {
      const [read] = await db.select().from(table)
        .where(and(eq(table.appName, appName), eq(table.messageId, messageId), eq(table.direction, 'from_customer'))).limit(1);
      if (!read) return false;
      await db.update(table).set({ status: 'read' }).where(and(
        eq(table.appName, appName), eq(table.conversation, read.conversation), eq(table.direction, 'from_customer'), lte(table.seq, read.seq),
      ));
      return true;
    },
  };
}
