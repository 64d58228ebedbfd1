/**
 * Stands in for socket.io-client in page tests that render the shell, so they never open a real
 * connection; the realtime client itself is tested against a real socket.io server.
 *
 * The test setup mocks socket.io-client once for every file (setup-tests.ts), and its `io()` answers what
 * `socketStandIn.factory` makes. Test files share one module cache (vitest's `isolate: false`), so a per-file
 * `vi.mock` would only take effect in the first file that imports the realtime client; each file picks its sockets
 * here instead, and the setup puts the silent stand-in back before every file.
 */
export function createFakeSocket() {
  const noop = () => undefined;
  return {
    active: true,
    connected: false,
    on: noop,
    off: noop,
    emit: noop,
    connect: noop,
    disconnect: noop,
    removeAllListeners: noop,
    io: { on: noop, removeAllListeners: noop },
  };
}

/** What the mocked `io()` answers: a stand-in's maker, or undefined for socket.io-client's own (a real connection). */
export const socketStandIn: { factory: (() => unknown) | undefined } = { factory: createFakeSocket };

/** This test file's sockets come from `create`; `current` is the newest one the app opened. */
export function standInSockets<Socket>(create: () => Socket): { readonly current: Socket | null } {
  const opened = { current: null as Socket | null };
  socketStandIn.factory = () => (opened.current = create());
  return opened;
}

/** This test file connects for real (to a socket.io server it starts itself). */
export function useRealSockets() {
  socketStandIn.factory = undefined;
}
