import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The test setup stands in for this module in page tests (jsdom paints nothing); here it is the real one.
const { afterNextPaint, FRAME_WAIT_MAX_MS } = await vi.importActual<typeof import('./after-next-paint.ts')>('./after-next-paint.ts');

describe('afterNextPaint', () => {
  let frames: Map<number, FrameRequestCallback>;
  const paintFrame = () => {
    const callbacks = [...frames.values()];
    frames.clear();
    for (const callback of callbacks) callback(0);
  };

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    frames = new Map();
    let next = 0;
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
      frames.set(++next, callback);
      return next;
    });
    vi.stubGlobal('cancelAnimationFrame', (id: number) => frames.delete(id));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('runs the work in a task after the next frame, not in the frame before its paint', () => {
    const work = vi.fn();
    afterNextPaint(work);
    expect(work).not.toHaveBeenCalled();
    paintFrame();
    expect(work).not.toHaveBeenCalled();
    vi.advanceTimersByTime(0);
    expect(work).toHaveBeenCalledOnce();
    vi.runAllTimers();
    expect(work).toHaveBeenCalledOnce();
  });

  it('runs the work at the latest after FRAME_WAIT_MAX_MS when no frame comes, once', () => {
    const work = vi.fn();
    afterNextPaint(work);
    vi.advanceTimersByTime(FRAME_WAIT_MAX_MS - 1);
    expect(work).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(work).toHaveBeenCalledOnce();
    paintFrame();
    vi.runAllTimers();
    expect(work).toHaveBeenCalledOnce();
  });

  it('does not wait for a frame on a hidden page (a board opened in a background tab)', () => {
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    const work = vi.fn();
    afterNextPaint(work);
    vi.advanceTimersByTime(0);
    expect(work).toHaveBeenCalledOnce();
  });

  it('does nothing once cancelled, before or after the frame', () => {
    const beforeFrame = vi.fn();
    afterNextPaint(beforeFrame)();
    const afterFrame = vi.fn();
    const cancelAfter = afterNextPaint(afterFrame);
    paintFrame();
    cancelAfter();
    vi.runAllTimers();
    expect(beforeFrame).not.toHaveBeenCalled();
    expect(afterFrame).not.toHaveBeenCalled();
  });

  it('runs the work in the next task where there are no frames', () => {
    vi.stubGlobal('requestAnimationFrame', undefined);
    const work = vi.fn();
    afterNextPaint(work);
    expect(work).not.toHaveBeenCalled();
    vi.advanceTimersByTime(0);
    expect(work).toHaveBeenCalledOnce();
  });
});
