/**
 * Run by board.html (the board's document) as the document is read, inlined there with what it imports
 * (build/page-preloads-plugin.ts), while the app's code is still downloading: the board's data is then on its way,
 * often back, before the app's code has run. It must stay small and free of zod and React.
 */
import { preloadBoard } from './board-preload.ts';

preloadBoard();
