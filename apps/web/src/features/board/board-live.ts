import type { QueryClient } from '@tanstack/react-query';
import type { ServerEventPayload } from '@embudo/contracts/realtime/events';
import { throttledTask } from '../../shared/realtime-client/throttled-task.ts';
import type { Board, BoardCard, FunnelSummary } from './board.api.ts';
import { findCard, patchCard, placeCardUpdate, type CardChange } from './board-cache.ts';
import { boardKey, funnelsKey } from './board-queries.ts';
/** A column's chats as searched or sorted on the server (every such list, whatever its search). */
export const columnCardsKey = ['column-cards'] as const;

/** The board, and the funnels' unread totals, are read again at most once per second each. */
export const RELOAD_WINDOW_MS = 1000;

/** What is on screen: the funnel whose board is shown and the chat open beside it. */
export interface BoardView {
  funnelId: string | null;
  openCardId: string | null;
}

type UnreadChange = readonly [funnelId: string, delta: number];

/**
 * Keeps the cached board and funnel list current from realtime events (spec 02 §7): a card is patched, moved or
 * inserted from the event itself, and the funnels' unread totals are adjusted by the change; only what an event
 * cannot tell (a new column, the previous count of a card this screen never held) is read again, throttled.
 */
export function createBoardLive(queryClient: QueryClient, view: () => BoardView, reloadWindowMs = RELOAD_WINDOW_MS) {
  const shownBoard = () => {
    const { funnelId } = view();
    return funnelId ? queryClient.getQueryData<Board>(boardKey(funnelId)) : undefined;
  };
  const reloadBoard = () => {
    const { funnelId } = view();
    if (funnelId) void queryClient.invalidateQueries({ queryKey: boardKey(funnelId) });
  };
  const reloadFunnels = () => void queryClient.invalidateQueries({ queryKey: funnelsKey });
  // Searched lists are only read while a column shows one: invalidating the others costs nothing.
  const reloadSearches = () => void queryClient.invalidateQueries({ queryKey: columnCardsKey });
  const boardReload = throttledTask(reloadBoard, reloadWindowMs);
  const funnelsReload = throttledTask(reloadFunnels, reloadWindowMs);
  const searchesReload = throttledTask(reloadSearches, reloadWindowMs);

  const addUnread = (changes: readonly UnreadChange[]) => {
    const deltaOf = (funnelId: string) => changes.reduce((sum, [id, delta]) => (id === funnelId ? sum + delta : sum), 0);
    if (changes.every(([funnelId]) => deltaOf(funnelId) === 0)) return;
    queryClient.setQueryData<FunnelSummary[]>(funnelsKey, (list) =>
      list?.map((funnel) => (deltaOf(funnel.id) === 0 ? funnel : { ...funnel, unreadCount: Math.max(0, funnel.unreadCount + deltaOf(funnel.id)) })),
    );
  };

  /** A card as it now is: the board on screen and the funnels' unread totals follow. */
  const applyCard = (card: BoardCard, change: CardChange) => {
    // The open chat is being read: it stays at 0 while the chat panel marks it read on the server.
    const seen = card.id === view().openCardId ? { ...card, unreadCount: 0 } : card;
    const board = shownBoard();
    const before = findCard(board, card.id);
    if (board) {
      const placed = placeCardUpdate(board, seen, change);
      queryClient.setQueryData(boardKey(board.funnel.id), placed.board);
      if (placed.reload) boardReload.request();
    }
    searchesReload.request();
    if (before)
      addUnread([
        [before.funnelId, -before.unreadCount],
        [seen.funnelId, seen.unreadCount],
      ]);
    else if (change.created) addUnread([[seen.funnelId, seen.unreadCount]]);
    // A card this screen never held (another funnel's): what it counted before is unknown here.
    else funnelsReload.request();
  };

  return {
    cardUpdated: ({ created = false, ...card }: ServerEventPayload<'card_updated'>) => applyCard(card, { created }),
    boardUpdated: (payload: ServerEventPayload<'board_updated'>) => {
      const { funnelId } = view();
      if (payload.funnelId !== funnelId) return;
      if (payload.board) queryClient.setQueryData(boardKey(funnelId), payload.board);
      else if (payload.card) applyCard(payload.card, { leftThisFunnel: payload.card.funnelId !== funnelId });
      else boardReload.request();
    },
    funnelsUpdated: () => funnelsReload.request(),
    /** A change made on this screen (e.g. the open chat read): the board and its funnel's unread total. */
    patchShownCard: (cardId: string, patch: Partial<BoardCard>) => {
      const board = shownBoard();
      const before = findCard(board, cardId);
      if (!board || !before) return;
      queryClient.setQueryData(boardKey(board.funnel.id), patchCard(board, cardId, patch));
      if (patch.unreadCount !== undefined) addUnread([[before.funnelId, patch.unreadCount - before.unreadCount]]);
    },
    /** Events published before a join (the first, or one after the connection was down) are not replayed: read again, once. */
    joined: () => {
      reloadFunnels();
      reloadBoard();
      reloadSearches();
    },
    dispose: () => {
      boardReload.dispose();
      funnelsReload.dispose();
      searchesReload.dispose();
    },
  };
}

export type BoardLive = ReturnType<typeof createBoardLive>;
