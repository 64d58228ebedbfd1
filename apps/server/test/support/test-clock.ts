/**
 * A clock for the app's time-based rules (sign-in delays, session expiry): it follows real time until a
 * test moves it forward or freezes it, so nobody has to sleep.
 */
export function createTestClock() {
  let offsetMs = 0;
  let frozenAt: number | undefined;
  return {
    now: () => new Date(frozenAt ?? Date.now() + offsetMs),
    /** Stops the clock, so concurrent requests all happen at the same instant. */
    freeze() {
      frozenAt ??= Date.now() + offsetMs;
    },
    /** Runs with real time again, from where the clock stands. */
    resume() {
      if (frozenAt !== undefined) offsetMs = frozenAt - Date.now();
      frozenAt = undefined;
    },
    advance(ms: number) {
      if (frozenAt !== undefined) frozenAt += ms;
      else offsetMs += ms;
    },
  };
}

export type TestClock = ReturnType<typeof createTestClock>;
