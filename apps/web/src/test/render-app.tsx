import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../app/AppProviders.tsx';
import { createQueryClient } from '../app/query-client.ts';
import { routes } from '../app/routes.tsx';
import { configureApiClient } from '../shared/api-client/api-client.ts';

/**
 * Renders the real app (routes, providers, guards) at `path` in memory; by default with a query client that never
 * retries and keeps nothing fresh, or with the one given (as main.tsx makes it).
 */
export function renderApp(path: string, queryClient = testQueryClient()) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  configureApiClient({ navigate: (to) => void router.navigate(to, { replace: true }) });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, pathname: () => router.state.location.pathname };
}

function testQueryClient() {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false, staleTime: 0 } });
  return queryClient;
}
