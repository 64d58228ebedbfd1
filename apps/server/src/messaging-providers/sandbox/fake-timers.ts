/**
 * The fakes' delayed work (status callbacks, template reviews), cleared together when a fake closes. A message's
 * statuses are played as a chain, each `stepMs` after the previous one was delivered: independent timers let a slow
 * callback (a busy machine) post `read` before `delivered`, which the providers do not do for one message.
 */
export class FakeTimers {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  later(ms: number, task: () => Promise<void>): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void task();
    }, ms);
    this.timers.add(timer);
  }

  /** Runs the steps one after another: the first after `firstMs`, each next one `stepMs` after the previous finished. */
  inOrder(firstMs: number, stepMs: number, steps: ReadonlyArray<() => Promise<void>>): void {
    const [step, ...rest] = steps;
    if (!step) return;
    this.later(firstMs, async () => {
      await step();
      this.inOrder(stepMs, stepMs, rest);
    });
  }

  clear(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
