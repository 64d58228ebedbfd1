/**
 * How long a session (tenant or operator) lives: it expires after `idleMs` without use and `maxMs` after
 * sign-in, whichever comes first. An expired session answers 401 exactly like a revoked one.
 */
export interface SessionLifetime {
  idleMs: number;
  maxMs: number;
}

const DAY_MS = 86_400_000;

export const defaultSessionLifetime: SessionLifetime = { idleMs: 30 * DAY_MS, maxMs: 90 * DAY_MS };

export const daysToSessionLifetime = (idleDays: number, maxDays: number): SessionLifetime => ({ idleMs: idleDays * DAY_MS, maxMs: maxDays * DAY_MS });

/** The lifetime rules and the clock sessions are judged by (tests move the clock). */
export interface SessionPolicy {
  lifetime: SessionLifetime;
  clock: () => Date;
}

/**
 * The last-used time is written at most once a minute per session, never on every request:
 * idle expiry counts in days, so a minute of slack costs nothing and saves a write per call.
 */
export const LAST_USED_WRITE_INTERVAL_MS = 60_000;

export function sessionExpired(session: { createdAt: Date; lastUsedAt: Date }, lifetime: SessionLifetime, now: Date): boolean {
  return now.getTime() - session.lastUsedAt.getTime() >= lifetime.idleMs || now.getTime() - session.createdAt.getTime() >= lifetime.maxMs;
}

/** The cut-off below which a session's last-used time is rewritten. */
export const lastUsedStaleBefore = (now: Date) => new Date(now.getTime() - LAST_USED_WRITE_INTERVAL_MS);
