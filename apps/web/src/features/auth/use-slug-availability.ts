import { SLUG_MIN_LENGTH, SLUG_PATTERN } from '@embudo/contracts/http/auth';
import { useQuery } from '@tanstack/react-query';
import { useDebouncedValue } from '../../shared/hooks/use-debounced-value.ts';
import { authApi } from './auth.api.ts';

export type SlugAvailability = 'idle' | 'checking' | 'available' | 'taken';

/** Spec 01 §9: the availability check waits until typing has stopped for 500 ms. */
export const SLUG_CHECK_DELAY_MS = 500;

export function isCheckableSlug(slug: string) {
  return slug.length >= SLUG_MIN_LENGTH && SLUG_PATTERN.test(slug);
}

/** Live availability of a company slug, checked once it has at least 3 valid characters. */
export function useSlugAvailability(slug: string): SlugAvailability {
  const candidate = slug.trim();
  const checkable = isCheckableSlug(candidate);
  const settled = useDebouncedValue(candidate, SLUG_CHECK_DELAY_MS);
  const query = useQuery({
    queryKey: ['tenants', 'check-slug', settled],
    queryFn: ({ signal }) => authApi.checkSlug(settled, signal),
    enabled: checkable && settled === candidate,
    staleTime: 15_000,
    retry: false,
  });

  if (!checkable) return 'idle';
  if (settled !== candidate || query.isPending || query.isFetching) return 'checking';
  if (query.isError || !query.data) return 'idle';
  return query.data.available ? 'available' : 'taken';
}
