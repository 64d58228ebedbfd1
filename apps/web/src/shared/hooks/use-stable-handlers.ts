import { useLayoutEffect, useMemo, useRef } from 'react';

type Handler = (...args: never[]) => unknown;

/**
 * The same handlers with an identity that never changes, each calling the latest one given: children memoised on
 * their props (the board's cards) then skip the renders of a parent whose handlers close over fresh state every time.
 * The set of names must not change between renders; a handler may not be called during render.
 */
export function useStableHandlers<T extends { [Name in keyof T]: Handler }>(handlers: T): T {
  const latest = useRef(handlers);
  useLayoutEffect(() => {
    latest.current = handlers;
  });
  return useMemo(
    () =>
      Object.fromEntries(Object.keys(latest.current).map((name) => [name, (...args: never[]) => (latest.current[name as keyof T] as Handler)(...args)])) as T,
    [],
  );
}
