import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { ApiError, errorMessageOr } from '../../shared/api-client/api-error.ts';
import { useToast } from '../../shared/ui/use-toast.ts';
import { assignedTemplatesKey } from '../board/AssignedTemplatesTab.tsx';
import { boardApi } from '../board/board.api.ts';
import { chatApi } from './chat.api.ts';

/**
 * Approved templates for sending. A 404 means the templates module is not there: no templates,
 * silently; any other failure shows 'Error al cargar plantillas' once.
 */
export function useApprovedTemplates(columnId?: string) {
  const toast = useToast();
  // Templates assigned to the chat's column come first; without them the order is the server's.
  const assigned = useQuery({
    queryKey: assignedTemplatesKey(columnId ?? ''),
    queryFn: () => boardApi.assignedTemplates(columnId!),
    enabled: Boolean(columnId),
    staleTime: 60_000,
  });
  const query = useQuery({
    queryKey: ['templates', 'APPROVED'],
    queryFn: async () => {
      try {
        return await chatApi.approvedTemplates();
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return [];
        throw error;
      }
    },
    staleTime: 60_000,
  });
  const { error } = query;
  useEffect(() => {
    if (error) toast.error(errorMessageOr(error, 'Error al cargar plantillas'));
  }, [error, toast]);
  const templates = useMemo(() => {
    const first = new Set(assigned.data?.templateIds ?? []);
    const all = query.data ?? [];
    return first.size === 0 ? all : [...all.filter((template) => first.has(template.id)), ...all.filter((template) => !first.has(template.id))];
  }, [assigned.data, query.data]);
  return { templates, isLoading: query.isLoading };
}
