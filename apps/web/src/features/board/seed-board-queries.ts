import type { QueryClient } from '@tanstack/react-query';
import { earlyAnswer } from '../../shared/api-client/api-client.ts';
import { boardApi, boardPaths } from './board.api.ts';
import { boardKey, funnelsQuery } from './board-queries.ts';
import { readSelectedFunnelId } from './shown-funnel.ts';

/**
 * Puts the board's early answer (board-boot.ts) in the query cache as the app starts: the funnels' query is in flight
 * at once, so the board, mounting before the answer is back, waits on it instead of asking; the shown funnel's board is
 * cached before the funnels resolve, so the board's first render has both. When the early read failed or was refused,
 * the funnels' query reads on its own and takes what the board's own call would (a 401 signs out). When the boot
 * started no read (another page, or no stored session), it does nothing.
 */
export async function seedBoardQueries(queryClient: QueryClient) {
  const selected = readSelectedFunnelId();
  const early = earlyAnswer(boardPaths.shownBoard(selected));
  if (!early) return;
  const funnels = queryClient.fetchQuery({
    ...funnelsQuery(),
    queryFn: async () => {
      if (!(await early.catch(() => undefined))?.ok) return boardApi.funnels();
      const shown = await boardApi.shownBoard(selected);
      if (shown.board) queryClient.setQueryData(boardKey(shown.board.funnel.id), shown.board);
      return shown.funnels;
    },
  });
  // The board reports a failure when it reads the query.
  await funnels.catch(() => undefined);
}
