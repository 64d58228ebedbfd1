import type { tenants, users } from '../../../db/schema/index.ts';

/**
 * A signed-in member's live session, as the route guard and the realtime handshake hand it over.
 * It lives in the platform (the auth module resolves it) so that platform code needs no module.
 */
export interface AuthenticatedSession {
  sessionId: string;
  user: typeof users.$inferSelect;
  tenant: typeof tenants.$inferSelect;
  /** The funnels the member works (every funnel of the company for owners and admins), read with the session. */
  funnelIds: readonly string[];
}
