import { useQuery } from '@tanstack/react-query';
import { boardApi } from './board.api.ts';

export const quickRepliesKey = (columnId: string) => ['quick-replies', columnId] as const;

/** A column's quick replies, shared by the column settings and the chat footer. */
export function useQuickReplies(columnId: string, enabled = true) {
  return useQuery({ queryKey: quickRepliesKey(columnId), queryFn: () => boardApi.quickReplies(columnId), enabled: enabled && columnId !== '' });
}
