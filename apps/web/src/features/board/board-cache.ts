import type { ColumnCardsPage } from '@embudo/contracts/http/funnels';
import type { Board, BoardCard } from './board.api.ts';

type Counters = Board['counters'];

/** What one chat adds to the board's counters (spec 01 §2 Board: unread individual and group chats, all contacts). */
function tally(card: BoardCard): Counters {
  const unread = card.unreadCount > 0;
  return { unreadIndividual: unread && !card.isGroup ? 1 : 0, unreadGroup: unread && card.isGroup ? 1 : 0, totalContacts: 1 };
}

/** The counters with `removed` taken out and `added` put in (either may be absent). */
function recount(counters: Counters, removed: BoardCard | undefined, added: BoardCard | undefined): Counters {
  const out = removed ? tally(removed) : undefined;
  const into = added ? tally(added) : undefined;
  const change = (key: keyof Counters) => Math.max(0, counters[key] - (out?.[key] ?? 0) + (into?.[key] ?? 0));
  return { unreadIndividual: change('unreadIndividual'), unreadGroup: change('unreadGroup'), totalContacts: change('totalContacts') };
}

export function findCard(board: Board | undefined, cardId: string): BoardCard | undefined {
  for (const column of board?.columns ?? []) {
    const card = column.cards.find((candidate) => candidate.id === cardId);
    if (card) return card;
  }
  return undefined;
}

/**
 * Takes the card out of the column holding it and, when `card` is given, puts it at the top of its column. Column
 * totals and counters follow when `counted` (the card's previous state is known, or it is new to the funnel).
 */
function placeCard(board: Board, cardId: string, card: BoardCard | null, counted: boolean): Board {
  const before = findCard(board, cardId);
  const columns = board.columns.map((column) => {
    const held = column.cards.some((candidate) => candidate.id === cardId);
    const arrives = card?.columnId === column.id;
    if (!held && !arrives) return column;
    const cards = column.cards.filter((candidate) => candidate.id !== cardId);
    const cardCount = counted ? column.cardCount - (held ? 1 : 0) + (arrives ? 1 : 0) : column.cardCount;
    return { ...column, cards: arrives && card ? [card, ...cards] : cards, cardCount: Math.max(0, cardCount) };
  });
  return { ...board, columns, counters: counted ? recount(board.counters, before, card ?? undefined) : board.counters };
}

export function moveCardLocally(board: Board, cardId: string, targetColumnId: string): Board {
  const card = findCard(board, cardId);
  if (!card || card.columnId === targetColumnId) return board;
  return placeCard(board, cardId, { ...card, columnId: targetColumnId }, true);
}

/** A chat that left this funnel (Mover a funnel). */
export function removeCard(board: Board, cardId: string): Board {
  return findCard(board, cardId) ? placeCard(board, cardId, null, true) : board;
}

export function patchCard(board: Board, cardId: string, patch: Partial<BoardCard>): Board {
  const before = findCard(board, cardId);
  if (!before) return board;
  const after = { ...before, ...patch };
  return {
    ...board,
    columns: board.columns.map((column) => ({ ...column, cards: column.cards.map((card) => (card.id === cardId ? after : card)) })),
    counters: recount(board.counters, before, after),
  };
}

/** How a card event relates to the board on screen. */
export interface CardChange {
  /** The card was created by this change (a new chat): it was counted nowhere before. */
  created?: boolean;
  /** The event says the card left this board's funnel. */
  leftThisFunnel?: boolean;
}

/**
 * Puts a card, whole as the server sends it, where it now is: patched in place in its column, moved to the top of
 * another column, inserted when new, dropped when it left this funnel. `reload` when the board cannot know the
 * card's previous place and state: its column is not on this board, or it was beyond the pages this board holds.
 */
export function placeCardUpdate(board: Board, card: BoardCard, change: CardChange = {}): { board: Board; reload: boolean } {
  const existing = findCard(board, card.id);
  if (card.funnelId !== board.funnel.id) {
    if (existing) return { board: placeCard(board, card.id, null, true), reload: false };
    return { board, reload: Boolean(change.leftThisFunnel) };
  }
  if (!board.columns.some((column) => column.id === card.columnId)) return { board, reload: true };
  if (existing?.columnId === card.columnId) return { board: patchCard(board, card.id, card), reload: false };
  const known = Boolean(existing) || Boolean(change.created);
  return { board: placeCard(board, card.id, card, known), reload: !known };
}

/**
 * The server's order of a column: last activity, newest first, then id, highest first (as PostgreSQL orders uuids:
 * by their bytes, which is their lowercase text's order). Compared as instants and code units, not with localeCompare,
 * whose first call builds ICU's collator (17–30 ms in a fresh tab) and which compares times as text.
 */
const newestFirst = (a: BoardCard, b: BoardCard) => Date.parse(b.lastActivityAt) - Date.parse(a.lastActivityAt) || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0);

/**
 * A chat opened from a search of the whole column, beyond the pages this board holds: kept in its column (at its
 * place by activity, already counted in the column's total), so the chat panel and live changes find it.
 */
export function holdCard(board: Board, card: BoardCard): Board {
  if (findCard(board, card.id) || card.funnelId !== board.funnel.id) return board;
  return {
    ...board,
    columns: board.columns.map((column) => {
      if (column.id !== card.columnId) return column;
      const before = column.cards.findIndex((held) => newestFirst(card, held) < 0);
      const at = before === -1 ? column.cards.length : before;
      return { ...column, cards: [...column.cards.slice(0, at), card, ...column.cards.slice(at)] };
    }),
  };
}

/** The next page of a column appended (a chat already held, moved here live, is not repeated). */
export function appendColumnPage(board: Board, columnId: string, page: ColumnCardsPage): Board {
  return {
    ...board,
    columns: board.columns.map((column) => {
      if (column.id !== columnId) return column;
      const held = new Set(column.cards.map((card) => card.id));
      return { ...column, cards: [...column.cards, ...page.cards.filter((card) => !held.has(card.id))], nextCursor: page.nextCursor };
    }),
  };
}
