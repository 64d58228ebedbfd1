import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestDatabase } from '../../../test/support/test-database.ts';
import { createMessageBatches, throttlePerBatch } from './batch-updates.ts';

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

describe('the batches of messages a process remembers', () => {
  it('asks the database once per message, remembers "no batch" too, and needs no lookup for what a chunk job told it', async () => {
    const database = await createTestDatabase();
    try {
      const tenantId = randomUUID();
      const [alone, another, fromChunk] = [randomUUID(), randomUUID(), randomUUID()];
      const batches = createMessageBatches();
      const fromChunkRow = { batchId: 'batch-1', slice: 3 };
      batches.remember(fromChunk, fromChunkRow);
      const asked = (messageIds: string[]) => database.gate.countStatements(() => batches.of(database.db, tenantId, messageIds));

      expect(await asked([alone, fromChunk])).toEqual({ result: new Map([[fromChunk, [fromChunkRow]]]), statements: 1 });
      expect(await asked([alone, fromChunk])).toEqual({ result: new Map([[fromChunk, [fromChunkRow]]]), statements: 0 });
      expect((await asked([alone, another])).statements).toBe(1);
      expect((await asked([another])).statements).toBe(0);
    } finally {
      await database.close();
    }
  });

  it('forgets the oldest past its limit', async () => {
    const database = await createTestDatabase();
    try {
      const batches = createMessageBatches(2);
      const [first, second, third] = [randomUUID(), randomUUID(), randomUUID()];
      const row = { batchId: 'b', slice: 0 };
      batches.remember(first, row);
      batches.remember(second, row);
      batches.remember(third, row);
      const asked = (messageId: string) => database.gate.countStatements(() => batches.of(database.db, randomUUID(), [messageId]));
      expect((await asked(third)).statements).toBe(0);
      // Forgotten, then looked up (no batch links it in this empty database).
      expect(await asked(first)).toEqual({ result: new Map(), statements: 1 });
    } finally {
      await database.close();
    }
  });
});
