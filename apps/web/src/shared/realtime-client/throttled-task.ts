/**
 * Runs `task` at most once per `windowMs`: the first request at once, and any requests made during the window
 * folded into one run at its end. A burst of realtime events then costs one or two reloads, not one each.
 */
export function throttledTask(task: () => void, windowMs: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending = false;
  const request = () => {
    if (timer) {
      pending = true;
      return;
    }
    task();
    timer = setTimeout(() => {
      timer = undefined;
      if (pending) {
        pending = false;
        request();
      }
    }, windowMs);
  };
  return {
    request,
    dispose: () => {
      clearTimeout(timer);
      timer = undefined;
      pending = false;
    },
  };
}
