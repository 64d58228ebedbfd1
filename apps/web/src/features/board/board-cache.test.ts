import { describe, expect, it } from 'vitest';
import type { Board, BoardCard } from './board.api.ts';
import { boardCounters, moveCardLocally, placeCardUpdate } from './board-cache.ts';

const card = (id: string, columnId: string, extra: Partial<BoardCard> = {}): BoardCard => ({
  id,
  funnelId: 'f1',
  columnId,
  title: id,
  phone: '521',
  isGroup: false,
  unreadCount: 0,
  lastMessageType: 'text',
  lastMessageText: 'hola',
  lastActivityAt: '2025-01-01T00:00:00.000Z',
  contactLastMessageAt: null,
  aiEnabled: false,
  ...extra,
});

const column = (id: string, title: string, color: 'blue' | 'green') => ({
  id,
  title,
  funnelId: 'f1',
  funnelName: 'Ventas',
  color,
  gemini_config: null,
  assistant_bot_id: null,
});

const board = (): Board => ({
  funnel: { id: 'f1', name: 'Ventas' },
  columns: [
    { ...column('a', 'Nuevos', 'blue'), cards: [card('c1', 'a', { unreadCount: 2 }), card('c2', 'a', { isGroup: true, unreadCount: 1 })] },
    { ...column('b', 'Cerrados', 'green'), cards: [card('c3', 'b')] },
  ],
  counters: { unreadIndividual: 0, unreadGroup: 0, totalContacts: 0 },
});

const idsIn = (value: Board, column: number) => value.columns[column]!.cards.map((c) => c.id);

describe('board cache', () => {
  it('counts unread individual and group chats and all contacts', () => {
    expect(boardCounters(board())).toEqual({ unreadIndividual: 1, unreadGroup: 1, totalContacts: 3 });
  });

  it('moves a card to the top of another column', () => {
    const moved = moveCardLocally(board(), 'c1', 'b');
    expect(idsIn(moved, 0)).toEqual(['c2']);
    expect(idsIn(moved, 1)).toEqual(['c1', 'c3']);
  });

  it('patches a card in place, keeping its position in the column', () => {
    const placed = placeCardUpdate(board(), card('c2', 'a', { title: 'Familia', unreadCount: 5 }));
    expect(placed.reload).toBe(false);
    expect(idsIn(placed.board, 0)).toEqual(['c1', 'c2']);
    expect(placed.board.columns[0]!.cards[1]).toMatchObject({ title: 'Familia', unreadCount: 5 });
  });

  it('moves a card whose column changed to the top of its new column', () => {
    const placed = placeCardUpdate(board(), card('c1', 'b'));
    expect(idsIn(placed.board, 0)).toEqual(['c2']);
    expect(idsIn(placed.board, 1)).toEqual(['c1', 'c3']);
  });

  it('inserts a card the board never had at the top of its column', () => {
    const placed = placeCardUpdate(board(), card('new', 'b', { title: 'Nuevo' }));
    expect(placed.reload).toBe(false);
    expect(idsIn(placed.board, 1)).toEqual(['new', 'c3']);
  });

  it("drops a card that left for another funnel and ignores other funnels' cards", () => {
    expect(idsIn(placeCardUpdate(board(), card('c3', 'x', { funnelId: 'f2' })).board, 1)).toEqual([]);
    const elsewhere = placeCardUpdate(board(), card('other', 'x', { funnelId: 'f2' }));
    expect(elsewhere).toEqual({ board: board(), reload: false });
  });

  it('asks for a reload when the card is in a column this board does not know', () => {
    const placed = placeCardUpdate(board(), card('c1', 'unknown-column'));
    expect(placed.reload).toBe(true);
    expect(idsIn(placed.board, 0)).toEqual(['c1', 'c2']);
  });
});
