import { describe, expect, it } from 'vitest';
import { SharedReads } from './shared-reads.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A read of a value that changes: each load records when it started and answers the value then. */
function source(durationMs: number) {
  let value = 0;
  const starts: number[] = [];
  return {
    set: (next: number) => {
      value = next;
    },
    starts,
    load: async () => {
      starts.push(performance.now());
      const seen = value;
      await sleep(durationMs);
      return seen;
    },
  };
}

describe('SharedReads', () => {
  it('shares one read among the callers that arrive while another runs, and never answers one with a read begun before its call', async () => {
    const reads = new SharedReads<number>({ gapFactor: 0 });
    const data = source(30);
    const first = reads.read('k', data.load);
    await sleep(5);
    data.set(1); // Changed after the first read began: the callers below must see it.
    const later = Array.from({ length: 10 }, () => reads.read('k', data.load));
    expect(await first).toBe(0);
    expect(await Promise.all(later)).toEqual(Array(10).fill(1));
    expect(data.starts).toHaveLength(2);
  });

  it('spaces the reads of one key by their cost, and keys apart do not wait for each other', async () => {
    const reads = new SharedReads<number>({ gapFactor: 3 });
    const slow = source(40);
    const other = source(5);
    await reads.read('slow', slow.load);
    const again = reads.read('slow', slow.load);
    const beside = await reads.read('other', other.load);
    expect(beside).toBe(0);
    await again;
    expect(other.starts[0]!).toBeLessThan(slow.starts[1]!);
    // Three times the first read's 40 ms after it ended, so four after it began; timers may fire a millisecond early (twice here).
    // Measured from its start, not from when this test saw it end: on a loaded machine the test's own continuation
    // ran a few ms after the read's end and the gap it saw came out short (117.97 ms against 118, in CI).
    expect(slow.starts[1]! - slow.starts[0]!).toBeGreaterThanOrEqual(4 * 40 - 6);
  });

  it('rejects the callers of a failed read, and the next caller gets a read of its own', async () => {
    const reads = new SharedReads<number>({ gapFactor: 0 });
    let fail = true;
    const load = async () => {
      await sleep(5);
      if (fail) throw new Error('se cayó la base');
      return 7;
    };
    const failed = [reads.read('k', load), reads.read('k', load)];
    for (const read of failed) await expect(read).rejects.toThrow('se cayó la base');
    fail = false;
    expect(await reads.read('k', load)).toBe(7);
  });
});
