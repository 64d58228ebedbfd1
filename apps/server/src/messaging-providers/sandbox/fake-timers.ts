import type { FakeName, FakeStateStore } from './fake-state-store.ts';

/**
 * The fakes' delayed work (status callbacks, template reviews), cleared together when a fake closes. A message's
 * statuses are played as a chain, each `stepMs` after the previous one was delivered: independent timers let a slow
 * callback (a busy machine) post `read` before `delivered`, which the providers do not do for one message.
 */
export class FakeTimers {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  get isClosed() {
    return this.closed;
  }

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

export interface StatusChainOptions<S> {
  fake: FakeName;
  store: FakeStateStore;
  timers: FakeTimers;
  /** Sends one status (its callback); answers whether it was delivered. */
  play: (status: S) => Promise<boolean>;
  /** Between one status of a message and the next (the fake's `statusStepMs`): 400 ms unless given. */
  stepMs?: number;
  log?: { warn(obj: unknown, msg?: string): void };
}

/**
 * Template reviews an earlier run left under way: held while the fake reads its state, each scheduled for what remains
 * of its wait once the fake resumes.
 */
export class HeldReviews<T> {
  private readonly held: Array<{ template: T; dueAt: Date }> = [];

  hold(template: T, dueAt: Date): void {
    this.held.push({ template, dueAt });
  }

  release(schedule: (template: T, delayMs: number) => void): void {
    const now = Date.now();
    for (const { template, dueAt } of this.held.splice(0)) schedule(template, Math.max(0, dueAt.getTime() - now));
  }
}

/**
 * The statuses a fake owes for the messages it took, kept in its state store (the database in the sandbox) with when
 * each is due: the store is the truth, the timers only wake the chain. Each status is taken from the store as it is
 * sent, so none is sent twice; after a restart `resume` sends what remains, late ones at once, in order per message.
 */
export class FakeStatusChains<S> {
  readonly stepMs: number;

  constructor(private readonly options: StatusChainOptions<S>) {
    this.stepMs = options.stepMs ?? 400;
  }

  /** Keeps the message's statuses (answers once they are kept), then plays them: the first after `firstMs`, each next `stepMs` after the previous. */
  async start(messageId: string, firstMs: number, statuses: S[]): Promise<void> {
    const now = Date.now();
    const steps = statuses.map((status, step) => ({ step, dueAt: new Date(now + firstMs + step * this.stepMs), status }));
    await this.options.store.addStatuses(this.options.fake, messageId, steps);
    this.run(messageId, firstMs);
  }

  /** Wakes every message that still has statuses to send (at start, once callbacks can reach the server). */
  async resume(): Promise<number> {
    const pending = await this.options.store.pendingMessages(this.options.fake);
    const now = Date.now();
    for (const { messageId, dueAt } of pending) this.run(messageId, Math.max(0, dueAt.getTime() - now));
    return pending.length;
  }

  private run(messageId: string, delayMs: number) {
    const stepMs = this.stepMs;
    const { store, fake, timers } = this.options;
    timers.later(delayMs, async () => {
      try {
        const claimed = await store.claimStatus<S>(fake, messageId);
        if (!claimed) return;
        const delivered = await this.options.play(claimed.status);
        // Closing: what could not be delivered goes back to the store, for the next start.
        if (!delivered && timers.isClosed) {
          await store.restoreStatus(fake, messageId, { step: claimed.step, dueAt: new Date(), status: claimed.status });
          return;
        }
        if (claimed.nextDueAt) this.run(messageId, Math.max(0, Math.min(stepMs, claimed.nextDueAt.getTime() - Date.now())));
      } catch (error) {
        this.options.log?.warn({ err: error, messageId }, 'sandbox status not sent');
      }
    });
  }
}
