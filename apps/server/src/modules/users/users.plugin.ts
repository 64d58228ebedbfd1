import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context.ts';
import { registerTenantRoutes } from '../../platform/http/route-access.ts';
import type { RevokeSessions } from './team.service.ts';
import { usersRoutes } from './users.routes.ts';

export interface UsersPluginOptions extends AppContext {
  /** Ends a member's sessions in the transaction that resets or deactivates them (auth sits above users). */
  revokeSessions: RevokeSessions;
}

/** Team members, roles and funnel access; a change of access reaches the member's open connections at once. */
export const usersPlugin: FastifyPluginAsync<UsersPluginOptions> = async (app, { db, domainEvents, realtime, revokeSessions }) => {
  await registerTenantRoutes(app, (scope) =>
    scope.register(usersRoutes, {
      db,
      domainEvents,
      revokeSessions,
      onSessionsRevoked: (userId) => realtime.disconnectUser(userId),
      onAccessChanged: async (user) => {
        await realtime.refreshUserAccess(user.id);
        realtime.emitToUser(user.id, 'user_updated', user);
        realtime.emitToUser(user.id, 'funnels_updated', {});
      },
    }),
  );
};
