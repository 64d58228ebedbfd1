import { requestEarly } from '../../shared/api-client/api-client.ts';
import { readStoredJson, readStoredTenantSlug, storageKeys } from '../../shared/api-client/auth-storage.ts';
import { boardPaths } from './board.api.ts';
import { readSelectedFunnelId } from './shown-funnel.ts';

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
 * When the app opens on the board of the stored session, starts the board's read (its funnels and the shown funnel's
 * board, in one answer) while the app's code is still loading; the board's queries take its answer
 * (seed-board-queries.ts). Anywhere else, or without a session the board would show, it does nothing. board.html runs
 * it (board-boot.ts, inline) before the main bundle. It reads the stored session without its checks, which the page
 * makes anyway.
 */
export function preloadBoard(pathname = window.location.pathname) {
  const slug = readStoredTenantSlug();
  if (!localStorage.getItem(storageKeys.token) || !slug || mustReplacePassword() || !isBoardPath(pathname, slug)) return;
  void requestEarly(boardPaths.shownBoard(readSelectedFunnelId()));
}
