import { QueryClient } from '@tanstack/react-query';
import { cardUpdatedPayload } from '@embudo/contracts/realtime/events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aBoard, aCard } from '../chat/chat-test-fixtures.ts';
import type { Board, BoardCard, FunnelSummary } from './board.api.ts';
import { createBoardLive, RELOAD_WINDOW_MS } from './board-live.ts';
import { boardKey, funnelsKey } from './board-queries.ts';

function setup(openCardId: string | null = null) {
  const queryClient = new QueryClient();
  queryClient.setQueryData<Board>(boardKey('f1'), aBoard([aCard({ unreadCount: 2 }), aCard({ id: 'c2', unreadCount: 1 })]));
  queryClient.setQueryData<FunnelSummary[]>(funnelsKey, [
    { id: 'f1', name: 'Ventas', unreadCount: 3 },
    { id: 'f2', name: 'Soporte', unreadCount: 4 },
  ]);
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
  const reloadsOf = (key: readonly unknown[]) => invalidate.mock.calls.filter(([filters]) => JSON.stringify(filters?.queryKey) === JSON.stringify(key)).length;
  const live = createBoardLive(queryClient, () => ({ funnelId: 'f1', openCardId }));
  return {
    live,
    board: () => queryClient.getQueryData<Board>(boardKey('f1'))!,
    unread: () => Object.fromEntries(queryClient.getQueryData<FunnelSummary[]>(funnelsKey)!.map((funnel) => [funnel.id, funnel.unreadCount])),
    boardReloads: () => reloadsOf(boardKey('f1')),
    funnelReloads: () => reloadsOf(funnelsKey),
  };
}

/** A card as the server sends it (the contract's shape). */
const sent = (overrides: Partial<BoardCard> = {}) => cardUpdatedPayload.parse(aCard(overrides));

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('board live', () => {
  it('adjusts the funnel unread totals from the card it knows, and from a new chat', () => {
    const view = setup();
    view.live.cardUpdated(sent({ unreadCount: 5 }));
    view.live.cardUpdated({ ...sent({ id: 'new', unreadCount: 1 }), created: true });
    expect(view.unread()).toEqual({ f1: 7, f2: 4 });
    expect(view.board().columns[0]!.cards.map((card) => card.id)).toEqual(['new', 'c1', 'c2']);
    expect(view.funnelReloads() + view.boardReloads()).toBe(0);
  });

  it('moves the unread count with a card that leaves for another funnel', () => {
    const view = setup();
    view.live.boardUpdated({ funnelId: 'f1', card: sent({ funnelId: 'f2', columnId: 'x', unreadCount: 2 }) });
    expect(view.unread()).toEqual({ f1: 1, f2: 6 });
    expect(view.board().columns[0]!.cards.map((card) => card.id)).toEqual(['c2']);
  });

  it('keeps the open chat at 0 unread, and reading it lowers its funnel total', () => {
    const view = setup('c1');
    view.live.patchShownCard('c1', { unreadCount: 0 });
    expect(view.unread()).toEqual({ f1: 1, f2: 4 });
    view.live.cardUpdated(sent({ unreadCount: 3 }));
    expect(view.board().columns[0]!.cards[0]!.unreadCount).toBe(0);
    expect(view.unread()).toEqual({ f1: 1, f2: 4 });
  });

  it('reads the funnels again for cards of another funnel it never held: once at once, once at the end of the second', () => {
    const view = setup();
    for (let i = 0; i < 100; i++) view.live.cardUpdated(sent({ id: `other-${i}`, funnelId: 'f2', columnId: 'x' }));
    expect(view.funnelReloads()).toBe(1);
    vi.advanceTimersByTime(RELOAD_WINDOW_MS);
    expect(view.funnelReloads()).toBe(2);
    vi.advanceTimersByTime(5 * RELOAD_WINDOW_MS);
    expect(view.funnelReloads()).toBe(2);
    expect(view.boardReloads()).toBe(0);
  });

  it('reads the board again, throttled, for a card in a column it does not know and for a board change without a card', () => {
    const view = setup();
    view.live.cardUpdated(sent({ columnId: 'column-made-meanwhile' }));
    view.live.boardUpdated({ funnelId: 'f1' });
    view.live.boardUpdated({ funnelId: 'f2' });
    expect(view.boardReloads()).toBe(1);
    vi.advanceTimersByTime(RELOAD_WINDOW_MS);
    expect(view.boardReloads()).toBe(2);
  });

  it('after a reconnection reads the board and the funnels once each', () => {
    const view = setup();
    view.live.joined();
    expect([view.boardReloads(), view.funnelReloads()]).toEqual([1, 1]);
  });
});
