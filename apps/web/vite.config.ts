import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { pagePreloadsPlugin } from './build/page-preloads-plugin.ts';

// In development the API, realtime, webhooks and media live on the server process (npm run dev).
const server = 'http://localhost:3000';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // The board is where a signed-in member lands: its document starts the board's reads and preloads the signed-in
    // shell and the board's code.
    pagePreloadsPlugin([
      // The landing's own code, for the document sent on / (the rest of the public pages load theirs on demand).
      { fileName: 'landing.html', modules: ['src/features/landing/LandingPage.tsx'] },
      {
        fileName: 'board.html',
        boot: 'src/features/board/board-boot.ts',
        modules: ['src/app/layouts/ShellLayout.tsx', 'src/features/board/BoardPage.tsx'],
      },
    ]),
  ],
  server: {
    proxy: {
      '/api': server,
      '^/t/[^/]+/api': server,
      '/socket.io': { target: server, ws: true },
      '/webhooks': server,
      '/media': server,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // exceljs (~930 kB) is its own chunk, loaded only when the bulk-send wizard reads or writes a file.
    chunkSizeWarningLimit: 1000,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // React and the router change rarely: a chunk of their own stays cached across releases.
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 3 },
            // What every page runs stays in the entry…
            { name: 'app', tags: ['$initial'], priority: 2 },
            // …and the signed-in shell and the board, where a member lands, are one file with all they import. Split
            // as the router's lazy pages share them, they were eleven files, and each file a page asks for costs the
            // browser's thread more than its size: the board painted ~100 ms sooner from four files (decision 0024).
            // A public page that shares a component with them (the landing's logo) loads this file too, as the board
            // it leads to will.
            { name: 'board', test: /src[\\/](app[\\/]layouts[\\/]ShellLayout|features[\\/]board[\\/]BoardPage)\.tsx$/, priority: 1 },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['src/test/setup-tests.ts'],
    // Above the 5 s that findBy*/waitFor may poll (setup-tests.ts), so a slow first render fails as a clear wait, not a
    // test timeout; and room for a test of many steps on a loaded machine: the agenda's booking test (2 s alone) took
    // 12–16 s in CI on a slow 2-core machine, beside the journeys and the server suites, and failed at 15 s.
    testTimeout: 30_000,
    // Files share each worker's module cache and jsdom (Testing Library cleans the page after every test; sockets are
    // picked per file in src/test/fake-socket.ts): about ten times faster than a fresh environment per file.
    isolate: false,
  },
});
