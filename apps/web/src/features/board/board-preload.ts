import { isPageRunning, requestEarly } from '../../shared/api-client/api-client.ts';
import { readStoredJson, readStoredTenantSlug, storageKeys } from '../../shared/api-client/auth-storage.ts';
import { boardPaths, type FunnelSummary } from './board.api.ts';
import { readSelectedFunnelId, shownFunnelId } from './shown-funnel.ts';

/** /t/{slug} and /t/{slug}/: the board, where a signed-in member lands. */
function isBoardPath(pathname: string, slug: string) {
  const match = /^\/t\/([^/]+)\/?$/.exec(pathname);
  return match !== null && decodeURIComponent(match[1]!) === slug;
}

/** A member holding a temporary password is sent to replace it, not to the board. */
function mustReplacePassword() {
  const user = readStoredJson(storageKeys.user);
  return typeof user === 'object' && user !== null && 'force_password_change' in user && user.force_password_change === true;
}

/**
 * When the app opens on the board of the stored session, starts the board's two reads (the funnels, then the shown
 * funnel's board) while the app's code is still loading; the board's own calls take their answers (api-client's
 * requestEarly). Anywhere else, without a session the board would show, or once the app's code runs, it does
 * nothing. It reads the stored session without its schema: board-boot.ts runs it while the main bundle is still
 * loading (usually before it runs, not always), and the page checks the session anyway.
 */
export function preloadBoard(pathname = window.location.pathname) {
  const slug = readStoredTenantSlug();
  if (isPageRunning() || !localStorage.getItem(storageKeys.token) || !slug || mustReplacePassword() || !isBoardPath(pathname, slug)) return;
  void requestEarly(boardPaths.funnels)
    .then(async (answer) => {
      if (!answer.ok) return;
      const funnelId = shownFunnelId((await answer.clone().json()) as FunnelSummary[], readSelectedFunnelId());
      // Once the page's code runs, it reads the board itself (seedBoardQueries).
      if (funnelId && !isPageRunning()) void requestEarly(boardPaths.board(funnelId));
    })
    // The board reports a failed read when it makes it.
    .catch(() => undefined);
}
