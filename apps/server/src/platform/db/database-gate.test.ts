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
    (await shared.runInBackground(() => shared.enter()))(40);
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

  it('refuses a share outside (0, 1]', () => {
    expect(() => new DatabaseGate({ backgroundPermits: 1, backgroundShare: 0 })).toThrow('backgroundShare');
    expect(() => new DatabaseGate({ backgroundPermits: 1, backgroundShare: 1.5 })).toThrow('backgroundShare');
  });
});
