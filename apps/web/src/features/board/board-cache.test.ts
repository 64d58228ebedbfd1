import { describe, expect, it } from 'vitest';
import type { Board, BoardCard } from './board.api.ts';
import { applyCardUpdate, boardCounters, moveCardLocally } from './board-cache.ts';

const card = (id: string, columnId: string, extra: Partial<BoardCard> = {}): BoardCard => ({
  id, funnelId: 'f1', columnId, title: id, phone: '521', isGroup: false, unreadCount: 0, lastMessageType: 'text', lastMessageText: 'hola',
  lastActivityAt: null, contactLastMessageAt: null, aiEnabled: false, ...extra,
});

const board = (): Board => ({
  funnel: { id: 'f1', name: 'Ventas' },
  columns: [
    { id: 'a', title: 'Nuevos', funnelId: 'f1', color: 'blue', cards: [card('c1', 'a', { unreadCount: 2 }), card('c2', 'a', { isGroup: true, unreadCount: 1 })] },
    { id: 'b', title: 'Cerrados', funnelId: 'f1', color: 'green', cards: [card('c3', 'b')] },
  ],
  counters: { unreadIndividual: 0, unreadGroup: 0, totalContacts: 0 },
});

describe('board cache', () => {
  it('counts unread individual and group chats and all contacts', () => {
    expect(boardCounters(board())).toEqual({ unreadIndividual: 1, unreadGroup: 1, totalContacts: 3 });
  });

  it('moves a card to the top of another column', () => {
    const moved = moveCardLocally(board(), 'c1', 'b');
    expect(moved.columns[0]!.cards.map((c) => c.id)).toEqual(['c2']);
    expect(moved.columns[1]!.cards.map((c) => c.id)).toEqual(['c1', 'c3']);
  });

  it('applies card_updated in place, across columns, out of the funnel, or asks for a reload', () => {
    expect(applyCardUpdate(board(), { id: 'c3', title: 'Ana' }).board.columns[1]!.cards[0]!.title).toBe('Ana');
    expect(applyCardUpdate(board(), { id: 'c3', columnId: 'a', funnelId: 'f1' }).board.columns[0]!.cards[0]!.id).toBe('c3');
    expect(applyCardUpdate(board(), { id: 'c3', columnId: 'x', funnelId: 'f2' }).board.columns[1]!.cards).toEqual([]);
    expect(applyCardUpdate(board(), { id: 'new', columnId: 'a', funnelId: 'f1' }).unknown).toBe(true);
    expect(applyCardUpdate(board(), { id: 'other', columnId: 'x', funnelId: 'f2' }).unknown).toBe(false);
  });
});
