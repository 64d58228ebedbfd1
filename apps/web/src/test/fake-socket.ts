/**
 * Stands in for socket.io-client in page tests that render the shell, so they never open a real
 * connection; the realtime client itself is tested against a real socket.io server.
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
