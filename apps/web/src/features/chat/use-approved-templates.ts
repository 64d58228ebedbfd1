import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError, errorMessageOr } from '../../shared/api-client/api-error.ts';
import { useToast } from '../../shared/ui/use-toast.ts';
import { chatApi } from './chat.api.ts';

/**
 * Approved templates for sending. A 404 means the templates module is not there: no templates,
 * silently; any other failure shows 'Error al cargar plantillas' once.
 */
export function useApprovedTemplates() {
  const toast = useToast();
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
  return { templates: query.data ?? [], isLoading: query.isLoading };
}
