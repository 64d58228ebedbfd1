import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** /t/{slug} and /t/{slug}/: the board, where a signed-in member lands. */
const BOARD_PATH = /^\/t\/[^/]+\/?$/;

export interface SpaDocuments {
  /** The document sent for a client-side route. */
  documentFor: (pathname: string) => Buffer;
  /** The CSP sources ('sha256-…') of the documents' inline scripts, which script-src 'self' alone would block. */
  inlineScriptSources: string[];
}

/**
 * The web build's HTML for a client-side route, read once: board.html on the board and landing.html on /, each the
 * same document plus its page's code preloaded (apps/web/build/page-preloads-plugin.ts), and index.html everywhere
 * else or when the build lacks the page's document. board.html runs its boot script inline: the CSP allows it by hash.
 */
export function readSpaDocuments(webDist: string): SpaDocuments {
  const index = fs.readFileSync(path.join(webDist, 'index.html'));
  const pageDocument = (fileName: string) => {
    const file = path.join(webDist, fileName);
    return fs.existsSync(file) ? fs.readFileSync(file) : index;
  };
  const board = pageDocument('board.html');
  const landing = pageDocument('landing.html');
  const inlineScripts = [index, board, landing].flatMap((document) =>
    [...document.toString('utf8').matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!),
  );
  return {
    documentFor: (pathname) => (BOARD_PATH.test(pathname) ? board : pathname === '/' ? landing : index),
    inlineScriptSources: [...new Set(inlineScripts.map((script) => `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`))],
  };
}
