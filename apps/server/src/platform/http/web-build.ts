import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
};

/** Vite names what it writes under assets/ after its content: a name always holds the same bytes. */
const HASHED_ASSETS = '/assets/';

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(file) : [file];
  });
}

/**
 * Serves every file of the web build from memory, read once at start, each answer in one write. Streamed from disk
 * in 64 KB reads, a file stopped halfway whenever the event loop was held, as a PGlite query holds it in embedded mode:
 * the board's main bundle arrived after the board's data. Hashed assets may be kept by browsers for a year; the rest
 * (favicon, the HTML documents) is checked each time.
 */
export function registerWebBuild(app: FastifyInstance, webDist: string) {
  for (const file of filesUnder(webDist)) {
    const url = `/${path.relative(webDist, file).split(path.sep).join('/')}`;
    const body = fs.readFileSync(file);
    const type = contentTypes[path.extname(file)] ?? 'application/octet-stream';
    const cacheControl = url.startsWith(HASHED_ASSETS) ? 'public, max-age=31536000, immutable' : 'no-cache';
    app.get(url, { schema: { hide: true } }, (_request, reply) => reply.type(type).header('cache-control', cacheControl).send(body));
  }
}
