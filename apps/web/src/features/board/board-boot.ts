/**
 * An entry of its own, run by board.html (the board's document) as soon as it arrives, while the main bundle is still
 * downloading: the board's data is then on its way, often back, before the app's code has run. It must stay small and
 * free of zod and React (build/page-preloads-plugin.ts preloads what it imports).
 */
import { preloadBoard } from './board-preload.ts';

preloadBoard();
