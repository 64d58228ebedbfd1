import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './app/AppProviders.tsx';
import { createQueryClient } from './app/query-client.ts';
import { createAppRouter } from './app/router.ts';
import { whenRouterReady } from './app/when-router-ready.ts';
import { seedBoardQueries } from './features/board/seed-board-queries.ts';
import { configureApiClient } from './shared/api-client/api-client.ts';
import './styles.css';

const router = createAppRouter();
const queryClient = createQueryClient();
void seedBoardQueries(queryClient);
// A 401 sends the user to sign in through the router instead of reloading the page.
configureApiClient({ navigate: (to) => void router.navigate(to, { replace: true }) });

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

whenRouterReady(router, () =>
  createRoot(container).render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        {/* Router updates render at once: as transitions, the board's first render was cut into 5 ms slices with a frame
            of the loading spinner painted between them, and painted later. */}
        <RouterProvider router={router} useTransitions={false} />
      </AppProviders>
    </StrictMode>,
  ),
);
