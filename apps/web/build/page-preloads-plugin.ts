import path from 'node:path';
import type { Plugin } from 'vite';

/** A document besides index.html for one page: the same, plus the page's own code preloaded. */
export interface PageDocument {
  /** Written next to index.html, e.g. board.html. */
  fileName: string;
  /** The modules the router loads lazily for the page, from the project root. */
  modules: string[];
  /** A small module built as an entry of its own that the document runs first, before the main bundle (e.g. to start the page's requests). */
  boot?: string;
}

/**
 * Emits, for each page, index.html with a modulepreload link for every chunk of the page's lazy modules that the entry
 * does not load already. Without it the router asks for them only once the main bundle has run; with it the browser
 * fetches and compiles them while the main bundle is still arriving. A page's boot module is the document's first
 * module script: it runs as soon as it (and the chunks it imports, preloaded too) arrive, and always before the main
 * bundle, which module scripts run in document order. As an async script it ran after the main bundle at times, whose
 * page then made its own reads.
 * The server sends that document for the page's path (apps/server: spa-documents). A module that no chunk stands for
 * any more fails the build.
 */
export function pagePreloadsPlugin(pages: PageDocument[]): Plugin {
  let root = '';
  let base = '/';
  const bootChunks = new Map<PageDocument, string>();
  return {
    name: 'embudo:page-preloads',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    buildStart() {
      for (const page of pages) {
        if (page.boot) bootChunks.set(page, this.emitFile({ type: 'chunk', id: path.resolve(root, page.boot), name: path.parse(page.boot).name }));
      }
    },
    generateBundle(_, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') return this.error('page-preloads: index.html is not in the bundle');
      const chunks = new Map(Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [[file.fileName, file] as const] : [])));
      // A chunk and every chunk it imports statically, which the browser needs before it can run it.
      const withImports = (fileName: string, found = new Set<string>()) => {
        if (found.has(fileName)) return found;
        found.add(fileName);
        for (const imported of chunks.get(fileName)?.imports ?? []) withImports(imported, found);
        return found;
      };
      const entry = [...chunks.values()].find((chunk) => chunk.isEntry && chunk.facadeModuleId === path.resolve(root, 'index.html'));
      if (!entry) return this.error('page-preloads: no entry chunk for index.html');
      const loadedByEntry = withImports(entry.fileName);
      for (const page of pages) {
        const bootReference = bootChunks.get(page);
        const boot = bootReference === undefined ? undefined : this.getFileName(bootReference);
        const bootImports = boot ? [...withImports(boot)].filter((fileName) => fileName !== boot) : [];
        const files = new Set<string>();
        for (const module of page.modules) {
          const id = path.resolve(root, module);
          const chunk = [...chunks.values()].find((candidate) => candidate.facadeModuleId === id);
          if (!chunk) return this.error(`page-preloads: no chunk for ${module} (${page.fileName})`);
          for (const fileName of withImports(chunk.fileName)) if (!loadedByEntry.has(fileName)) files.add(fileName);
        }
        const preload = (fileName: string) => `<link rel="modulepreload" crossorigin href="${base}${fileName}">`;
        // The boot script and its imports before the main bundle's script, so they are asked for first; the page's
        // chunks after everything index.html loads, so the main bundle does not wait for a free connection behind them.
        const first = [...(boot ? [`<script type="module" crossorigin src="${base}${boot}"></script>`] : []), ...bootImports.map(preload)];
        const last = [...files].filter((fileName) => !loadedByEntry.has(fileName) && !bootImports.includes(fileName)).map(preload);
        const html = String(index.source);
        const mainScript = html.indexOf('<script type="module"');
        const headEnd = html.indexOf('  </head>');
        if (mainScript < 0 || headEnd < 0) return this.error('page-preloads: index.html has no module script or no </head>');
        const lines = (tags: string[]) => tags.map((tag) => `${tag}\n    `).join('');
        const source = `${html.slice(0, mainScript)}${lines(first)}${html.slice(mainScript, headEnd)}    ${lines(last).trimEnd()}\n${html.slice(headEnd)}`;
        this.emitFile({ type: 'asset', fileName: page.fileName, source });
      }
    },
  };
}
