import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { createFakeSocket, socketStandIn } from './fake-socket.ts';

// Every file's sockets: the silent stand-in unless the file picks others (fake-socket.ts says why not a per-file mock).
vi.mock('socket.io-client', async (importOriginal) => {
  const real = await importOriginal<typeof import('socket.io-client')>();
  const { socketStandIn: standIn } = await import('./fake-socket.ts');
  const io = ((...args: Parameters<typeof real.io>) => (standIn.factory ? standIn.factory() : real.io(...args))) as typeof real.io;
  return { ...real, io };
});
socketStandIn.factory = createFakeSocket;

// The shell opens its socket once the page has painted; jsdom paints nothing, so pages open it as they mount (the
// wait itself is tested in after-next-paint.test.ts).
vi.mock('../shared/realtime-client/after-next-paint.ts', () => ({
  afterNextPaint: (work: () => void) => {
    let cancelled = false;
    queueMicrotask(() => cancelled || work());
    return () => (cancelled = true);
  },
}));

// findBy*/waitFor poll a condition; a busy CI machine can take over the 1 s default to render a lazy route.
configure({ asyncUtilTimeout: 5000 });

// jsdom does not scroll; the router's scroll restoration calls it on every navigation.
window.scrollTo = () => undefined;

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
});
