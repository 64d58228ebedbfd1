import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_PAGE_WAIT_MAX_MS, whenRouterReady } from './when-router-ready.ts';

/** A router as far as whenRouterReady sees it: its state and its subscribers. */
function fakeRouter(initialized: boolean) {
  const subscribers = new Set<(state: { initialized: boolean }) => void>();
  const router = {
    state: { initialized },
    subscribe: (subscriber: (state: { initialized: boolean }) => void) => {
      subscribers.add(subscriber);
      return () => subscribers.delete(subscriber);
    },
  };
  const update = (next: boolean) => {
    router.state = { initialized: next };
    for (const subscriber of [...subscribers]) subscriber(router.state);
  };
  // The router's full type is far larger than what is read here.
  return { router: router as unknown as Parameters<typeof whenRouterReady>[0], update, subscribers };
}

describe('whenRouterReady', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
  afterEach(() => vi.useRealTimers());

  it('renders at once when the router already holds the first page', () => {
    const { router } = fakeRouter(true);
    const render = vi.fn();
    whenRouterReady(router, render);
    expect(render).toHaveBeenCalledOnce();
  });

  it('waits for the first page’s code, renders once when it arrives and stops listening', () => {
    const { router, update, subscribers } = fakeRouter(false);
    const render = vi.fn();
    whenRouterReady(router, render);
    update(false);
    expect(render).not.toHaveBeenCalled();
    update(true);
    expect(render).toHaveBeenCalledOnce();
    expect(subscribers.size).toBe(0);
    vi.runAllTimers();
    expect(render).toHaveBeenCalledOnce();
  });

  it('renders the loading screen when the code takes longer, and not again when it arrives', () => {
    const { router, update } = fakeRouter(false);
    const render = vi.fn();
    whenRouterReady(router, render);
    vi.advanceTimersByTime(FIRST_PAGE_WAIT_MAX_MS - 1);
    expect(render).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(render).toHaveBeenCalledOnce();
    update(true);
    expect(render).toHaveBeenCalledOnce();
  });
});
