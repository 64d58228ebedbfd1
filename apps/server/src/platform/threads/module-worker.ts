import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running the module at `entry`. Node 20 does not load a worker's TypeScript entry through the
 * parent's loader (`--import tsx`, vitest), so a `.ts` entry is started by a bootstrap that registers tsx in the worker
 * first; a built `.js` entry starts as it is.
 */
export function moduleWorker(entry: URL, options: WorkerOptions = {}): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, options);
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}
