import { and, asc, eq, inArray, lte, ne, sql } from 'drizzle-orm';
import type { PhoneMessage, PhoneMessageStatus } from '@embudo/contracts/http/sandbox-phone';
import type { RenderedTemplate } from '@embudo/contracts/http/templates';
import { sandboxPhoneMessages, sandboxPhoneUploads } from '../../../db/schema/index.ts';
import type { Db } from '../../platform/db/database.ts';

export type FakeMessageStatus = PhoneMessageStatus;
export type FakeConversationMessage = PhoneMessage;

/** A file the customer sent from the sandbox phone, as the fake serves it. */
export interface FakeUpload {
  id: string;
  contentType: string;
  data: Buffer;
  name?: string;
}

/**
 * Where the fake keeps the customer's side of each conversation (app + customer phone or group id)
 * and the files the customer uploaded. Each conversation keeps only its newest messages and uploads
 * are capped in total bytes, oldest dropped first, so a long-running sandbox stays bounded.
 */
export interface FakeConversationStore {
  append(appName: string, conversation: string, message: FakeConversationMessage): Promise<void>;
  list(appName: string, conversation: string): Promise<FakeConversationMessage[]>;
  /** One message of the conversation, by its phone-side id. */
  find(appName: string, conversation: string, id: string): Promise<FakeConversationMessage | undefined>;
  /** Replaces a message's body (the customer reacted, edited or deleted); answers once it is kept. */
  setBody(appName: string, conversation: string, id: string, body: Record<string, unknown>): Promise<void>;
  /** Moves a message to `status`; with `onlyFrom`, only while it still has that status. Answers once it is kept. */
  setStatus(id: string, status: FakeMessageStatus, onlyFrom?: FakeMessageStatus): Promise<void>;
  /** Keeps now what waits to be kept (the server closes). */
  flush(): Promise<void>;
  /** Marks this customer message of the app, and every earlier one of its conversation, read; false when unknown. */
  markCustomerMessagesRead(appName: string, messageId: string): Promise<boolean>;
  /** Keeps an upload; past the byte cap the oldest others are dropped (the new one always stays). */
  keepUpload(upload: FakeUpload): Promise<void>;
  upload(id: string): Promise<FakeUpload | undefined>;
}

export interface ConversationLimits {
  messagesPerConversation: number;
  /** Conversations held in memory (the database keeps every conversation, on disk). */
  conversations: number;
  /** Total bytes of customer uploads kept; older uploads answer 404. */
  uploadBytes: number;
}

/** 64 MB of uploads: enough for a few voice notes, photos and documents at once. */
export const DEFAULT_CONVERSATION_LIMITS: ConversationLimits = { messagesPerConversation: 200, conversations: 1000, uploadBytes: 64 * 1024 * 1024 };

/** For a fake run as a standalone server in tests: bounded in messages, conversations and upload bytes, oldest dropped first. */
export function createMemoryConversationStore(limits: ConversationLimits = DEFAULT_CONVERSATION_LIMITS): FakeConversationStore {
  const conversations = new Map<string, FakeConversationMessage[]>();
  /** Oldest first (a Map keeps insertion order). */
  const uploads = new Map<string, FakeUpload>();
  let uploadBytes = 0;
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
    async find(appName, conversation, id) {
      const message = conversations.get(`${appName}:${conversation}`)?.find((candidate) => candidate.id === id);
      return message && { ...message };
    },
    async setBody(appName, conversation, id, body) {
      const message = conversations.get(`${appName}:${conversation}`)?.find((candidate) => candidate.id === id);
      if (message) message.body = body;
    },
    async setStatus(id, status, onlyFrom) {
      const message = find(id);
      if (message && (!onlyFrom || message.status === onlyFrom)) message.status = status;
    },
    async flush() {},
    async markCustomerMessagesRead(appName, messageId) {
      const list = [...conversations.entries()].find(
        ([key, messages]) => key.startsWith(`${appName}:`) && messages.some((message) => message.direction === 'from_customer' && message.id === messageId),
      )?.[1];
      if (!list) return false;
      const readIndex = list.findIndex((message) => message.id === messageId);
      for (const message of list.slice(0, readIndex + 1)) if (message.direction === 'from_customer') message.status = 'read';
      return true;
    },
    async keepUpload(upload) {
      uploads.set(upload.id, upload);
      uploadBytes += upload.data.length;
      for (const [oldestId, oldest] of uploads) {
        if (uploadBytes <= limits.uploadBytes || oldestId === upload.id) break;
        uploads.delete(oldestId);
        uploadBytes -= oldest.data.length;
      }
    },
    async upload(id) {
      return uploads.get(id);
    },
  };
}

/**
 * The in-process sandbox's store: two small tables, so the phone shows the same history, media
 * included, after a restart, and the server's memory holds no uploads.
 */
