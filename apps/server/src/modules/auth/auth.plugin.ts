import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context.ts';
import { authRoutes } from './auth.routes.ts';
import { defaultThrottleLimits, type ThrottleLimits } from './login-throttle.ts';

export interface AuthPluginOptions extends AppContext {
  throttle?: ThrottleLimits;
}

/** Sign-in, sessions and registration; a changed password or a logout ends the live connections it opened. */
export const authPlugin: FastifyPluginAsync<AuthPluginOptions> = async (app, { db, clock, domainEvents, realtime, throttle }) => {
  await app.register(authRoutes, {
    db,
    clock,
    domainEvents,
    throttle: throttle ?? defaultThrottleLimits,
    onPasswordChanged: (_tenantId, userId) => realtime.disconnectUser(userId),
    onLogout: (sessionId) => realtime.disconnectSession(sessionId),
  });
};
