import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useStableHandlers } from './use-stable-handlers.ts';

describe('useStableHandlers', () => {
  it('keeps the identity of each handler across renders and calls the latest one given', () => {
    const first = vi.fn((value: number) => value + 1);
    const second = vi.fn((value: number) => value * 10);
    const { result, rerender } = renderHook(({ onValue }) => useStableHandlers({ onValue }), { initialProps: { onValue: first } });
    const stable = result.current;
    expect(stable.onValue(1)).toBe(2);

    rerender({ onValue: second });
    expect(result.current).toBe(stable);
    expect(result.current.onValue).toBe(stable.onValue);
    expect(stable.onValue(2)).toBe(20);
    expect(first).toHaveBeenCalledOnce();
  });
});
