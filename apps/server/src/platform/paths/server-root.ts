import path from 'node:path';
import { fileURLToPath } from 'node:url';

const above = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The server package's folder (apps/server), whether this runs from the sources (tsx, tests: src/platform/paths)
 * or from the build (`npm run build`: dist/src/platform/paths). Files that are not compiled — the SQL migrations,
 * the web app's build — are found from here.
 */
export const SERVER_ROOT = path.basename(above) === 'dist' ? path.dirname(above) : above;
