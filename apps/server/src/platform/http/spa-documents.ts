import fs from 'node:fs';
import path from 'node:path';

/** /t/{slug} and /t/{slug}/: the board, where a signed-in member lands. */
const BOARD_PATH = /^\/t\/[^/]+\/?$/;

/**
 * The web build's HTML for a client-side route, read once: board.html on the board, the same document plus its
 * code preloaded (apps/web/build/page-preloads-plugin.ts), and index.html everywhere else or when the build has no
 * board.html.
 */
export function readSpaDocuments(webDist: string): (pathname: string) => Buffer {
  const index = fs.readFileSync(path.join(webDist, 'index.html'));
  const boardFile = path.join(webDist, 'board.html');
  const board = fs.existsSync(boardFile) ? fs.readFileSync(boardFile) : index;
  return (pathname) => (BOARD_PATH.test(pathname) ? board : index);
}
