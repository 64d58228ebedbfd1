import type { Board, BoardCard } from './board.api.ts';

/** Counters of spec 01 §2 Board: chats with unread messages, individual and group, and all contacts. */
export function boardCounters(board: Board) {
  const cards = board.columns.flatMap((column) => column.cards);
  return {
    unreadIndividual: cards.filter((card) => !card.isGroup && card.unreadCount > 0).length,
    unreadGroup: cards.filter((card) => card.isGroup && card.unreadCount > 0).length,
    totalContacts: cards.length,
  };
}

export function findCard(board: Board | undefined, cardId: string): BoardCard | undefined {
  for (const column of board?.columns ?? []) {
    const card = column.cards.find((candidate) => candidate.id === cardId);
    if (card) return card;
  }
  return undefined;
}

/** Puts a card at the top of its column (or removes it when it left this funnel). */
function placeCard(board: Board, card: BoardCard | null, cardId: string): Board {
  const columns = board.columns.map((column) => ({ ...column, cards: column.cards.filter((candidate) => candidate.id !== cardId) }));
  if (card) {
    const target = columns.find((column) => column.id === card.columnId);
    if (target) target.cards = [card, ...target.cards];
  }
  return { ...board, columns };
}

export function moveCardLocally(board: Board, cardId: string, targetColumnId: string): Board {
  const card = findCard(board, cardId);
  if (!card || card.columnId === targetColumnId) return board;
  return placeCard(board, { ...card, columnId: targetColumnId }, cardId);
}

export function patchCard(board: Board, cardId: string, patch: Partial<BoardCard>): Board {
  return { ...board, columns: board.columns.map((column) => ({ ...column, cards: column.cards.map((card) => (card.id === cardId ? { ...card, ...patch } : card)) })) };
}

/**
 * card_updated: merges the summary in place, moves it when its column changed, drops it when it
 * left this funnel. `unknown` tells the caller to reload the board (a card this board never had).
 */
export function applyCardUpdate(board: Board, update: Partial<BoardCard> & { id: string }): { board: Board; unknown: boolean } {
  const existing = findCard(board, update.id);
  const inThisFunnel = update.funnelId === undefined || update.funnelId === board.funnel.id;
  if (!existing) return { board, unknown: inThisFunnel };
  if (!inThisFunnel) return { board: placeCard(board, null, update.id), unknown: false };
  const merged = { ...existing, ...update };
  if (merged.columnId !== existing.columnId) {
    const known = board.columns.some((column) => column.id === merged.columnId);
    return known ? { board: placeCard(board, merged, update.id), unknown: false } : { board, unknown: true };
  }
  return { board: patchCard(board, update.id, update), unknown: false };
}
