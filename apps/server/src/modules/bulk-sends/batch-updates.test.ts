import { afterEach, describe, expect, it, vi } from 'vitest';
import { throttlePerBatch } from './batch-updates.ts';

afterEach(() => vi.useRealTimers());

describe('batch_updated throttle', () => {
  it('announces the first change at once, folds a burst into one more announcement, and keeps batches apart', () => {
    vi.useFakeTimers();
    const emitted: string[] = [];
    const throttle = throttlePerBatch((tenantId, batchId) => emitted.push(`${tenantId}/${batchId}`), 500);

    throttle.changed('t1', 'a');
    throttle.changed('t1', 'b');
    expect(emitted).toEqual(['t1/a', 't1/b']);
    for (let i = 0; i < 50; i++) throttle.changed('t1', 'a');
    expect(emitted).toHaveLength(2);
    vi.advanceTimersByTime(500);
    // One trailing announcement for the burst on a; b changed once and needs none.
    expect(emitted).toEqual(['t1/a', 't1/b', 't1/a']);
    vi.advanceTimersByTime(500);
    expect(emitted).toHaveLength(3);
    // Quiet again: the next change goes out at once.
    throttle.changed('t1', 'a');
    expect(emitted).toHaveLength(4);
    throttle.close();
  });
});
