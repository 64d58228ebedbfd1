import { describe, expect, it } from 'vitest';
import { extractUsage } from './usage.api.ts';

const usage = {
  totalCost: 1.23456,
  sentCount: 10,
  receivedCount: 4,
  marketingTemplateCount: 2,
  utilityTemplateCount: 1,
  failedUnbilledCount: 2,
  aiAnswerCount: 5,
  aiTokenCount: 4200,
};

describe('extractUsage', () => {
  it('takes the usage itself', () => {
    expect(extractUsage(usage)).toEqual(usage);
  });

  it('takes a usage held in an object', () => {
    expect(extractUsage({ usage })).toEqual(usage);
    expect(extractUsage({ data: usage })).toEqual(usage);
  });

  it('reads numbers sent as strings and defaults missing ones to 0', () => {
    expect(extractUsage({ totalCost: '0.5000', sentCount: 3 })).toEqual({
      totalCost: 0.5,
      sentCount: 3,
      receivedCount: 0,
      marketingTemplateCount: 0,
      utilityTemplateCount: 0,
      failedUnbilledCount: 0,
      aiAnswerCount: 0,
      aiTokenCount: 0,
    });
  });

  it.each([[undefined], [null], [{}], [[]], [{ usage: null }]])('finds nothing in %j', (answer) => {
    expect(extractUsage(answer)).toBeNull();
  });
});
