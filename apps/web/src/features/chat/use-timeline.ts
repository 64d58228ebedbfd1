import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { chatApi, type ChatContext, type TimelineItem, type TimelinePage } from './chat.api.ts';
import { flattenTimeline, type TimelineData } from './timeline-cache.ts';

export const timelineKey = (cardId: string) => ['chat-timeline', cardId] as const;

/** A card's timeline, newest page first, read backwards with nextCursor. */
export function useTimeline(cardId: string) {
  const query = useInfiniteQuery<TimelinePage, Error, TimelineData, ReturnType<typeof timelineKey>, string | null>({
    queryKey: timelineKey(cardId),
    queryFn: ({ pageParam }) => chatApi.timeline(cardId, pageParam),
    initialPageParam: null,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    // Realtime keeps an open chat current; refetching would drop the older pages already read.
    staleTime: Infinity,
    gcTime: 5 * 60_000,
  });
  return { ...query, items: flattenTimeline(query.data), context: latestContext(query.data) };
}

/** Every page repeats the chat's context; the page read last (older pages load after, a refetch goes in order) is the freshest. */
function latestContext(data: TimelineData | undefined): ChatContext | null {
  return [...(data?.pages ?? [])].reverse().find((page) => page.context)?.context ?? null;
}

/** Applies a change to the cached timeline of one card (no-op when it is not loaded). */
export function useTimelineUpdater() {
  const queryClient = useQueryClient();
  return useCallback(
    (cardId: string, update: (data: TimelineData | undefined) => TimelineData | undefined) => {
      queryClient.setQueryData<TimelineData>(timelineKey(cardId), (data) => update(data));
    },
    [queryClient],
  );
}

export type { TimelineItem };
