import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, type Rolldown } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { pagePreloadsPlugin, type PageDocument } from './page-preloads-plugin.ts';

// An app whose entry loads `common` and two pages lazily; the board page also needs `shared`, and `common`.
const app: Record<string, string> = {
  'index.html': '<!doctype html>\n<html>\n  <head>\n    <script type="module" src="/src/main.ts"></script>\n  </head>\n  <body></body>\n</html>\n',
  'src/common.ts': 'export const common = () => "common";\n',
  'src/shared.ts': 'export const shared = () => "shared";\n',
  'src/main.ts':
    'import { common } from "./common.ts";\nimport { early } from "./early.ts";\nconsole.log(common(), early);\nvoid import("./board.ts");\nvoid import("./shell.ts");\nvoid import("./agenda.ts");\n',
  'src/board.ts': 'import { common } from "./common.ts";\nimport { shared } from "./shared.ts";\nexport const board = () => common() + shared();\n',
  'src/shell.ts': 'import { shared } from "./shared.ts";\nexport const shell = () => shared() + "shell";\n',
  'src/agenda.ts': 'export const agenda = () => "agenda";\n',
  // Runs first on the board: shares `early` with the entry.
  'src/boot.ts': 'import { early } from "./early.ts";\nearly();\n',
  'src/early.ts': 'export const early = () => fetch("/api/early");\n',
};

let root = '';
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

async function buildApp(pages: PageDocument[], chunkGroups: Array<{ name: string; test: RegExp }> = []) {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-preloads-'));
  for (const [name, text] of Object.entries(app)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  const output = (await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [pagePreloadsPlugin(pages)],
    build: { write: false, rolldownOptions: { output: { codeSplitting: { groups: chunkGroups } } } },
  })) as Rolldown.RolldownOutput;
  const file = (name: string) => output.output.find((item) => item.fileName === name);
  const text = (name: string) => {
    const item = file(name);
    return item?.type === 'asset' ? String(item.source) : undefined;
  };
  const chunkOf = (module: string) => output.output.find((item) => item.type === 'chunk' && item.facadeModuleId === path.join(root, module))!.fileName;
  const chunkHolding = (module: string) => output.output.find((item) => item.type === 'chunk' && item.moduleIds.includes(path.join(root, module)))!.fileName;
  const chunks = output.output.flatMap((item) => (item.type === 'chunk' ? [item.fileName] : []));
  return { text, chunkOf, chunkHolding, chunks };
}

describe('pagePreloadsPlugin', () => {
  it("writes a page's document: index.html plus a modulepreload of each chunk its lazy modules need that the entry does not load", async () => {
    const { text, chunkOf, chunks } = await buildApp([{ fileName: 'board.html', modules: ['src/shell.ts', 'src/board.ts'] }]);
    const index = text('index.html')!;
    const board = text('board.html')!;
    const preloaded = [...board.matchAll(/<link rel="modulepreload" crossorigin href="\/([^"]+)">/g)].map((match) => match[1]);

    // The pages and the chunk of what they share; not the entry (nor what it holds) and not the other page.
    expect(preloaded).toEqual(expect.arrayContaining([chunkOf('src/shell.ts'), chunkOf('src/board.ts')]));
    expect(new Set(preloaded)).toEqual(new Set(chunks.filter((chunk) => chunk !== chunkOf('index.html') && chunk !== chunkOf('src/agenda.ts'))));
    expect(index).not.toContain(chunkOf('src/board.ts'));
    expect(board.replace(/ {4}<link rel="modulepreload" crossorigin href="\/[^"]+">\n/g, '')).toBe(index);
    // After what index.html loads, so the main bundle is asked for first.
    expect(board.indexOf(chunkOf('src/board.ts'))).toBeGreaterThan(board.indexOf(`src="/${chunkOf('index.html')}"`));
  });

  it("runs a page's boot module inline, with its imports, before the main bundle and its stylesheet", async () => {
    const { text, chunkOf, chunks } = await buildApp([{ fileName: 'board.html', boot: 'src/boot.ts', modules: ['src/board.ts'] }]);
    const board = text('board.html')!;
    const inline = [...board.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
    expect(inline).toHaveLength(1);
    // A classic script holding its own copy of what it imports: no chunk to wait for, none emitted for it.
    expect(inline[0]).toContain('/api/early');
    expect(inline[0]).not.toMatch(/\bimport\b/);
    expect(chunks.some((chunk) => chunk.includes('boot'))).toBe(false);
    expect(board.indexOf('<script>')).toBeLessThan(board.indexOf(`src="/${chunkOf('index.html')}"`));
    expect(text('index.html')).not.toContain('<script>');
  });

  it('inlines a boot script whose text holds "</script>" without ending the element there', async () => {
    app['src/closing.ts'] = 'console.log("</script>");\n';
    try {
      const { text } = await buildApp([{ fileName: 'board.html', boot: 'src/closing.ts', modules: [] }]);
      const board = text('board.html')!;
      expect(board.match(/<\/script>/gi)).toHaveLength(2);
      expect(board.slice(board.indexOf('<script>'), board.indexOf('</script>'))).toContain('console.log');
    } finally {
      delete app['src/closing.ts'];
    }
  });

  it('preloads the chunk that holds a page module merged with others by a chunk group', async () => {
    const { text, chunkHolding, chunks } = await buildApp(
      [{ fileName: 'board.html', modules: ['src/shell.ts', 'src/board.ts'] }],
      [{ name: 'signed-in', test: /src[\\/](shell|board)\.ts$/ }],
    );
    const merged = chunkHolding('src/board.ts');
    expect(chunkHolding('src/shell.ts')).toBe(merged);
    expect(chunks.some((chunk) => chunk.startsWith('assets/board-'))).toBe(false);
    expect(text('board.html')).toContain(`<link rel="modulepreload" crossorigin href="/${merged}">`);
  });

  it('fails the build when no chunk holds a listed module any more', async () => {
    await expect(buildApp([{ fileName: 'board.html', modules: ['src/gone.ts'] }])).rejects.toThrow(/no chunk for src\/gone\.ts/);
  });
});
