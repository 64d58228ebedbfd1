import type { InfiniteData } from '@tanstack/react-query';
import type { ChatMessage, MessageAck, TimelineItem, TimelinePage } from './chat.api.ts';

export type TimelineData = InfiniteData<TimelinePage, string | null>;

/** Pages arrive newest first; the timeline reads oldest → newest. */
export function flattenTimeline(data: TimelineData | undefined): TimelineItem[] {
  if (!data) return [];
  return [...data.pages].reverse().flatMap((page) => page.items);
}

function mapItems(data: TimelineData, map: (item: TimelineItem) => TimelineItem): TimelineData {
  return { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.map(map) })) };
}

function findMessage(data: TimelineData, test: (message: ChatMessage) => boolean) {
  return data.pages.some((page) => page.items.some((item) => item.kind === 'message' && test(item)));
}

const sameMessage = (incoming: Partial<ChatMessage>) => (message: ChatMessage) =>
  (incoming.id !== undefined && message.id === incoming.id) || (Boolean(incoming.tempId) && message.tempId === incoming.tempId);

/** Ack only moves forward, except to -1 (failed). */
export function nextAck(current: MessageAck, incoming: MessageAck): MessageAck {
  if (incoming === -1) return -1;
  return Math.max(current, incoming) as MessageAck;
}

/**
 * Adds a new timeline item at the newest end, or merges it into the message it confirms
 * (same id, or same tempId for our own optimistic copy). A partial `{id, mediaUrl, updated}`
 * only fills in the message it names.
 */
export function upsertItem(
  data: TimelineData | undefined,
  item: TimelineItem | (Partial<ChatMessage> & { kind: 'message'; updated?: boolean }),
): TimelineData | undefined {
  if (!data) return data;
  if (item.kind === 'message') {
    const match = sameMessage(item);
    if (findMessage(data, match)) {
      return mapItems(data, (existing) => {
        if (existing.kind !== 'message' || !match(existing)) return existing;
        const merged = { ...existing, ...stripUndefined(item) } as TimelineItem & { kind: 'message' };
        merged.ack = nextAck(existing.ack, (item.ack ?? existing.ack) as MessageAck);
        return merged;
      });
    }
    if ('updated' in item && item.updated) return data;
  } else if (data.pages.some((page) => page.items.some((existing) => existing.kind === item.kind && existing.id === item.id))) {
    return data;
  }
  const [newest, ...older] = data.pages;
  const first = newest ?? { items: [], nextCursor: null };
  return { ...data, pages: [{ ...first, items: [...first.items, item as TimelineItem] }, ...older] };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

/** message_status_updated: the optimistic copy (by tempId) takes the real id; ack only increases. */
export function applyStatus(
  data: TimelineData | undefined,
  status: { messageId: string; tempId?: string | null; ack: MessageAck; error?: string | null; errorCode?: string | null },
): TimelineData | undefined {
  if (!data) return data;
  const match = (message: ChatMessage) => message.id === status.messageId || (Boolean(status.tempId) && message.tempId === status.tempId);
  return mapItems(data, (item) => {
    if (item.kind !== 'message' || !match(item)) return item;
    const ack = nextAck(item.ack, status.ack);
    // A failure carries its reason (the provider's refusal) and code so the bubble can say it at once; a send still
    // waiting (ack 0) may carry why it waits (a rate limit), and an accepted one no longer has any.
    const reason =
      ack === -1 && status.error
        ? { error: status.error, errorCode: status.errorCode ?? null }
        : ack === 0 && status.ack === 0 && status.error
          ? { error: status.error, errorCode: status.errorCode ?? null }
          : ack > 0
            ? { error: null, errorCode: null }
            : {};
    return { ...item, id: status.messageId, ack, ...reason };
  });
}

/**
 * message:updated (issue 43): a reaction, an edit or a deletion sends the whole message as it is now; it takes the
 * place of the message with its id, so nothing moves and nothing is added. A message not loaded stays unloaded.
 */
export function replaceMessage(data: TimelineData | undefined, message: ChatMessage): TimelineData | undefined {
  if (!data || !findMessage(data, (existing) => existing.id === message.id)) return data;
  return mapItems(data, (item) => {
    if (item.kind !== 'message' || item.id !== message.id) return item;
    // Our own copy may know a later ack than the state the update was read from.
    return { ...message, kind: 'message', tempId: message.tempId ?? item.tempId, ack: nextAck(item.ack, message.ack) };
  });
}

export function removeByTempId(data: TimelineData | undefined, tempId: string): TimelineData | undefined {
  if (!data) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.filter((item) => !(item.kind === 'message' && item.tempId === tempId)) })) };
}

/** Drops a note or scheduled item (e.g. a scheduled message that has been sent). */
export function removeItem(data: TimelineData | undefined, kind: 'note' | 'scheduled', id: string): TimelineData | undefined {
  if (!data) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.filter((item) => !(item.kind === kind && item.id === id)) })) };
}
