import { describe, expect, it } from 'vitest';
import type { Board, BoardCard } from './board.api.ts';
import { appendColumnPage, holdCard, moveCardLocally, placeCardUpdate, removeCard } from './board-cache.ts';

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

/** Column a holds 2 of its 40 chats (the board's first page); column b all of its 1. */
const board = (): Board => ({
  funnel: { id: 'f1', name: 'Ventas' },
  columns: [
    {
      ...column('a', 'Nuevos', 'blue'),
      cards: [card('c1', 'a', { unreadCount: 2 }), card('c2', 'a', { isGroup: true, unreadCount: 1 })],
      cardCount: 40,
      nextCursor: 'next-a',
    },
    { ...column('b', 'Cerrados', 'green'), cards: [card('c3', 'b')], cardCount: 1, nextCursor: null },
  ],
  counters: { unreadIndividual: 7, unreadGroup: 1, totalContacts: 41 },
});

const idsIn = (value: Board, column: number) => value.columns[column]!.cards.map((c) => c.id);

describe('board cache', () => {
  it('moves a card to the top of another column, and the column totals with it', () => {
    const moved = moveCardLocally(board(), 'c1', 'b');
    expect(idsIn(moved, 0)).toEqual(['c2']);
    expect(idsIn(moved, 1)).toEqual(['c1', 'c3']);
    expect(moved.columns.map((c) => c.cardCount)).toEqual([39, 2]);
    expect(moved.counters).toEqual(board().counters);
  });

  it('counts a chat read or newly unread in the funnel counters', () => {
    expect(placeCardUpdate(board(), card('c1', 'a', { unreadCount: 0 })).board.counters).toEqual({ unreadIndividual: 6, unreadGroup: 1, totalContacts: 41 });
    expect(placeCardUpdate(board(), card('c3', 'b', { unreadCount: 1 })).board.counters).toEqual({ unreadIndividual: 8, unreadGroup: 1, totalContacts: 41 });
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

  it('inserts a new chat at the top of its column and counts it', () => {
    const placed = placeCardUpdate(board(), card('new', 'b', { title: 'Nuevo', unreadCount: 1 }), { created: true });
    expect(placed.reload).toBe(false);
    expect(idsIn(placed.board, 1)).toEqual(['new', 'c3']);
    expect(placed.board.columns[1]!.cardCount).toBe(2);
    expect(placed.board.counters).toEqual({ unreadIndividual: 8, unreadGroup: 1, totalContacts: 42 });
  });

  it('shows a chat from beyond the pages it holds at the top, and asks for a reload to learn its previous place', () => {
    const placed = placeCardUpdate(board(), card('old', 'a', { unreadCount: 1 }));
    expect(placed.reload).toBe(true);
    expect(idsIn(placed.board, 0)).toEqual(['old', 'c1', 'c2']);
    expect(placed.board.columns[0]!.cardCount).toBe(40);
    expect(placed.board.counters).toEqual(board().counters);
  });

  it("drops a card that left for another funnel and ignores other funnels' cards", () => {
    const left = placeCardUpdate(board(), card('c3', 'x', { funnelId: 'f2' }), { leftThisFunnel: true });
    expect(idsIn(left.board, 1)).toEqual([]);
    expect(left.board.columns[1]!.cardCount).toBe(0);
    expect(left.board.counters.totalContacts).toBe(40);
    const elsewhere = placeCardUpdate(board(), card('other', 'x', { funnelId: 'f2' }));
    expect(elsewhere).toEqual({ board: board(), reload: false });
    // A chat this board never held left its funnel: which column lost it is unknown here.
    expect(placeCardUpdate(board(), card('far', 'x', { funnelId: 'f2' }), { leftThisFunnel: true }).reload).toBe(true);
    expect(removeCard(board(), 'c1').counters).toEqual({ unreadIndividual: 6, unreadGroup: 1, totalContacts: 40 });
  });

  it('appends the next page of a column without repeating a chat it already holds', () => {
    const next = appendColumnPage(board(), 'a', { cards: [card('c2', 'a'), card('c4', 'a')], total: 40, nextCursor: null });
    expect(idsIn(next, 0)).toEqual(['c1', 'c2', 'c4']);
    expect(next.columns[0]!.nextCursor).toBeNull();
    expect(next.columns[0]!.cardCount).toBe(40);
  });

  it('keeps a chat opened from a search at its place by activity, counted once', () => {
    const older = card('found', 'a', { lastActivityAt: '2024-06-01T00:00:00.000Z' });
    const held = holdCard(board(), older);
    expect(idsIn(held, 0)).toEqual(['c1', 'c2', 'found']);
    expect(held.columns[0]!.cardCount).toBe(40);
    expect(holdCard(held, older)).toBe(held);
  });

  it('places a held chat by the instant of its activity, whatever the precision written, then by id as the server does', () => {
    const cards = [
      card('c1', 'a', { lastActivityAt: '2025-01-01T00:00:00.500Z' }),
      card('c5', 'a', { lastActivityAt: '2025-01-01T00:00:00Z' }),
      card('c2', 'a', { lastActivityAt: '2025-01-01T00:00:00Z' }),
    ];
    const start: Board = { ...board(), columns: board().columns.map((column, index) => (index === 0 ? { ...column, cards } : column)) };
    expect(idsIn(holdCard(start, card('c4', 'a', { lastActivityAt: '2025-01-01T00:00:00.000Z' })), 0)).toEqual(['c1', 'c5', 'c4', 'c2']);
    expect(idsIn(holdCard(start, card('n0', 'a', { lastActivityAt: '2025-01-01T00:00:00.250Z' })), 0)).toEqual(['c1', 'n0', 'c5', 'c2']);
  });

  it('asks for a reload when the card is in a column this board does not know', () => {
    const placed = placeCardUpdate(board(), card('c1', 'unknown-column'));
    expect(placed.reload).toBe(true);
    expect(idsIn(placed.board, 0)).toEqual(['c1', 'c2']);
  });
});
