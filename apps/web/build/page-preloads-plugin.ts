import path from 'node:path';
import { build, type Plugin, type Rolldown } from 'vite';

/** A document besides index.html for one page: the same, plus the page's own code preloaded. */
export interface PageDocument {
  /** Written next to index.html, e.g. board.html. */
  fileName: string;
  /** The modules the router loads lazily for the page, from the project root. */
  modules: string[];
  /**
   * A small module the document runs as it is read, before anything else loads (e.g. to start the page's requests):
   * built with its imports into one classic script, inlined in the document. Its imports are its own copies, so state
   * it hands to the app must live on the page (globalThis), not in a module.
   */
  boot?: string;
}

/** `entry` and its imports as one minified classic script, to be inlined in a document. */
async function inlineScript(root: string, entry: string): Promise<string> {
  const built = (await build({
    root,
    configFile: false,
    logLevel: 'silent',
    publicDir: false,
    // An IIFE must be named; a boot module exports nothing, so no global is made.
    build: { write: false, minify: true, lib: { entry: path.resolve(root, entry), formats: ['iife'], name: 'embudoPageBoot' } },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const [output] = Array.isArray(built) ? built : [built];
  const code = output?.output[0].code.trim();
  if (!code) throw new Error(`page-preloads: ${entry} built to nothing`);
  // The document's parser would end the script there.
  if (/<\/script/i.test(code)) throw new Error(`page-preloads: ${entry} holds "</script" and cannot be inlined`);
  return code;
}

/**
 * Emits, for each page, index.html with a modulepreload link for every chunk of the page's lazy modules that the entry
 * does not load already. Without it the router asks for them only once the main bundle has run; with it the browser
 * fetches and compiles them while the main bundle is still arriving. A page's boot module is inlined before the main
 * bundle's script: it runs as the document is read. As a module script of its own it waited for its file and the
 * chunks it imported, then for the document's stylesheet, and started the board's read some 100 ms later (as an async
 * one it ran after the main bundle at times, whose page then made its own reads).
 * The server sends that document for the page's path and allows its inline script by hash (apps/server:
 * spa-documents). A module that no chunk stands for any more fails the build.
 */
export function pagePreloadsPlugin(pages: PageDocument[]): Plugin {
  let root = '';
  let base = '/';
  return {
    name: 'embudo:page-preloads',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    async generateBundle(_, bundle) {
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
        const files = new Set<string>();
        for (const module of page.modules) {
          const id = path.resolve(root, module);
          const chunk = [...chunks.values()].find((candidate) => candidate.moduleIds.includes(id));
          if (!chunk) return this.error(`page-preloads: no chunk for ${module} (${page.fileName})`);
          for (const fileName of withImports(chunk.fileName)) if (!loadedByEntry.has(fileName)) files.add(fileName);
        }
        const preload = (fileName: string) => `<link rel="modulepreload" crossorigin href="${base}${fileName}">`;
        // The boot script before the main bundle's script and its stylesheet, which would hold it; the page's chunks
        // after everything index.html loads, so the main bundle does not wait for a free connection behind them.
        const first = page.boot ? [`<script>${await inlineScript(root, page.boot)}</script>`] : [];
        const last = [...files].map(preload);
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
