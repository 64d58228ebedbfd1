import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DatabaseGate } from './database-gate.ts';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Whether `entering` has resolved once pending callbacks ran, without moving the clock. */
async function hasEntered(entering: Promise<unknown>) {
  let entered = false;
  void entering.then(() => (entered = true));
  await vi.advanceTimersByTimeAsync(0);
  return entered;
}

describe('DatabaseGate: the background time share (the embedded database)', () => {
  it('makes background work rest, while a request is in flight, for as long as it last held the connection at a share of a half', async () => {
    const gate = new DatabaseGate({ backgroundPermits: 1, backgroundShare: 0.5 });
    const leaveFirst = await gate.runInBackground(() => gate.enter());
    leaveFirst(40);
    const leaveRequest = await gate.enter();

    const second = gate.runInBackground(() => gate.enter());
    expect(await hasEntered(second)).toBe(false);
    await vi.advanceTimersByTimeAsync(39);
    expect(await hasEntered(second)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await hasEntered(second)).toBe(true);
    leaveRequest();
  });

  it('rests in proportion to the share: a quarter rests three times as long as it held the connection', async () => {
    const gate = new DatabaseGate({ backgroundPermits: 1, backgroundShare: 0.25 });
    (await gate.runInBackground(() => gate.enter()))(10);
    const leaveRequest = await gate.enter();
    const second = gate.runInBackground(() => gate.enter());
    await vi.advanceTimersByTimeAsync(29);
    expect(await hasEntered(second)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await hasEntered(second)).toBe(true);
    leaveRequest();
  });

  it('lets background work go on at once when no request is in flight, or on a database without a share', async () => {
    const shared = new DatabaseGate({ backgroundPermits: 1, backgroundShare: 0.5 });
    (await shared.runInBackground(() => shared.enter()))(10);
    // A request that came and went.
    (await shared.enter())();
    expect(await hasEntered(shared.runInBackground(() => shared.enter()))).toBe(true);

    const pooled = new DatabaseGate({ backgroundPermits: 1 });
    (await pooled.runInBackground(() => pooled.enter()))(40);
    const leaveRequest = await pooled.enter();
    expect(await hasEntered(pooled.runInBackground(() => pooled.enter()))).toBe(true);
    leaveRequest();
  });

  it("counts a request's statement out once, however often its leave is called", async () => {
    const gate = new DatabaseGate({ backgroundPermits: 1, backgroundShare: 0.5 });
    (await gate.runInBackground(() => gate.enter()))(40);
    const leaveOne = await gate.enter();
    const leaveOther = await gate.enter();
    leaveOne();
    leaveOne();
    // The other request is still in flight: background work rests.
    expect(await hasEntered(gate.runInBackground(() => gate.enter()))).toBe(false);
    leaveOther();
  });

  it('after a long hold, looks a few milliseconds for requests that came meanwhile, and rests its share if one shows', async () => {
    const gate = new DatabaseGate({ backgroundPermits: 1, backgroundShare: 0.5 });
    (await gate.runInBackground(() => gate.enter()))(300);
    const second = gate.runInBackground(() => gate.enter());
    expect(await hasEntered(second)).toBe(false);
    // A request read from its socket during the look, answered before the look ends.
    (await gate.enter())();
    await vi.advanceTimersByTimeAsync(3);
    expect(await hasEntered(second)).toBe(false);
    await vi.advanceTimersByTimeAsync(296);
    expect(await hasEntered(second)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await hasEntered(second)).toBe(true);
  });

  it('after a long hold with no request showing during the look, goes on once the look is over', async () => {
    const gate = new DatabaseGate({ backgroundPermits: 1, backgroundShare: 0.5 });
    (await gate.runInBackground(() => gate.enter()))(300);
    const second = gate.runInBackground(() => gate.enter());
    await vi.advanceTimersByTimeAsync(2);
    expect(await hasEntered(second)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await hasEntered(second)).toBe(true);
  });

  it('refuses a share outside (0, 1]', () => {
    expect(() => new DatabaseGate({ backgroundPermits: 1, backgroundShare: 0 })).toThrow('backgroundShare');
    expect(() => new DatabaseGate({ backgroundPermits: 1, backgroundShare: 1.5 })).toThrow('backgroundShare');
  });
});

describe('DatabaseGate: whose statement it is', () => {
  /** A thenable that, like a drizzle query, does its work only when `then` is called. */
  const lazyStatement = (gate: DatabaseGate, background: boolean[]): PromiseLike<void> => ({
    then(onFulfilled, onRejected) {
      gate.counted(1);
      return gate
        .enter()
        .then((leave) => {
          background.push(gate.backgroundInUse > 0);
          leave();
        })
        .then(onFulfilled, onRejected);
    },
  });

  it('runs a lazy query handed to runInBackground as background work, and counts its statements', async () => {
    const gate = new DatabaseGate({ backgroundPermits: 1 });
    const background: boolean[] = [];
    await gate.runInBackground(() => lazyStatement(gate, background));
    expect(background).toEqual([true]);

    const { statements } = await gate.countStatements(() => lazyStatement(gate, background));
    expect(statements).toBe(1);
  });
});
