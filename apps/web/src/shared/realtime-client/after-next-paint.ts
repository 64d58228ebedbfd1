/** A page that paints no frame (hidden, or its frames held back) still gets the work done, this much later at most. */
export const FRAME_WAIT_MAX_MS = 1_000;

/**
 * Runs `work` once the browser has painted the next frame, and answers a function that cancels it. For work a page
 * starts as it mounts that its first frame does not need. A hidden page paints nothing (a board opened in a
 * background tab must still connect): there, and where there are no frames at all, the work runs in the next task.
 */
export function afterNextPaint(work: () => void): () => void {
  const paints = typeof requestAnimationFrame === 'function' && document.visibilityState !== 'hidden';
  let afterFrame: ReturnType<typeof setTimeout> | undefined;
  // Whichever of the two timers runs the work clears the other: it runs once.
  const cancel = () => {
    clearTimeout(latest);
    clearTimeout(afterFrame);
    if (frame !== undefined) cancelAnimationFrame(frame);
  };
  const run = () => {
    cancel();
    work();
  };
  const latest = setTimeout(run, paints ? FRAME_WAIT_MAX_MS : 0);
  // A frame's callbacks run before it is painted; a task queued from one runs after.
  const frame = paints ? requestAnimationFrame(() => (afterFrame = setTimeout(run, 0))) : undefined;
  return cancel;
}
