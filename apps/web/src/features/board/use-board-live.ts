import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useOnJoin } from '../../shared/realtime-client/use-on-join.ts';
import { useSocketEvent } from '../../shared/realtime-client/use-socket-event.ts';
import { createBoardLive, type BoardView } from './board-live.ts';

/** The board page's realtime: board and funnel events applied to the cache, and one reload after each join that may have missed some. */
export function useBoardLive(view: BoardView) {
  const queryClient = useQueryClient();
  const viewRef = useRef(view);
  useEffect(() => {
    viewRef.current = view;
  });
  const [live] = useState(() => createBoardLive(queryClient, () => viewRef.current));
  useEffect(() => () => live.dispose(), [live]);

  useSocketEvent('card_updated', live.cardUpdated);
  useSocketEvent('board_updated', live.boardUpdated);
  useSocketEvent('funnels_updated', live.funnelsUpdated);
  useOnJoin(live.joined);
  return live;
}
