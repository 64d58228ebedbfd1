import type { QueryClient } from '@tanstack/react-query';
import { earlyAnswer } from '../../shared/api-client/api-client.ts';
import { boardPaths } from './board.api.ts';
import { boardQuery, funnelsQuery } from './board-queries.ts';
import { readSelectedFunnelId, shownFunnelId } from './shown-funnel.ts';

/**
 * Puts the board's early answers (board-boot.ts) in the query cache as soon as the app starts, so the board's first
 * render already has its funnels and its board instead of asking for them, one after the other, once mounted. Only
 * answers that came back OK: any other is left for the board's own call, which reports it (or signs out on a 401)
 * with the whole app mounted.
 */
export async function seedBoardQueries(queryClient: QueryClient) {
  if (!(await earlyAnswer(boardPaths.funnels))?.ok) return;
  const funnels = await queryClient.fetchQuery(funnelsQuery());
  const funnelId = shownFunnelId(funnels, readSelectedFunnelId());
  if (!funnelId || !(await earlyAnswer(boardPaths.board(funnelId)))?.ok) return;
  await queryClient.fetchQuery(boardQuery(funnelId));
}
