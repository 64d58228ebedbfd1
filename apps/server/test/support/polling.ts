import type { TestApp } from './build-test-app.ts';

/**
 * Polls until the probe answers something truthy, running the jobs that are due between tries (a send, a status the
 * provider calls back with), or fails after the deadline (no fixed sleeps).
 */
export async function untilWithJobs<T>(t: TestApp, probe: () => Promise<T | undefined | false>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await t.app.queue.runDueJobsOnce();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
