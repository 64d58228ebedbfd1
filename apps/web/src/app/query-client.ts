import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../shared/api-client/api-error.ts';

/** Client errors (4xx) are answers, not glitches: retrying them only delays the message. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failureCount < 2,
        refetchOnWindowFocus: false,
        staleTime: 10_000,
      },
      mutations: { retry: false },
    },
  });
}
