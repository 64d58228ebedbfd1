import { queryOptions } from '@tanstack/react-query';
import { boardApi } from './board.api.ts';

export const funnelsKey = ['funnels'] as const;
export const boardKey = (funnelId: string) => ['board', funnelId] as const;

/** The funnels the member may see, with their unread totals (the board's selector). */
export const funnelsQuery = () => queryOptions({ queryKey: funnelsKey, queryFn: boardApi.funnels });

/** A funnel's board: its columns, each with its first chats and its total. */
export const boardQuery = (funnelId: string) => queryOptions({ queryKey: boardKey(funnelId), queryFn: () => boardApi.board(funnelId) });
