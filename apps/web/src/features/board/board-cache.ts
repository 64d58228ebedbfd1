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
  return {
    ...board,
    columns: board.columns.map((column) => ({ ...column, cards: column.cards.map((card) => (card.id === cardId ? { ...card, ...patch } : card)) })),
  };
}

/**
 * Puts a card, whole as the server sends it, where it now is: patched in place in its column, moved to the top of
 * another column, inserted when this board never had it, dropped when it left this funnel. `reload` when its
 * column is not on this board (a column this copy of the board does not know yet).
 */
export function placeCardUpdate(board: Board, card: BoardCard): { board: Board; reload: boolean } {
  const existing = findCard(board, card.id);
  if (card.funnelId !== board.funnel.id) return { board: existing ? placeCard(board, null, card.id) : board, reload: false };
  if (!board.columns.some((column) => column.id === card.columnId)) return { board, reload: true };
  if (existing?.columnId === card.columnId) return { board: patchCard(board, card.id, card), reload: false };
  return { board: placeCard(board, card, card.id), reload: false };
}
