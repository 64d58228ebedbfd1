import { describe, expect, it } from 'vitest';
import type { ChatMessage, TimelineItem } from './chat.api.ts';
import { aMessage } from './chat-test-fixtures.ts';
import { flattenTimeline, replaceMessage, type TimelineData } from './timeline-cache.ts';

const asMessage = (item: TimelineItem) => item as Extract<TimelineItem, { kind: 'message' }>;
const withoutKind = ({ kind: _kind, ...message }: Extract<TimelineItem, { kind: 'message' }>): ChatMessage => message;

/** Two pages, newest first, as useInfiniteQuery keeps them. */
function twoPages(): TimelineData {
  return {
    pageParams: [null, 'cursor-1'],
    pages: [
      { items: [aMessage({ id: 'm3', text: 'tres' }), aMessage({ id: 'm4', text: 'cuatro', sender: 'user', ack: 3 })], nextCursor: 'cursor-1' },
      { items: [aMessage({ id: 'm1', text: 'uno' }), aMessage({ id: 'm2', text: 'dos' })], nextCursor: null },
    ],
  };
}

describe('replaceMessage (message:updated)', () => {
  it('puts the message as it is now in the place of the one with its id, on any page', () => {
    const data = twoPages();
    const edited = { ...withoutKind(asMessage(data.pages[1]!.items[1]!)), text: 'dos (editado)', editedAt: '2025-01-01T00:00:00.000Z' };
    const next = replaceMessage(data, edited);
    const items = flattenTimeline(next).map(asMessage);
    expect(items.map((item) => item.id)).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(items[1]).toMatchObject({ kind: 'message', id: 'm2', text: 'dos (editado)', editedAt: '2025-01-01T00:00:00.000Z' });
    // The other messages are the same objects: nothing else re-renders.
    expect(next!.pages[0]!.items[0]).toBe(data.pages[0]!.items[0]);
  });

  it('adds nothing for a message that is not loaded', () => {
    const data = twoPages();
    expect(replaceMessage(data, withoutKind(asMessage(aMessage({ id: 'elsewhere' }))))).toBe(data);
    expect(replaceMessage(undefined, withoutKind(asMessage(aMessage({ id: 'm1' }))))).toBeUndefined();
  });

  it('never takes an ack back', () => {
    const data = twoPages();
    const reacted = {
      ...withoutKind(asMessage(data.pages[0]!.items[1]!)),
      ack: 2 as const,
      reactions: [{ emoji: '👍', from: 'contact' as const, name: null }],
    };
    const message = asMessage(flattenTimeline(replaceMessage(data, reacted))[3]!);
    expect(message.ack).toBe(3);
    expect(message.reactions).toEqual([{ emoji: '👍', from: 'contact', name: null }]);
  });
});
