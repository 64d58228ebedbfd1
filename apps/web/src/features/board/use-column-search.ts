import { useInfiniteQuery } from '@tanstack/react-query';
import { boardApi, type BoardCard, type BoardColumn } from './board.api.ts';
import { columnCardsKey } from './board-live.ts';
import type { MoreCards } from './CardList.tsx';

/**
 * A long column searched or sorted unread-first over all its chats on the server, page by page; null while the
 * board holds the whole column (it is filtered where it is) or before the first page arrives.
 */
export function useServerColumnView(column: BoardColumn, search: string, unreadFirst: boolean): { cards: BoardCard[]; more?: MoreCards } | null {
  const active = column.nextCursor !== null && (search !== '' || unreadFirst);
  const query = useInfiniteQuery({
    queryKey: [...columnCardsKey, column.id, search, unreadFirst],
    queryFn: ({ pageParam }) =>
      boardApi.columnCards(column.id, { search: search || undefined, sort: unreadFirst ? 'unread' : undefined, cursor: pageParam ?? undefined }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: active,
  });
  if (!active || !query.data) return null;
  return {
    cards: query.data.pages.flatMap((page) => page.cards),
    more: query.hasNextPage ? { load: () => void query.fetchNextPage(), loading: query.isFetchingNextPage } : undefined,
  };
}
