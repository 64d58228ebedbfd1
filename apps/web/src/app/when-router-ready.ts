import type { createBrowserRouter } from 'react-router';

type AppRouter = Pick<ReturnType<typeof createBrowserRouter>, 'state' | 'subscribe'>;

/** How long the first render waits for the first page's code before it shows the router's loading screen instead. */
export const FIRST_PAGE_WAIT_MAX_MS = 150;

/**
 * Calls `render` once the router holds the first page's code, or after FIRST_PAGE_WAIT_MAX_MS, whichever comes first.
 * The board's and the landing's documents preload their page's code, so it is nearly always here within milliseconds:
 * rendering then spares the browser a first render of the loading spinner, its frame, and a second render replacing
 * it. On a slow network the spinner still shows.
 */
export function whenRouterReady(router: AppRouter, render: () => void): void {
  if (router.state.initialized) {
    render();
    return;
  }
  // Whichever comes first ends the other: the page renders once.
  const run = () => {
    unsubscribe();
    clearTimeout(timer);
    render();
  };
  const unsubscribe = router.subscribe((state) => {
    if (state.initialized) run();
  });
  const timer = setTimeout(run, FIRST_PAGE_WAIT_MAX_MS);
}
