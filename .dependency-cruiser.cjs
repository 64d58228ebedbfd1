/**
 * Module boundaries of the server and the contracts package (docs/decisions/0012-module-boundaries.md).
 * Run with `npm run lint:deps`; `npm test` runs it after the type check.
 */
const SRC = '^apps/server/src/';
const MODULES = '^apps/server/src/modules/';
const TESTS = ['\\.test\\.ts$', '^apps/server/test/'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment:
        'Modules form a DAG (tenants, usage → send-pacing, templates → funnels → users → auth → chats → agenda, autobot → bots, bulk-sends, whatsapp-activity → admin). ' +
        'A module that must react to a higher one takes a port injected at registration, or listens to a domain event.',
      severity: 'error',
      from: { path: SRC },
      to: { circular: true },
    },
    {
      name: 'module-public-face',
      comment: 'Another module is reached only through its index.ts; a module (and its tests) may use its own files freely.',
      severity: 'error',
      from: { path: `${MODULES}([^/]+)/` },
      to: { path: MODULES, pathNot: [`${MODULES}$1/`, `${MODULES}[^/]+/index\\.ts$`] },
    },
    {
      name: 'module-public-face-outside',
      comment: 'app.ts, main.ts, platform, providers, seeds, the test folder and the benchmarks also reach a module only through its index.ts.',
      severity: 'error',
      from: { pathNot: MODULES },
      to: { path: MODULES, pathNot: `${MODULES}[^/]+/index\\.ts$` },
    },
    {
      name: 'platform-is-below-modules',
      comment: 'platform/ is the bottom layer: it never imports a domain module or a messaging provider (inject what it needs).',
      severity: 'error',
      from: { path: `${SRC}platform/`, pathNot: TESTS },
      to: { path: `${SRC}(modules|messaging-providers)/` },
    },
    {
      name: 'providers-are-below-modules',
      comment: 'messaging-providers/ never imports a domain module: the sandbox gets what it needs from the CRM as injected ports.',
      severity: 'error',
      from: { path: `${SRC}messaging-providers/`, pathNot: TESTS },
      to: { path: MODULES },
    },
    {
      name: 'provider-internals-only-at-the-composition-root',
      comment:
        'Modules use the provider port (messaging-providers/provider.ts); only the composition root (app.ts, main.ts, messaging.ts) ' +
        'and tests pick and build an adapter (gupshup/, meta-cloud/, sandbox/), so vendor-specific code stays under messaging-providers/.',
      severity: 'error',
      from: { pathNot: [`${SRC}messaging-providers/`, `${SRC}(app|main|messaging)\\.ts$`, ...TESTS] },
      to: { path: `${SRC}messaging-providers/[^/]+/` },
    },
    {
      name: 'contracts-depend-on-zod-only',
      comment: 'packages/contracts is shared by server and web: it imports zod and its own files, nothing else (never the ORM).',
      severity: 'error',
      from: { path: '^packages/contracts/src/' },
      to: { pathNot: ['^packages/contracts/src/', 'node_modules/zod/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports couple modules too: they count.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
    cache: false,
  },
};
