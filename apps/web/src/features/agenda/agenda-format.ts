import { minutesToClockTime, wallClockOf } from '@embudo/contracts/time/wall-clock';

/** Spec 02 §3: a service cost shows with 2 decimals, and anything that is not a number as 0. */
export function formatCost(cost: unknown): string {
  const amount = typeof cost === 'number' ? cost : Number(cost);
  return `$${(Number.isFinite(amount) ? amount : 0).toFixed(2)}`;
}

/** "10:00" as a clock in the tenant's time zone shows the instant. */
export const clockTimeOf = (instant: string, timezone: string) => minutesToClockTime(wallClockOf(new Date(instant), timezone).minutes);

export const spanLabel = (span: { startTime: string; endTime: string }, timezone: string) =>
  `${clockTimeOf(span.startTime, timezone)} – ${clockTimeOf(span.endTime, timezone)}`;
