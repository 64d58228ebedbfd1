import fs from 'node:fs';
import path from 'node:path';

/** /t/{slug} and /t/{slug}/: the board, where a signed-in member lands. */
const BOARD_PATH = /^\/t\/[^/]+\/?$/;

/**
 * The web build's HTML for a client-side route, read once: board.html on the board and landing.html on /, each the
 * same document plus its page's code preloaded (apps/web/build/page-preloads-plugin.ts), and index.html everywhere
 * else or when the build lacks the page's document.
 */
export function readSpaDocuments(webDist: string): (pathname: string) => Buffer {
  const index = fs.readFileSync(path.join(webDist, 'index.html'));
  const pageDocument = (fileName: string) => {
    const file = path.join(webDist, fileName);
    return fs.existsSync(file) ? fs.readFileSync(file) : index;
  };
  const board = pageDocument('board.html');
  const landing = pageDocument('landing.html');
  return (pathname) => (BOARD_PATH.test(pathname) ? board : pathname === '/' ? landing : index);
}
