/**
 * Runs `work` once the browser has painted the next frame (at once where there are no frames, as under test), and
 * answers a function that cancels it. For work a page starts as it mounts that its first frame does not need.
 */
export function afterNextPaint(work: () => void): () => void {
  if (typeof requestAnimationFrame !== 'function') {
    const timer = setTimeout(work, 0);
    return () => clearTimeout(timer);
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A frame's callbacks run before it is painted; a task queued from one runs after.
  const frame = requestAnimationFrame(() => (timer = setTimeout(work, 0)));
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
