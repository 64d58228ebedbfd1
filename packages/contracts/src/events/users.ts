/** Domain events of the users and auth modules. */
import { z } from 'zod';

/** A member's role, funnel access or active state changed. */
export const userAccessChanged = z.object({
  userId: z.uuid(),
  deactivated: z.boolean(),
});

/** A member's sessions ended before their time: one (logout) or all of them (password change, revocation, deactivation). */
export const sessionEnded = z.object({
  userId: z.uuid(),
  /** Set when one session ended (logout); absent when every session of the user did. */
  sessionId: z.uuid().optional(),
  reason: z.enum(['logout', 'password_changed', 'revoked', 'deactivated']),
});