export function createDatabaseConversationStore(
  db: Db,
  limits: Pick<ConversationLimits, 'messagesPerConversation' | 'uploadBytes'> = DEFAULT_CONVERSATION_LIMITS,
): FakeConversationStore {
  const table = sandboxPhoneMessages;
  const uploads = sandboxPhoneUploads;
  const statuses = statusWriter(db);
  return {
    async append(appName, conversation, message) {
      const appended = db.insert(table).values({
        messageId: message.id,
        whatsappId: message.whatsappId ?? null,
        appName,
        conversation,
        direction: message.direction,
        type: message.type,
        body: message.body,
        status: message.status,
        participant: message.participant ?? null,
        template: message.template ?? null,
        createdAt: new Date(message.createdAt),
      });
      // One statement (drizzle puts the insert in parentheses): the new message is the newest, so the conversation keeps
      // it and the newest others up to the limit (the delete's subquery sees the rows from before the insert).
      await db.execute(sql`
        with appended as ${appended}
        delete from ${table}
        where ${table.appName} = ${appName} and ${table.conversation} = ${conversation} and ${table.seq} not in (
          select ${table.seq} from ${table} where ${table.appName} = ${appName} and ${table.conversation} = ${conversation}
          order by ${table.seq} desc limit ${limits.messagesPerConversation - 1})`);
    },
    async list(appName, conversation) {
      await statuses.flush();
      const rows = await db
        .select()
        .from(table)
        .where(and(eq(table.appName, appName), eq(table.conversation, conversation)))
        .orderBy(asc(table.seq));
      return rows.map(messageOfRow);
    },
    async find(appName, conversation, id) {
      await statuses.flush();
      const [row] = await db
        .select()
        .from(table)
        .where(and(eq(table.appName, appName), eq(table.conversation, conversation), eq(table.messageId, id)))
        .limit(1);
      return row && messageOfRow(row);
    },
    async setBody(appName, conversation, id, body) {
      await db
        .update(table)
        .set({ body })
        .where(and(eq(table.appName, appName), eq(table.conversation, conversation), eq(table.messageId, id)));
    },
    async setStatus(id, status, onlyFrom) {
      if (!onlyFrom) return statuses.write(id, status);
      await statuses.flush();
      await db
        .update(table)
        .set({ status })
        .where(and(eq(table.messageId, id), onlyFrom ? eq(table.status, onlyFrom) : undefined));
    },
    flush: () => statuses.flush(),
    async markCustomerMessagesRead(appName, messageId) {
      await statuses.flush();
      const [read] = await db
        .select()
        .from(table)
        .where(and(eq(table.appName, appName), eq(table.messageId, messageId), eq(table.direction, 'from_customer')))
        .limit(1);
      if (!read) return false;
      await db
        .update(table)
        .set({ status: 'read' })
        .where(and(eq(table.appName, appName), eq(table.conversation, read.conversation), eq(table.direction, 'from_customer'), lte(table.seq, read.seq)));
      return true;
    },
    async keepUpload(upload) {
      await db.transaction(async (tx) => {
        await tx
          .insert(uploads)
          .values({ uploadId: upload.id, contentType: upload.contentType, fileName: upload.name ?? null, data: upload.data, size: upload.data.length });
        // Newest first, each upload with the bytes of itself and every newer one: past the cap, the rest go.
        const running = tx
          .$with('running')
          .as(tx.select({ seq: uploads.seq, bytes: sql<number>`sum(${uploads.size}) over (order by ${uploads.seq} desc)`.as('bytes') }).from(uploads));
        const overCap = tx
          .with(running)
          .select({ seq: running.seq })
          .from(running)
          .where(sql`${running.bytes} > ${limits.uploadBytes}`);
        await tx.delete(uploads).where(and(inArray(uploads.seq, overCap), ne(uploads.uploadId, upload.id)));
      });
    },
    async upload(id) {
      const [row] = await db.select().from(uploads).where(eq(uploads.uploadId, id)).limit(1);
      return row ? { id: row.uploadId, contentType: row.contentType, data: row.data, ...(row.fileName ? { name: row.fileName } : {}) } : undefined;
    },
  };
}

function messageOfRow(row: typeof sandboxPhoneMessages.$inferSelect): FakeConversationMessage {
  return {
    id: row.messageId,
    ...(row.whatsappId ? { whatsappId: row.whatsappId } : {}),
    direction: row.direction as FakeConversationMessage['direction'],
    type: row.type,
    body: row.body as Record<string, unknown>,
    status: row.status as FakeMessageStatus,
    ...(row.participant ? { participant: row.participant as FakeConversationMessage['participant'] } : {}),
    ...(row.template ? { template: row.template as RenderedTemplate } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}

/** How long a status move waits for others to be written with: a campaign moves four per message it sends. */
const STATUS_WRITE_DELAY_MS = 20;

/**
 * The status moves of the fake's messages, written together a few milliseconds after the first one waiting (the
 * latest move of each message wins, as written one by one); each caller hears once its move is written.
 */
function statusWriter(db: Db) {
  const table = sandboxPhoneMessages;
  let waiting = new Map<string, FakeMessageStatus>();
  let callers: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = async () => {
    clearTimeout(timer);
    timer = undefined;
    if (waiting.size === 0) return;
    const writing = waiting;
    const told = callers;
    waiting = new Map();
    callers = [];
    try {
      await db.execute(sql`
        update ${table} set status = moved.status
        from unnest(${sql.param([...writing.keys()])}::text[], ${sql.param([...writing.values()])}::text[]) as moved(message_id, status)
        where ${table.messageId} = moved.message_id`);
      told.forEach((caller) => caller.resolve());
    } catch (error) {
      told.forEach((caller) => caller.reject(error));
    }
  };
  const write = (id: string, status: FakeMessageStatus) =>
    new Promise<void>((resolve, reject) => {
      waiting.set(id, status);
      callers.push({ resolve, reject });
      timer ??= setTimeout(() => void flush(), STATUS_WRITE_DELAY_MS);
    });
  return { write, flush };
}
