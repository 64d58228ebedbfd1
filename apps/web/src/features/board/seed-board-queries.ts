import type { QueryClient } from '@tanstack/react-query';
import { earlyAnswer, requestEarly } from '../../shared/api-client/api-client.ts';
import { boardPaths } from './board.api.ts';
import { boardQuery, funnelsQuery } from './board-queries.ts';
import { readSelectedFunnelId, shownFunnelId } from './shown-funnel.ts';

/**
 * Puts the board's early answers (board-boot.ts) in the query cache as soon as the app starts, so the board's first
 * render already has its funnels and its board instead of asking for them, one after the other, once mounted. When
 * the funnels came early but the board's read was not started (the app ran before their answer), it starts it. Only
 * answers that came back OK: any other is left for the board's own call, which reports it (or signs out on a 401)
 * with the whole app mounted.
 */
export async function seedBoardQueries(queryClient: QueryClient) {
  // A read that failed outright is left to the board's own call too.
  if (!(await earlyAnswer(boardPaths.funnels)?.catch(() => undefined))?.ok) return;
  const funnels = await queryClient.fetchQuery(funnelsQuery());
  const funnelId = shownFunnelId(funnels, readSelectedFunnelId());
  if (!funnelId) return;
  // The boot script starts no read once the app runs (board-preload.ts): the board's is started here then, as early.
  const board = earlyAnswer(boardPaths.board(funnelId)) ?? requestEarly(boardPaths.board(funnelId));
  if (!(await board.catch(() => undefined))?.ok) return;
  await queryClient.fetchQuery(boardQuery(funnelId));
}
